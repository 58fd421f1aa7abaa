// Whole numbers with their digits grouped by commas (16,594), for tool descriptions and result headers. Not
// `toLocaleString("en-US")`: its first call in a process loads ICU's number formatting, which measured 20 ms here, and
// the tool descriptions are built while pi starts.

/** `16594` → `16,594`; the same as `n.toLocaleString("en-US")` for every safe integer (test/thousands.test.ts). */
export function thousands(n: number): string {
	if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
	const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
	return n < 0 || Object.is(n, -0) ? `-${digits}` : digits;
}
