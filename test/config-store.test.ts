// The team store's settings in the config file (`store: { url }`): a bad URL or an unknown key is one located
// diagnostic with a fix, the password is never quoted, the rest of the config keeps working, and a project file
// cannot point the team store elsewhere.

import { describe, expect, it } from "vitest";
import { loadConfigText } from "../schema/load.ts";

const file = "cfg.json5";
const load = (store: string) =>
	loadConfigText(
		[
			"{",
			'  providers: { exa: { type: "exa", apiKey: "k-123456" } },',
			'  search: ["exa"],',
			`  store: ${store},`,
			"}",
		].join("\n"),
		file,
	);

describe("store settings", () => {
	it("takes a redis:// or rediss:// URL with a password", () => {
		for (const url of ["redis://127.0.0.1:6379", "rediss://:pa55-word@redis.example.org:6380/2"]) {
			const loaded = load(`{ url: ${JSON.stringify(url)} }`);
			expect(loaded.diagnostics).toEqual([]);
			expect(loaded.config.store).toEqual({ url });
		}
	});

	it("says a URL of another scheme at its line, with a fix, never quoting it, and keeps the providers", () => {
		const loaded = load('{ url: "http://:pa55-word@redis.example.org" }');
		expect(loaded.diagnostics).toHaveLength(1);
		const [d] = loaded.diagnostics;
		expect(d).toMatchObject({ file, line: 4, severity: "error" });
		expect(d!.message).toMatch(/^\/store\/url must be a redis:\/\/ or rediss:\/\/ URL/);
		expect(d!.fix).toMatch(/redis:\/\/redis\.internal:6379/);
		expect(JSON.stringify(loaded.diagnostics)).not.toContain("pa55-word");
		expect(loaded.config.store?.url).toBeUndefined();
		expect(loaded.config.providers.map((p) => p.name)).toEqual(["exa"]);
	});

	it("says an unknown key in store with the key it most likely meant", () => {
		const loaded = load('{ uri: "redis://127.0.0.1:6379" }');
		expect(loaded.diagnostics).toHaveLength(1);
		expect(loaded.diagnostics[0]).toMatchObject({ line: 4 });
		expect(loaded.diagnostics[0]!.message).toBe('unknown key "uri" (did you mean "url"?); it is ignored');
		expect(loaded.config.providers.map((p) => p.name)).toEqual(["exa"]);
	});
});
