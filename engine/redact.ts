// The one secret mask of the project: any run of 8 or more characters of a key — raw, URL-encoded or base64 (at
// any byte alignment) — becomes SECRET_MASK, and so does a shorter start of it cut off by "…" or the text's end.
// Pure string work, so providers, the executor and the runtime all use it; one matcher is built per set of keys.

/** What replaces a key (or a piece of one) wherever it would be shown. */
export const SECRET_MASK = "[key]";

export const REDACT_DEFAULTS = {
	/** A run of this many characters of a key is masked wherever it shows up. */
	gramChars: 8,
	/** Shorter keys are masked only whole; keys shorter than this are not masked (they would mask ordinary words). */
	minSecretChars: 4,
	/** A start of a key this long or longer is masked when a cut ("…" or the end) follows it. */
	cutPieceChars: 4,
	/** Matchers kept for reuse (keys of one process are few). */
	cacheEntries: 64,
};

const AUTH_SCHEME = /^(bearer|basic|token)\s+/i;
const BASE = 31;

/** The shift-table slot of two adjacent characters (16 bits; distinct pairs may share one). */
function pairSlot(first: number, second: number): number {
	return ((first << 6) ^ second) & 0xffff;
}

function gramHash(text: string, at: number): number {
	let hash = 0;
	for (let i = 0; i < REDACT_DEFAULTS.gramChars; i++) hash = (Math.imul(hash, BASE) + text.charCodeAt(at + i)) | 0;
	return hash;
}

/** base64 of the key as it reads inside a longer base64 text: at each of the three byte offsets, edges dropped. */
function base64Forms(secret: string): string[] {
	const bytes = new TextEncoder().encode(secret);
	const base64 = (lead: number) => {
		let binary = "\u0000".repeat(lead);
		for (const byte of bytes) binary += String.fromCharCode(byte);
		return btoa(binary);
	};
	const plain = base64(0);
	const forms = [plain, plain.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")];
	// Shifted by one or two bytes: the first group mixes our zero bytes in, the last depends on what follows.
	for (const lead of [1, 2]) forms.push(base64(lead).slice(4, -4));
	return forms;
}

/** The spellings a key travels under: raw, URL-encoded (both styles), base64. */
function formsOf(secret: string): string[] {
	const forms = new Set([secret, encodeURIComponent(secret), new URLSearchParams({ k: secret }).toString().slice(2)]);
	for (const form of base64Forms(secret)) forms.add(form);
	return [...forms];
}

/** Masks key material in text. Build once per set of keys (redactorFor), use on every string of a call. */
export class Redactor {
	/** Rolling hash of each 8-character piece of every form → the pieces. */
	private readonly grams = new Map<number, string[]>();
	/**
	 * How far the window may move on when its last two characters are these (Wu–Manber): no piece ends within that
	 * distance. Most two-character pairs of ordinary text are in no key, so most of a text is skipped gramChars − 1
	 * characters at a time; a shared slot of two pairs keeps the smaller distance, so a match is never jumped over.
	 */
	private readonly shift = new Uint8Array(1 << 16).fill(REDACT_DEFAULTS.gramChars - 1);
	/** Keys too short for pieces, masked whole. */
	private readonly whole: string[] = [];
	/** Starts of keys (cutPieceChars..gramChars-1 long) masked before a cut. */
	private readonly cutStarts: string[] = [];
	/** The same starts followed by "…", built once rather than for every string a call masks. */
	private readonly cutMarks: string[] = [];
	/** The last character codes of those starts: a text ending otherwise ends with none of them. */
	private readonly cutEnds: number[] = [];

	constructor(secrets: readonly string[]) {
		const { gramChars, minSecretChars, cutPieceChars } = REDACT_DEFAULTS;
		for (const value of secrets) {
			// A header value's auth scheme is no secret: masking it would eat the word before an echoed key.
			const secret = value.replace(AUTH_SCHEME, "");
			if (secret.length < minSecretChars) continue;
			if (secret.length < gramChars) this.whole.push(secret);
			for (let n = Math.min(gramChars - 1, secret.length); n >= cutPieceChars; n--) {
				this.cutStarts.push(secret.slice(0, n));
			}
			for (const form of formsOf(secret)) {
				for (let at = 0; at + gramChars <= form.length; at++) {
					const gram = form.slice(at, at + gramChars);
					const hash = gramHash(gram, 0);
					for (let end = 1; end < gramChars; end++) {
						const slot = pairSlot(gram.charCodeAt(end - 1), gram.charCodeAt(end));
						this.shift[slot] = Math.min(this.shift[slot]!, gramChars - 1 - end);
					}
					const list = this.grams.get(hash);
					if (list === undefined) this.grams.set(hash, [gram]);
					else if (!list.includes(gram)) list.push(gram);
				}
			}
		}
		this.cutStarts.sort((a, b) => b.length - a.length);
		this.cutMarks = this.cutStarts.map((start) => `${start}…`);
		for (const start of this.cutStarts) {
			const code = start.charCodeAt(start.length - 1);
			if (!this.cutEnds.includes(code)) this.cutEnds.push(code);
		}
	}

	/** True when the redactor would change nothing anyway (no usable key). */
	get empty(): boolean {
		return this.grams.size === 0 && this.whole.length === 0;
	}

	/** The text with every piece of key material masked. */
	redact(text: string): string {
		if (this.empty || text.length < REDACT_DEFAULTS.minSecretChars) return text;
		let out = this.maskGrams(text);
		for (const secret of this.whole) if (out.includes(secret)) out = out.replaceAll(secret, SECRET_MASK);
		return this.maskCuts(out);
	}

	/**
	 * One pass over the text: the window jumps by the shift of its last two characters and is compared with the
	 * pieces only where one may end (shift 0); covered ranges are merged and each replaced by one mask.
	 */
	private maskGrams(text: string): string {
		const { gramChars } = REDACT_DEFAULTS;
		if (this.grams.size === 0 || text.length < gramChars) return text;
		let parts: string[] | undefined;
		let copied = 0;
		let runStart = -1;
		let runEnd = -1;
		for (let end = gramChars - 1; end < text.length; ) {
			const skip = this.shift[pairSlot(text.charCodeAt(end - 1), text.charCodeAt(end))]!;
			if (skip > 0) {
				end += skip;
				continue;
			}
			const at = end - gramChars + 1;
			end++;
			const candidates = this.grams.get(gramHash(text, at));
			if (candidates === undefined || !candidates.some((gram) => text.startsWith(gram, at))) continue;
			if (at > runEnd) {
				if (runStart >= 0) {
					parts ??= [];
					parts.push(text.slice(copied, runStart), SECRET_MASK);
					copied = runEnd;
				}
				runStart = at;
			}
			runEnd = at + gramChars;
		}
		if (runStart < 0) return text;
		parts ??= [];
		parts.push(text.slice(copied, runStart), SECRET_MASK, text.slice(runEnd));
		return parts.join("");
	}

	/** A start of a key left by a one-line cut: `abcd1234…` or at the very end of the text. */
	private maskCuts(text: string): string {
		// Most texts have no "…" at all and end with no start's last character: one scan and one look, no start tried.
		const cut = text.includes("…");
		if (!cut && !this.cutEnds.includes(text.charCodeAt(text.length - 1))) return text;
		let out = text;
		for (let i = 0; i < this.cutStarts.length; i++) {
			const start = this.cutStarts[i]!;
			const mark = this.cutMarks[i]!;
			if (cut && out.includes(mark)) out = out.replaceAll(mark, `${SECRET_MASK}…`);
			if (out.endsWith(start)) out = out.slice(0, -start.length) + SECRET_MASK;
		}
		return out;
	}
}

const cache = new Map<string, Redactor>();

/** How a copied plain-data property is defined (as an assignment would make it). */
const OWN = { enumerable: true, writable: true, configurable: true } as const;

/** The redactor for these keys, built once and reused (a bounded in-memory cache; never written anywhere). */
export function redactorFor(secrets: readonly string[]): Redactor {
	if (secrets.length === 1) return redactorForKey(secrets[0]!);
	const id = secrets.join("\u0000");
	return cache.get(id) ?? remember(id, new Redactor(secrets));
}

/** redactorFor([secret]), without a list of one: the usual pool is one key, and its redactor is asked for per call. */
export function redactorForKey(secret: string): Redactor {
	// One key is its own id: no joined string to build and hash.
	return cache.get(secret) ?? remember(secret, new Redactor([secret]));
}

function remember(id: string, redactor: Redactor): Redactor {
	if (cache.size >= REDACT_DEFAULTS.cacheEntries) cache.clear();
	cache.set(id, redactor);
	return redactor;
}

/** Masks key material in text. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
	return secrets.length === 0 ? text : redactorFor(secrets).redact(text);
}

/**
 * A copy of `value` (plain data: objects, arrays, strings) with key material masked in every string, or `value`
 * itself when nothing was found. `masked` says whether anything was.
 */
export function redactDeep<T>(value: T, redactor: Redactor): { value: T; masked: boolean } {
	if (redactor.empty) return { value, masked: false };
	const out = maskedCopy(value, redactor, 0) as T;
	// Nothing was masked exactly when the walk copied nothing: a masked string changes what holds it, up to the top.
	return { value: out, masked: !Object.is(out, value) };
}

/**
 * `item` with key material masked in every string, copied only where something was masked: a clean result is
 * returned as it came, with nothing allocated (a function of the module, not a closure made per call).
 */
function maskedCopy(item: unknown, redactor: Redactor, depth: number): unknown {
	if (typeof item === "string") return redactor.redact(item);
	if (depth > 32 || item === null || typeof item !== "object") return item;
	if (Array.isArray(item)) {
		let copy: unknown[] | undefined;
		for (let i = 0; i < item.length; i++) {
			const entry: unknown = item[i];
			const clean = maskedCopy(entry, redactor, depth + 1);
			if (Object.is(clean, entry)) continue;
			copy ??= [...item];
			copy[i] = clean;
		}
		return copy ?? item;
	}
	let copy: Record<string, unknown> | undefined;
	const record = item as Record<string, unknown>;
	for (const name in record) {
		if (!Object.hasOwn(record, name)) continue;
		const entry = record[name];
		const clean = maskedCopy(entry, redactor, depth + 1);
		// defineProperty: an own "__proto__" key (JSON.parse makes one) must stay a key, not set a prototype.
		if (Object.is(clean, entry)) continue;
		copy ??= { ...record };
		Object.defineProperty(copy, name, { ...OWN, value: clean });
	}
	return copy ?? item;
}

export const RESULT_ECHO_WARNING = `the answer echoed a key; it is masked as ${SECRET_MASK}`;

/** A provider's result with key material masked in every field, and a warning added when any was found. */
export function redactResult<R>(result: R, redactor: Redactor): R {
	const { value, masked } = redactDeep(result, redactor);
	if (!masked || value === null || typeof value !== "object") return value;
	const warnings = (value as { warnings?: unknown }).warnings;
	const list = Array.isArray(warnings) ? warnings : [];
	return { ...value, warnings: [...list, RESULT_ECHO_WARNING] };
}
