// Calls of one RegExp.prototype method (`test`, or Symbol.replace behind String.prototype.replace with a pattern)
// while `run` runs, with each pattern's source and the text it was given: for tests that bound how often a pass
// reaches for a regex.

import { vi } from "vitest";

export interface RegexCall {
	source: string;
	text: string;
}

export async function regexCalls(method: "test" | typeof Symbol.replace, run: () => unknown): Promise<RegexCall[]> {
	// The spy calls the method through and records each call's pattern (its `this`) and arguments.
	const spy = vi.spyOn(RegExp.prototype, method as "test");
	try {
		await run();
		return spy.mock.calls.map(([text], i) => ({ source: (spy.mock.contexts[i] as RegExp).source, text: String(text) }));
	} finally {
		spy.mockRestore();
	}
}
