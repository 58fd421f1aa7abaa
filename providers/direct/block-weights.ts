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
		-0.3324, -1.1, 1.675, -1.133, 1.33, 1.061, -0.4454, 0.8986, -0.6158, -0.06153, 0.4827, 0, 0, 0, -2.503, 0.04278,
		0.5639, 0.6279, -1.212, 1.301, -0.634, -0.6125, 2.412, 0.3519,
	],
	threshold: 0.45,
};
