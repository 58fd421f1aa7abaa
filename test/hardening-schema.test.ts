// The loader refuses what the schema alone let through: prototype keys (`__proto__`, `constructor`, `prototype`) at
// any level, header names and values HTTP cannot send; and an invalid enum value is reported once, naming the
// allowed values. Regressions: `__proto__` in a provider set its options' prototype and passed check, a CR/LF header
// passed check (every fetch then failed in undici), and a bad enum also gave `unknown key "searchType" (did you mean
// "searchType"?)`.

import { describe, expect, it } from "vitest";
import { loadConfigText } from "../schema/load.ts";

const load = (text: string) => loadConfigText(text, "c.json5");

describe("prototype keys", () => {
	it("refuses __proto__ inside a provider and never applies what it holds", () => {
		const loaded = load(`{ providers: { direct: { type: "direct", __proto__: { userAgent: "evil/1" } } } }`);
		const errors = loaded.diagnostics.filter((d) => d.severity === "error");
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ path: "/providers/direct/__proto__", line: 1, col: 42 });
		expect(errors[0]?.message).toContain('"__proto__" cannot be a key');
		const direct = loaded.config.providers.find((p) => p.name === "direct");
		expect(direct?.options.userAgent).toBeUndefined();
		expect(Object.getPrototypeOf(direct?.options)).toBe(Object.prototype);
	});

	it("refuses constructor and prototype at every level, once each", () => {
		const loaded = load(`{
			constructor: { a: 1 },
			providers: { exa: { type: "exa", apiKey: "k", headers: { prototype: "x" } } },
			rules: [{ name: "r", sites: ["a.com"], search: ["exa"], policy: { __proto__: { maxAttempts: 1 } } }],
		}`);
		const paths = loaded.diagnostics.map((d) => d.path);
		expect(paths).toEqual(["/constructor", "/providers/exa/headers/prototype", "/rules/0/policy/__proto__"]);
		expect(loaded.diagnostics.every((d) => d.severity === "error" && d.fix === "remove it")).toBe(true);
		expect(loaded.config.providers[0]?.headers).toEqual({});
		expect(loaded.config.rules[0]?.policy?.maxAttempts).toBeUndefined();
	});
});

describe("headers as HTTP checks them", () => {
	it("reports bad header names and CR, LF and NUL in values where they are, and drops only those headers", () => {
		const loaded = load(`{ providers: { exa: { type: "exa", apiKey: "k", headers: {
			"X-Good": "fine\\tvalue",
			"X Bad": "v",
			"X-A\\nB": "v",
			"X-Split": "a\\r\\nInjected: 1",
			"X-Nul": "a\\u0000b",
		} } } }`);
		const found = loaded.diagnostics.map((d) => [d.line, d.message.split(";")[0]]);
		expect(found).toEqual([
			[3, 'header name "X Bad" is not a valid HTTP header name'],
			[4, 'header name "X-A\\nB" is not a valid HTTP header name'],
			[5, "header X-Split contains a carriage return (CR), which HTTP does not allow in a value"],
			[6, "header X-Nul contains NUL, which HTTP does not allow in a value"],
		]);
		expect(loaded.config.providers[0]?.headers).toEqual({ "X-Good": "fine\tvalue" });
	});
});

describe("enum errors", () => {
	it("names the allowed values once, without a bogus unknown-key report", () => {
		const loaded = load(`{ providers: { exa: { type: "exa", apiKey: "k", searchType: "bogus" } } }`);
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.diagnostics[0]?.message).toMatch(/searchType must be one of "auto", "fast", .*"deep"/);
		expect(loaded.diagnostics[0]?.message).not.toContain("did you mean");
	});

	it("still reports a real unknown key next to a bad enum value", () => {
		const loaded = load(`{ providers: { exa: { type: "exa", apiKey: "k", searchType: "bogus", serchType: "auto" } } }`);
		expect(loaded.diagnostics.map((d) => d.message.split(" (")[0])).toEqual([
			expect.stringMatching(/searchType must be one of/),
			'unknown key "serchType"',
		]);
	});
});
