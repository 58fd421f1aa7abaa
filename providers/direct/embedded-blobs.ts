// The state an app page hands its scripts (__NEXT_DATA__, __NUXT_DATA__, window.__NUXT__, Redux and Apollo stores,
// __remixContext, JSON data blocks), read as data: JSON literals only, found by a bounded scanner, never run. The
// tree builder (dom.ts) keeps the scripts through `keepStateScript`; embedded-state.ts turns what they hold into text.

export const BLOB_DEFAULTS = {
	/** Script text kept per page, all state scripts together (the HTML converted is at most 4 MB anyway). */
	maxChars: 4 * 1024 * 1024,
	/** State scripts kept per page: a page of thousands of tiny data blocks is no app state. */
	maxScripts: 64,
	/** Entries of a Nuxt devalue table resolved, and the nesting followed: a table may refer to itself. */
	maxNodes: 200_000,
	maxDepth: 64,
};

/** A `<script>` kept for its state: a JSON data block, or inline code that assigns one of the known globals. */
export interface StateScript {
	id?: string;
	type: string;
	text: string;
}

/** One state value read from the page, and where it came from (named in the result's warning). */
export interface StateBlob {
	source: string;
	value: unknown;
}

const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\b/;
const CODE_TYPE = /^(?:|module|(?:text|application)\/(?:java|ecma)script)$/;
const GLOBALS = "__NUXT__|__INITIAL_STATE__|__PRELOADED_STATE__|__APOLLO_STATE__|__remixContext";
const MARKER = new RegExp(GLOBALS);
/** `window.__INITIAL_STATE__ =`, `window["__NUXT__"]=`, `__remixContext =` (not `==`, not `.config =`). */
const ASSIGNMENT = new RegExp(`(?:\\[\\s*["'])?\\b(${GLOBALS})\\b(?:["']\\s*\\])?\\s*=(?![=>])\\s*`, "g");
/** Tried in this order: a framework's own page data before stores, stores before anonymous data blocks. */
const RANK = ["__NEXT_DATA__", "__NUXT_DATA__", ...GLOBALS.split("|")];

/** True when a script of this type (attributes as parsed) may hold state: its text is kept while parsing. */
export function isStateScript(type: string, attrs: Record<string, string>): boolean {
	if (JSON_TYPE.test(type)) return !type.startsWith("application/ld+json");
	return CODE_TYPE.test(type) && attrs.src === undefined;
}

/** Keeps a closed state script's text: every JSON block, code only when it names a known global; within bounds. */
export function keepStateScript(kept: StateScript[], attrs: Record<string, string>, text: string): void {
	const type = (attrs.type ?? "").trim().toLowerCase();
	if (kept.length >= BLOB_DEFAULTS.maxScripts || text.trim() === "") return;
	if (!JSON_TYPE.test(type) && !MARKER.test(text)) return;
	let used = text.length;
	for (const script of kept) used += script.text.length;
	if (used > BLOB_DEFAULTS.maxChars) return;
	kept.push({ ...(attrs.id ? { id: attrs.id } : {}), type, text });
}

interface Found {
	source: string;
	rank: number;
	read: () => unknown;
}

/** The page's state values, parsed one at a time as the caller asks for them, in `RANK` order. */
export function* stateBlobs(scripts: readonly StateScript[]): Generator<StateBlob> {
	const found: Found[] = [];
	for (const script of scripts) {
		if (JSON_TYPE.test(script.type)) {
			const source = script.id ?? "application/json";
			const rank = RANK.indexOf(source);
			const read = () => {
				const value = JSON.parse(script.text) as unknown;
				if (source === "__NUXT_DATA__") return Array.isArray(value) ? resolveDevalue(value) : undefined;
				return source === "__NEXT_DATA__" ? pageProps(value) : value;
			};
			found.push({ source, rank: rank < 0 ? RANK.length : rank, read });
			continue;
		}
		for (const match of script.text.matchAll(ASSIGNMENT)) {
			const at = match.index + match[0].length;
			found.push({ source: match[1]!, rank: RANK.indexOf(match[1]!), read: () => readLiteral(script.text, at) });
		}
	}
	found.sort((a, b) => a.rank - b.rank);
	for (const blob of found) {
		let value: unknown;
		try {
			value = blob.read();
		} catch {
			// Not JSON after all (a JavaScript object literal, a cut script): this one holds nothing to read.
			continue;
		}
		if (value !== null && typeof value === "object") yield { source: blob.source, value };
	}
}

/** Next.js keeps the page's data under `props.pageProps`; the rest is the router's (build id, query, page). */
function pageProps(value: unknown): unknown {
	const props = (value as { props?: { pageProps?: unknown } } | null)?.props;
	return props?.pageProps ?? props ?? value;
}

/** The JSON literal at `at`: an object or array, or the string of `JSON.parse("…")`; undefined for anything else. */
function readLiteral(text: string, at: number): unknown {
	const first = text[at];
	if (first === "{" || first === "[") {
		const end = balancedEnd(text, at);
		return end < 0 ? undefined : JSON.parse(text.slice(at, end));
	}
	const call = /^JSON\.parse\(\s*(["'])/.exec(text.slice(at, at + 32));
	if (!call) return undefined;
	const start = at + call[0].length;
	const end = stringEnd(text, start, call[1]!);
	return end < 0 ? undefined : JSON.parse(JSON.parse(`"${jsonEscapes(text.slice(start, end))}"`) as string);
}

/** Where the object or array opening at `start` closes (after it), or -1 when the text ends first. Linear. */
export function balancedEnd(text: string, start: number): number {
	let depth = 0;
	for (let i = start; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code === 34) {
			i = stringEnd(text, i + 1, '"');
			if (i < 0) return -1;
		} else if (code === 123 || code === 91) depth++;
		else if ((code === 125 || code === 93) && --depth === 0) return i + 1;
	}
	return -1;
}

/** The index of the quote closing a string whose content starts at `start`, or -1. */
function stringEnd(text: string, start: number, quote: string): number {
	for (let i = start; i < text.length; i++) {
		const char = text[i];
		if (char === "\\") i++;
		else if (char === quote) return i;
	}
	return -1;
}

/** A JavaScript string literal's body as a JSON one's: `\x3C` as `\u003C`, `\'` as `'`, a bare `"` escaped. */
function jsonEscapes(body: string): string {
	return body.replace(/\\(?:x([0-9a-fA-F]{2})|([\s\S]))|"/g, (all, hex?: string, char?: string) => {
		if (hex !== undefined) return `\\u00${hex}`;
		if (char === undefined) return '\\"';
		if (char === "'") return "'";
		return char === "\n" ? "" : all;
	});
}

/**
 * Nuxt 3's payload is a devalue table: entry 0 is the root, and arrays and objects hold the indices of their
 * values; an array led by a string is a typed value (`["Reactive", 4]`, `["Set", 5, 6]`, `["Date", "…"]`). Each
 * entry is resolved at most once (a second reference, a cycle included, is left out), to `BLOB_DEFAULTS` bounds.
 */
export function resolveDevalue(table: readonly unknown[]): unknown {
	const done = new Uint8Array(table.length);
	let nodes = 0;
	const resolve = (index: unknown, depth: number): unknown => {
		if (typeof index !== "number" || !Number.isInteger(index) || index < 0 || index >= table.length) return undefined;
		if (done[index] === 1 || depth > BLOB_DEFAULTS.maxDepth || ++nodes > BLOB_DEFAULTS.maxNodes) return undefined;
		done[index] = 1;
		const value = table[index];
		if (value === null || typeof value !== "object") return value;
		if (Array.isArray(value)) {
			const type = value[0];
			if (typeof type !== "string") return value.map((item) => resolve(item, depth + 1));
			if (type === "Date" || type === "RegExp" || type === "BigInt" || type === "URL") return undefined;
			if (type === "Set") return value.slice(1).map((item) => resolve(item, depth + 1));
			if (type === "Map" || type === "null") {
				// Key and value indices alternate; a Map's keys are indices too, a null-prototype object's are names.
				const out: Record<string, unknown> = {};
				for (let i = 1; i + 1 < value.length; i += 2) {
					const key = type === "Map" ? resolve(value[i], depth + 1) : value[i];
					out[String(key)] = resolve(value[i + 1], depth + 1);
				}
				return out;
			}
			// Reactive, Ref, ShallowRef, NuxtError and the other reducers wrap one value.
			return resolve(value[1], depth + 1);
		}
		const out: Record<string, unknown> = {};
		for (const key in value as Record<string, unknown>) {
			out[key] = resolve((value as Record<string, unknown>)[key], depth + 1);
		}
		return out;
	};
	return resolve(0, 0);
}
