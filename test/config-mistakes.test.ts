// Config mistakes a new user makes that used to pass silently or get a vague message: each is reported once,
// located, in words, and what is dropped is exactly what the message says.

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: key expressions spell ${NAME} in plain strings

import { describe, expect, it } from "vitest";
import { loadConfigText } from "../schema/load.ts";

const file = "cfg.json5";

/** Loads the lines as one file; its one diagnostic (the test fails when there is not exactly one) and the config. */
function single(lines: string[]) {
	const loaded = loadConfigText(lines.join("\n"), file);
	expect(loaded.diagnostics).toHaveLength(1);
	return { diagnostic: loaded.diagnostics[0]!, config: loaded.config };
}

describe("baseUrl without a scheme", () => {
	it("drops the whole provider, as the message says, and says in words what a baseUrl must start with", () => {
		const text = [
			"{",
			"  providers: {",
			'    sx: { type: "searxng", baseUrl: "search.example.org" },',
			'    exa: { type: "exa", apiKey: "k-123456", baseUrl: "api.example.org/v1" },',
			'    ok: { type: "exa", apiKey: "k-123456", baseUrl: "https://api.example.org" },',
			"  },",
			'  search: ["sx", "exa", "ok"],',
			"}",
		].join("\n");
		const loaded = loadConfigText(text, file);
		expect(loaded.config.providers.map((p) => p.name)).toEqual(["ok"]);
		const errors = loaded.diagnostics.filter((d) => d.severity === "error");
		expect(errors.map((d) => [d.line, d.message])).toEqual([
			[3, "/providers/sx/baseUrl must start with http:// or https://; /providers/sx is not used"],
			[4, "/providers/exa/baseUrl must start with http:// or https://; /providers/exa is not used"],
		]);
		expect(errors[0]?.fix).toBe('write the whole URL with its scheme, like "https://search.example.org"');
		// The value itself is never echoed: a URL may carry a token.
		expect(JSON.stringify(loaded.diagnostics)).not.toContain("api.example.org/v1");
		// The chain loses the dropped names without a second message about them.
		expect(loaded.config.search).toEqual(["ok"]);
		expect(loaded.diagnostics).toHaveLength(2);
	});
});

describe("apiKey expressions", () => {
	it("warns, located, about a literal that reads like an env variable's name and suggests $NAME", () => {
		const { diagnostic, config } = single([
			'{ providers: { exa: { type: "exa",',
			'  apiKey: "EXA_API_KEY" } }, search: ["exa"] }',
		]);
		expect(diagnostic).toMatchObject({ severity: "warning", line: 2, col: 11, path: "/providers/exa/apiKey" });
		expect(diagnostic.fix).toBe('did you mean "$EXA_API_KEY"?');
		// Still a literal: the warning changes nothing of what is sent.
		expect(config.providers[0]?.apiKey).toEqual([{ expression: "EXA_API_KEY", label: "key1" }]);
	});

	it("does not warn about keys that only look like keys, nor about $NAME, ${NAME} and $${ escapes", () => {
		for (const key of [
			"sk-abc123",
			"AKIAIOSFODNN7EXAMPLE",
			"ABC_DEF_123",
			"$EXA_API_KEY",
			"${EXA_API_KEY}",
			"$${NOT_A_VAR",
			"!op read x",
		]) {
			const loaded = loadConfigText(JSON.stringify({ providers: { exa: { type: "exa", apiKey: key } } }), file);
			expect(loaded.diagnostics, key).toEqual([]);
		}
	});

	it("an unclosed ${ is an error: that key leaves the pool, the others stay", () => {
		const { diagnostic, config } = single([
			'{ providers: { exa: { type: "exa", apiKey: [',
			'  "${EXA_KEY_TWO", "$EXA_API_KEY",',
			"] } } }",
		]);
		expect(diagnostic).toMatchObject({ severity: "error", line: 2, col: 3, path: "/providers/exa/apiKey/0" });
		expect(diagnostic.message).toBe("apiKey: ${ is not closed; this key is not used");
		expect(config.providers[0]?.apiKey).toEqual([{ expression: "$EXA_API_KEY", label: "key2" }]);
	});

	it("a provider whose every key is unusable is dropped, said once, and its chain entry goes silently", () => {
		const text = '{ providers: { exa: { type: "exa", apiKey: [{ key: "${EXA_KEY}x" }] } }, search: ["exa"] }';
		const loaded = loadConfigText(text, file);
		expect(loaded.config.providers).toEqual([]);
		expect(loaded.diagnostics.map((d) => [d.severity, d.path, d.message])).toEqual([
			[
				"error",
				"/providers/exa/apiKey/0/key",
				"apiKey: ${…} must hold one environment variable name (letters, digits, _); the provider is not used",
			],
		]);
	});
});
