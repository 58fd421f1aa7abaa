// Child process: the bytes the tree builder (providers/direct/dom.ts parsePage) allocates for the 1 MB bench page
// (bench/fetch.ts scaledCorpus), split into the tree it keeps and the garbage it leaves. Run with --expose-gc and a
// young generation large enough that no collection runs inside a measured parse (a parse that saw one is taken again).
// Usage: node --expose-gc --min-semi-space-size=64 --max-semi-space-size=64 <this>; prints one JSON line.

import { getHeapStatistics } from "node:v8";
import { scaledCorpus } from "../../bench/fetch.ts";
import { median } from "../../bench/stats.ts";
import { parsePage } from "../../providers/direct/dom.ts";
import { watchGc } from "./gc-watch.ts";

const SETTINGS = { warmup: 3, windows: 3, tries: 10 };

const { gc, measure } = watchGc();

// One flat string, as the worker's decoded page is (the corpus is built of joined parts).
const html = Buffer.from(scaledCorpus(1024 * 1024)).toString();

/** Bytes one parse leaves as garbage and keeps; the tree goes with this frame, before the next window. */
async function window(): Promise<{ garbage: number; kept: number }> {
	const { before, bytes, value: page } = await measure(() => parsePage(html), SETTINGS.tries);
	gc();
	const kept = getHeapStatistics().used_heap_size - before;
	if (page.elementCount === 0) throw new Error("no elements");
	return { garbage: bytes - kept, kept };
}

for (let i = 0; i < SETTINGS.warmup; i++) parsePage(html);
const garbage: number[] = [];
const kept: number[] = [];
for (let w = 0; w < SETTINGS.windows; w++) {
	const measured = await window();
	garbage.push(measured.garbage);
	kept.push(measured.kept);
}
console.log(JSON.stringify({ garbage: median(garbage), kept: median(kept), chars: html.length }));
