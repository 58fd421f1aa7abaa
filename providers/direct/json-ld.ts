// A bounded walk over a page's JSON-LD blocks (providers/direct/dom.ts collects them): each object node in
// breadth-first order, arrays opened one item at a time, malformed blocks skipped. Shared by the metadata reading
// (metadata.ts) and the page-kind reading (kinds/signals.ts).

export type JsonObject = Record<string, unknown>;

/** A page's blocks parsed once (the metadata and the page-kind readings both walk them; up to 1 MB of JSON). */
const parsedBlocks = new WeakMap<readonly string[], unknown[]>();

/** The blocks that parse, as values (malformed ones left out). */
function parsed(blocks: readonly string[]): unknown[] {
	let values = parsedBlocks.get(blocks);
	if (values === undefined) {
		values = [];
		for (const block of blocks) {
			try {
				values.push(JSON.parse(block));
			} catch {
				// A malformed block says nothing.
			}
		}
		parsedBlocks.set(blocks, values);
	}
	return values;
}

/**
 * Calls `visit` on each object node of the blocks, looking at most `maxNodes` nodes over all of them and going into
 * the values under `keys` (`@graph`, `mainEntity`, …); stops early when `visit` returns true.
 */
export function walkJsonLd(
	blocks: readonly string[],
	keys: readonly string[],
	maxNodes: number,
	visit: (node: JsonObject) => boolean | undefined,
): void {
	let seen = 0;
	for (const data of parsed(blocks)) {
		const queue: unknown[] = [data];
		// An index, not shift(): the queue of a big block would be moved at every step.
		for (let at = 0; at < queue.length && seen < maxNodes; at++, seen++) {
			const node = queue[at];
			// One item at a time: a spread of a huge array would overflow the call's argument limit.
			if (Array.isArray(node)) for (const item of node.slice(0, maxNodes - seen)) queue.push(item);
			else if (node && typeof node === "object") {
				const object = node as JsonObject;
				if (visit(object)) return;
				for (const key of keys) if (object[key]) queue.push(object[key]);
			}
		}
	}
}
