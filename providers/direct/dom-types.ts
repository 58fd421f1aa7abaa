// The element tree providers/direct/dom.ts builds and the extraction and renderer read.

/** An element; text children are plain strings (entities decoded, whitespace as in the page). */
export interface El {
	/** Position in document order (0 for the body), so per-element figures fit in typed arrays. */
	id: number;
	tag: string;
	attrs: Record<string, string>;
	children: Node[];
	parent: El | undefined;
	/** Set when some descendant is a block element (so an inline element holding one renders as a block). */
	hasBlock?: boolean;
	/** Set when some descendant is a table (so a table holding one is a layout table). */
	hasTable?: boolean;
	/** Set by the extraction on an element it takes out of the tree. */
	removed?: boolean;
	/** Characters of its own text children (whitespace runs counted once), counted while parsing. */
	textChars: number;
	/** Sentence punctuation marks in its own text children (the extraction's prose test). */
	textMarks: number;
}

export type Node = El | string;
