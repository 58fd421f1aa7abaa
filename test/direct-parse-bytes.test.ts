// The garbage the tree builder (providers/direct/dom.ts) leaves per page and the tree it keeps, counted (not timed) in
// a child process (test/helpers/parse-bytes-child.ts): what a conversion allocates is how often the worker's young
// generation is collected, copying the tree it keeps each time (bench/fetch.ts's 1 MB figure).

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runBytesChild } from "./helpers/gc-watch.ts";

/**
 * Bytes of garbage per character of HTML a parse may leave: 3.45 when each tag's name, each attribute's name and
 * value, and each implied end went through htmlparser2's Parser; 1.45 with the page's events read from its
 * Tokenizer (providers/direct/html-events.ts). The cap leaves room for the compiler's whims only.
 */
const GARBAGE_PER_CHAR = 2;
/**
 * Bytes per character the tree itself may keep: 5.75 with a string of its own for every text and attribute value,
 * 5.37 with one string per spelling of a short text (the whitespace between tags), 5.12 with one per spelling of an
 * attribute's value too (a card's class).
 */
const KEPT_PER_CHAR = 5.25;

describe("the tree builder's bytes", () => {
	it("leaves under 2 bytes a character of a 1 MB page as garbage, and keeps a tree under 5.25", async () => {
		const child = join(import.meta.dirname, "helpers", "parse-bytes-child.ts");
		const bytes = await runBytesChild<{ garbage: number; kept: number; chars: number }>(child);
		expect(bytes.garbage / bytes.chars).toBeLessThanOrEqual(GARBAGE_PER_CHAR);
		expect(bytes.kept / bytes.chars).toBeLessThanOrEqual(KEPT_PER_CHAR);
	}, 150_000);
});
