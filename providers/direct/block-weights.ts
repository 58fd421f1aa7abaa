// The weights of the per-block boilerplate model (providers/direct/block-model.ts), over its BLOCK_FEATURES in
// order. Written by `npx node bench/extract-blocks.ts --write` (a logistic fit on the development corpus's open
// folds, the frozen split never read; `npx biome check --write` lays the table out); re-fit with the same command.

/** Weights over block-model.ts's `BLOCK_FEATURES` (the first is the bias), and the probability a block goes from. */
export interface BlockModel {
	weights: readonly number[];
	threshold: number;
}

export const BLOCK_WEIGHTS: BlockModel = {
	// bias, logChars, linkDensity, endsSentence, marksPer100, chromeName, contentName, position, beforeFirstLong, afterLastLong, repeated, linkRun, heading, headingBeforeLinks, listItem, caption, short, digitShare, shareOfContent, boilerClass, sameSignature, plainParagraph
	weights: [
		0.05656, -0.7244, 2.225, -0.9659, 1.161, 0.8743, -0.1257, 0.5868, -0.6679, 0.04784, 0.5171, 0, 0, 0, -2.874,
		0.06765, 0.6047, 0.5472, -0.6382, 0.8505, -0.9998, -0.8147,
	],
	threshold: 0.5,
};
