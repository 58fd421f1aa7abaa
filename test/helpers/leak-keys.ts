// Keys for the key-leakage property: random keys (URL-, JSON-, regex-shaped, unicode, quotes, `$`/`!` prefixes),
// the key expressions that spell them (pi's escaping rules, a quoted `!printf`), and the scan for them in output.

import fc from "fast-check";

const ALNUM = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const nonce = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 5, maxLength: 5 });
const METACHARS = [..."\\^$.|?*+()[]{}/'\"`!#%&;<>=,:@~-_ "];

/** The interesting middle of a key: URL-, JSON- and regex-shaped text, quotes, unicode, plain tokens. */
const shape: fc.Arbitrary<string> = fc.oneof(
	fc.string({ unit: fc.constantFrom(...ALNUM, "-", "_"), minLength: 8, maxLength: 48 }),
	fc.webUrl({ withQueryParameters: true, withFragments: true }).map((url) => url.replace("https://", "https://u:p@")),
	fc.json({ maxDepth: 2 }).filter((text) => text.length >= 2),
	fc.array(fc.constantFrom(...METACHARS, ...ALNUM.slice(0, 6)), { minLength: 4, maxLength: 24 }).map((c) => c.join("")),
	fc.string({ unit: "grapheme", minLength: 2, maxLength: 12 }),
	fc.string({ unit: fc.constantFrom(..."äöüßéñøÿ¡§"), minLength: 2, maxLength: 8 }),
	fc.constantFrom("$" + "{HOME}", "$HOME", "$$", "$!", "!!", "'\"'", "\\n", "%s%d", "sk-ant-api03-", "Bearer x"),
);

/**
 * A key: nonce + shape + nonce, so its first and last 8 characters are unique to it (a URL-shaped key must not be
 * "found" in a result URL); sometimes behind a `$`, `!`, `$$`, `${` or `$!` that the key expression has to escape.
 */
export const keyArb: fc.Arbitrary<string> = fc
	.tuple(fc.constantFrom("", "", "", "$", "!", "$$", "${", "$!"), nonce, shape, nonce)
	.map(([lead, a, middle, b]) => `${lead}${a}${middle}${b}`)
	// Keys come trimmed (pi and `!command` output) and cannot carry control characters in an HTTP header.
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is left out
	.filter((key) => key === key.trim() && !/[\u0000-\u001f\u007f]/.test(key));

/** The apiKey expression whose value is `key` (pi's rules: `$$` is a literal `$`, `$!` a literal leading `!`). */
export function literalExpression(key: string): string {
	if (key.startsWith("$")) return `$${key}`;
	if (key.startsWith("!")) return `$!${key.slice(1)}`;
	return key;
}

/** `!printf %s '<key>'` with the key single-quoted for sh (a quote inside becomes '\''). */
export function commandExpression(key: string): string {
	return `!printf %s '${key.replaceAll("'", "'\\''")}'`;
}

/**
 * What must never be seen: the key, its first and last 8 characters, the 12-character piece the echo server
 * repeats (`piece`, crossing a nonce edge so it is unique to the key), its base64 and its URL encoding.
 */
export function needles(key: string, piece = ""): string[] {
	if (key.length <= 8) return [key];
	const found = [key, key.slice(0, 8), key.slice(-8), Buffer.from(key).toString("base64")];
	if (piece.length >= 8) found.push(piece);
	if (encodeURIComponent(key) !== key) found.push(encodeURIComponent(key));
	return found;
}

/** Every string inside a value (objects, arrays, errors' messages and attempts). */
export function stringsOf(value: unknown, out: string[] = [], depth = 0): string[] {
	if (depth > 20) return out;
	if (typeof value === "string") out.push(value);
	else if (value instanceof Error) {
		out.push(value.message, String(value));
		stringsOf((value as { attempts?: unknown }).attempts, out, depth + 1);
	} else if (Array.isArray(value)) for (const item of value) stringsOf(item, out, depth + 1);
	else if (value !== null && typeof value === "object") {
		for (const [name, item] of Object.entries(value)) {
			out.push(name);
			stringsOf(item, out, depth + 1);
		}
	}
	return out;
}

export interface Leak {
	where: string;
	needle: string;
	text: string;
}

/** Records every text (labelled) in which a needle of `key` appears. */
export class LeakScan {
	readonly leaks: Leak[] = [];
	readonly key: string;
	private readonly needles: string[];
	constructor(key: string, piece = "") {
		this.key = key;
		this.needles = needles(key, piece);
	}
	check(where: string, value: unknown): void {
		for (const text of stringsOf(value)) {
			const needle = this.needles.find((n) => text.includes(n));
			if (needle !== undefined) {
				const at = text.indexOf(needle);
				this.leaks.push({ where, needle, text: text.slice(Math.max(0, at - 120), at + needle.length + 40) });
			}
		}
	}
}
