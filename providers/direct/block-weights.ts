// The weights of the per-block boilerplate model (providers/direct/block-model.ts), over its BLOCK_FEATURES in
// order. Written by `npx node bench/extract-blocks.ts --write` (a logistic fit on the development corpus's open
// folds, the frozen split never read; `npx biome check --write` lays the table out); re-fit with the same command.

/** Weights over block-model.ts's `BLOCK_FEATURES` (the first is the bias), and the probability a block goes from. */
export interface BlockModel {
	weights: readonly number[];
	threshold: number;
}

export const BLOCK_WEIGHTS: BlockModel = {
	// bias, logChars, linkDensity, endsSentence, marksPer100, chromeName, contentName, position, beforeFirstLong, afterLastLong, repeated, linkRun, heading, headingBeforeLinks, listItem, caption, short, digitShare, shareOfContent, boilerClass, sameSignature, plainParagraph, promoWords, bioWords
	weights: [
		-0.1861, -1.069, 1.756, -1.184, 1.267, 1.121, -0.2743, 0.9111, -0.5548, -0.1084, 0.4545, 0, 0, 0, -2.473, 0.057,
		0.6087, 0.5801, -1.252, 1.047, -0.6726, -0.6492, 2.381, 0.5225,
	],
	threshold: 0.45,
};
