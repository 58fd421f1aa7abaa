// Config mistakes a new user makes that used to pass silently or get a vague message: each is reported once,
// located, in words, and what is dropped is exactly what the message says.

import { describe, expect, it } from "vitest";
import { loadConfigText } from "../schema/load.ts";

const file = "cfg.json5";

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
