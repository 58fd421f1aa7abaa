// Numbers as people read them: whole numbers with their digits grouped by commas (16,594), for result headers and
// status lines, and sizes in KB or MB for notices. Not `toLocaleString("en-US")`: its first call in a process loads
// ICU's number formatting, which measured 20 ms here, on the first result or status line.

/** `16594` → `16,594`; the same as `n.toLocaleString("en-US")` for every safe integer (test/thousands.test.ts). */
export function thousands(n: number): string {
	if (!Number.isSafeInteger(n)) return n.toLocaleString("en-US");
	const digits = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ",");
	return n < 0 || Object.is(n, -0) ? `-${digits}` : digits;
}

/** `48 KB`, `3.8 MB`: a size in whole kilobytes (rounded up, so a non-empty size never reads 0 KB) or tenths of MB. */
export function formatBytes(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
