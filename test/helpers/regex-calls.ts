// Calls of one RegExp.prototype method (`test`, or Symbol.replace behind String.prototype.replace with a pattern)
// while `run` runs, with each pattern's source and the text it was given: for tests that bound how often a pass
// reaches for a regex.

import { vi } from "vitest";

export interface RegexCall {
	source: string;
	text: string;
}

export async function regexCalls(method: "test" | typeof Symbol.replace, run: () => unknown): Promise<RegexCall[]> {
	const original = RegExp.prototype[method] as (this: RegExp, text: string, ...rest: unknown[]) => unknown;
	const calls: RegexCall[] = [];
	const spy = vi.spyOn(RegExp.prototype, method as "test").mockImplementation(function (
		this: RegExp,
		text: string,
		...rest: unknown[]
	) {
		calls.push({ source: this.source, text: String(text) });
		return original.call(this, text, ...rest) as boolean;
	});
	try {
		await run();
	} finally {
		spy.mockRestore();
	}
	return calls;
}
