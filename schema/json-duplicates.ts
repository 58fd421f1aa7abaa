// Duplicate keys in text that is already known to be strict JSON, found in one pass without building a tree.
// Lets the loader skip the (much slower) located JSON5 parse for a clean JSON file.

export interface DuplicateKey {
	path: Array<string | number>;
	/** Offset of the repeated key's opening quote. */
	offset: number;
}

interface Frame {
	/** Keys seen so far; absent for arrays. */
	keys?: Set<string>;
	key?: string;
	index: number;
	path: Array<string | number>;
	expectKey: boolean;
}

const QUOTE = 34;
const BACKSLASH = 92;

export function jsonDuplicates(text: string): DuplicateKey[] {
	const out: DuplicateKey[] = [];
	const stack: Frame[] = [];
	const childPath = (): Array<string | number> => {
		const top = stack.at(-1);
		if (top === undefined) return [];
		return top.keys ? [...top.path, top.key ?? ""] : [...top.path, top.index];
	};
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === QUOTE) {
			let j = i + 1;
			while (j < text.length && text.charCodeAt(j) !== QUOTE) j += text.charCodeAt(j) === BACKSLASH ? 2 : 1;
			const top = stack.at(-1);
			if (top?.keys && top.expectKey) {
				const key = JSON.parse(text.slice(i, j + 1)) as string;
				if (top.keys.has(key)) out.push({ path: [...top.path, key], offset: i });
				top.keys.add(key);
				top.key = key;
				top.expectKey = false;
			}
			i = j;
		} else if (c === 123) stack.push({ keys: new Set(), index: 0, path: childPath(), expectKey: true });
		else if (c === 91) stack.push({ index: 0, path: childPath(), expectKey: false });
		else if (c === 125 || c === 93) stack.pop();
		else if (c === 44) {
			const top = stack.at(-1);
			if (top?.keys) top.expectKey = true;
			else if (top) top.index++;
		}
	}
	return out;
}
