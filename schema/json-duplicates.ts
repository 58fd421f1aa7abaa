// Duplicate keys and nesting depth in text that is already known to be strict JSON, found in one pass without
// building a tree. Lets the loader skip the (much slower) located JSON5 parse for a clean JSON file; a file proven
// clean by its key count (provenClean) skips the scan as well. The scan runs cold over every character: one frame
// per nesting level, reused, and a key's path built only when it is a duplicate.

export interface DuplicateKey {
	path: Array<string | number>;
	/** Offset of the repeated key's opening quote. */
	offset: number;
}

export interface JsonScan {
	duplicates: DuplicateKey[];
	/** Offset of the first `{` or `[` nested deeper than the limit, when one is. */
	tooDeepAt?: number;
}

interface Frame {
	object: boolean;
	/** Keys seen so far (objects); a Set once there are more than SMALL_OBJECT. */
	keys: string[];
	keySet: Set<string> | undefined;
	key: string;
	index: number;
	expectKey: boolean;
}

const QUOTE = 34;
const BACKSLASH = 92;
/** Up to this many keys, a linear scan finds a repeat faster than a Set is built. */
const SMALL_OBJECT = 16;

/** Records `key` in the frame; true when it was there already. */
function repeated(frame: Frame, key: string): boolean {
	if (frame.keySet !== undefined) {
		if (frame.keySet.has(key)) return true;
		frame.keySet.add(key);
		return false;
	}
	if (frame.keys.includes(key)) return true;
	frame.keys.push(key);
	if (frame.keys.length > SMALL_OBJECT) frame.keySet = new Set(frame.keys);
	return false;
}

/** Scans strict JSON text for repeated keys (with their paths) and for nesting deeper than `maxDepth`. */
export function scanJson(text: string, maxDepth = Number.POSITIVE_INFINITY): JsonScan {
	const duplicates: DuplicateKey[] = [];
	const frames: Frame[] = [];
	let depth = 0;
	const open = (object: boolean) => {
		let frame = frames[depth];
		if (frame === undefined) {
			frame = { object, keys: [], keySet: undefined, key: "", index: 0, expectKey: object };
			frames[depth] = frame;
		} else {
			frame.object = object;
			frame.keys.length = 0;
			frame.keySet = undefined;
			frame.key = "";
			frame.index = 0;
			frame.expectKey = object;
		}
		depth++;
	};
	let nextBackslash = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === QUOTE) {
			// The closing quote by indexOf (native, where a loop over each character runs cold on a first load); only
			// a string with a backslash before it is walked character by character.
			let j = text.indexOf('"', i + 1);
			if (j < 0) j = text.length;
			if (nextBackslash >= 0 && nextBackslash <= i) nextBackslash = text.indexOf("\\", i + 1);
			const escaped = nextBackslash >= 0 && nextBackslash < j;
			if (escaped) {
				for (j = i + 1; j < text.length; j++) {
					const d = text.charCodeAt(j);
					if (d === QUOTE) break;
					if (d === BACKSLASH) j++;
				}
			}
			const top = depth > 0 ? frames[depth - 1]! : undefined;
			if (top?.object && top.expectKey) {
				const key = escaped ? (JSON.parse(text.slice(i, j + 1)) as string) : text.slice(i + 1, j);
				if (repeated(top, key)) {
					const path: Array<string | number> = [];
					for (let k = 0; k < depth - 1; k++) path.push(frames[k]!.object ? frames[k]!.key : frames[k]!.index);
					path.push(key);
					duplicates.push({ path, offset: i });
				}
				top.key = key;
				top.expectKey = false;
			}
			i = j;
		} else if (c === 123 || c === 91) {
			if (depth >= maxDepth) return { duplicates, tooDeepAt: i };
			open(c === 123);
		} else if (c === 125 || c === 93) depth--;
		else if (c === 44 && depth > 0) {
			const top = frames[depth - 1]!;
			if (top.object) top.expectKey = true;
			else top.index++;
		}
	}
	return { duplicates };
}

/** A key's closing quote and the colon after it (JSON whitespace between): one match per key written. */
const KEY_END = /"[^"]*"[ \t\n\r]*:/g;

/**
 * True when strict JSON `text` (already parsed into `value`) provably has no repeated key and no container nested
 * deeper than `maxDepth`, without the scan: the keys written in the text number no more than the keys the parse
 * kept. A repeat loses a key in the parse; the count can only over-count (a value's `":` read as a key), never
 * miss a key, so an equal count proves there is none. False means "scan to know" (and always with a backslash,
 * where an escaped quote could shift the count). The count is one native regular expression over the text; the
 * scan is a loop over every character, which a first load runs cold (~12 ms of CPU for a 1,000-rule file).
 */
export function provenClean(text: string, value: unknown, maxDepth: number): boolean {
	if (text.includes("\\")) return false;
	const kept = keysKept(value, 1, maxDepth);
	return kept >= 0 && (text.match(KEY_END)?.length ?? 0) === kept;
}

/** Own keys of every object in `value`; -1 when a container is nested deeper than `maxDepth` (the root is 1). */
function keysKept(value: unknown, depth: number, maxDepth: number): number {
	if (value === null || typeof value !== "object") return 0;
	if (depth > maxDepth) return -1;
	let count = 0;
	// Only a container is walked into: a call per string, number and boolean (a first load's 12,000 names, sites and
	// values) ran cold to answer 0.
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) {
			const item: unknown = value[i];
			if (item === null || typeof item !== "object") continue;
			const inner = keysKept(item, depth + 1, maxDepth);
			if (inner < 0) return -1;
			count += inner;
		}
		return count;
	}
	// Own keys only: an enumerable key inherited from a changed Object.prototype must not make up for a lost one.
	// Indexed: a for-of makes an iterator result per key in code not yet optimised (a first load's 8,000 keys).
	const keys = Object.keys(value);
	count += keys.length;
	for (let k = 0; k < keys.length; k++) {
		const item: unknown = (value as Record<string, unknown>)[keys[k] as string];
		if (item === null || typeof item !== "object") continue;
		const inner = keysKept(item, depth + 1, maxDepth);
		if (inner < 0) return -1;
		count += inner;
	}
	return count;
}
