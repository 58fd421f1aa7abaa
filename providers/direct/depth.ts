// Nesting depth of a page, measured twice: on the raw markup before parsing (linkedom's parse time grows with the
// square of the depth, so a page of 200,000 nested <div>s would take minutes) and exactly on the parsed tree.

/** Elements without content or end tag, and elements whose end tag may be left out (a parser closes them). */
const NOT_NESTING = new Set(
	(
		"area base br col embed hr img input link meta param source track wbr keygen command " +
		"p li dt dd tr td th option optgroup thead tbody tfoot colgroup caption rt rp html head body"
	).split(" "),
);

/** A tag never spans a "<", so a stray "<" costs a scan to the next one, not to the end (linear overall). */
const TAG = /<(\/?)([a-zA-Z][\w:-]*)[^<>]*?(\/?)>/g;

/**
 * Upper estimate of the element nesting in raw HTML (one linear pass over the tags); stops once past `limit`.
 * Scripts and styles are expected to be cut already (their text could look like tags).
 */
export function markupDepth(html: string, limit: number): number {
	let depth = 0;
	let max = 0;
	const tag = new RegExp(TAG);
	for (let match = tag.exec(html); match; match = tag.exec(html)) {
		const [, closing, name, selfClosing] = match;
		if (selfClosing || NOT_NESTING.has(name!.toLowerCase())) continue;
		if (closing) {
			depth = Math.max(0, depth - 1);
		} else if (++depth > max) {
			max = depth;
			if (max > limit) return max;
		}
	}
	return max;
}

/** Deepest element nesting under `root`, walked without recursion; stops counting once past `limit`. */
export function nestingDepth(root: Element | null, limit: number): number {
	let max = 0;
	let depth = 0;
	let node = root;
	while (node) {
		const child: Element | null = node.firstElementChild;
		if (child) {
			node = child;
			depth++;
			if (depth > max) max = depth;
			if (max > limit) return max;
			continue;
		}
		while (node && node !== root && !node.nextElementSibling) {
			node = node.parentElement;
			depth--;
		}
		if (!node || node === root) return max;
		node = node.nextElementSibling;
	}
	return max;
}
