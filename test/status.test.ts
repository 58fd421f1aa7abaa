// The status report behind /web-access and `pi-web-access status`: cooling providers, key pools with their
// label, billing, state and uses, chains and rules — and never a key.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSetup } from "../runtime/setup.ts";
import { formatStatus, statusReport } from "../runtime/status.ts";

const KEY = "sk-status-9f8e7d6c5b";

describe("status report", () => {
	it("shows pools with label, billing, state and uses, cooldowns with time left, chains and rules", () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-status-"));
		const file = join(dir, "cfg.json5");
		writeFileSync(
			file,
			JSON.stringify({
				providers: {
					doubao: {
						type: "doubao",
						apiKey: [
							{ key: KEY, billing: "subscription", label: "plan" },
							{ key: "$UNSET_DOUBAO", label: "spare" },
						],
					},
					exa: { type: "exa", apiKey: "!vault read exa" },
				},
				rules: [{ name: "CN", sites: [".cn"], search: ["doubao"] }],
			}),
		);
		const setup = createSetup({ configFile: file, env: {} });
		const now = 1_000_000;
		const snapshot = {
			version: 1 as const,
			cooldowns: [{ provider: "exa", untilMs: now + 42_000, failures: 1, reason: "server: HTTP 503" }],
			keys: [],
		};
		const report = statusReport(setup, snapshot, now, [{ provider: "doubao", label: "plan", uses: 3 }]);
		const text = formatStatus(report, now);
		expect(text).toContain(
			"doubao (doubao; search): ready (apiKey) · pool: plan/subscription=ready (3 uses), spare=missing: $UNSET_DOUBAO is not set (0 uses)",
		);
		expect(text).toContain("exa (exa; search, fetch): not resolved yet (apiKey)");
		expect(text).toContain("cooling down 42 s (server: HTTP 503)");
		expect(text).toContain("search chain: doubao → exa");
		expect(text).toContain("CN: sites .cn: search → doubao");
		expect(`${text}${JSON.stringify(report)}`).not.toContain(KEY.slice(0, 8));
	});

	it("shows which proxy each provider uses, with the proxy's credentials masked", () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-status-proxy-"));
		const file = join(dir, "cfg.json5");
		writeFileSync(
			file,
			JSON.stringify({
				providers: {
					exa: { type: "exa", apiKey: KEY },
					corp: { type: "searxng", baseUrl: "http://search.corp.example:8888" },
					own: { type: "tavily", apiKey: KEY, proxy: "http://ops:0wn-pa55@10.9.9.9:3128" },
					off: { type: "brave", apiKey: KEY, proxy: "none" },
					direct: { type: "direct" },
				},
			}),
		);
		const env = { HTTPS_PROXY: "http://alice:s3cret-pa55@10.0.0.1:8080", NO_PROXY: ".corp.example" };
		const report = statusReport(createSetup({ configFile: file, env }), { version: 1, cooldowns: [], keys: [] });
		const proxies = Object.fromEntries(report.providers.map((p) => [p.name, p.proxy]));
		expect(proxies).toEqual({
			exa: { via: "proxy", url: "http://***@10.0.0.1:8080", source: "HTTPS_PROXY", noProxy: ".corp.example" },
			corp: { via: "direct" },
			own: { via: "proxy", url: "http://***@10.9.9.9:3128", source: "providers.own.proxy", noProxy: ".corp.example" },
			off: { via: "direct", reason: 'providers.off.proxy: "none"' },
			direct: {
				via: "proxy",
				url: "http://***@10.0.0.1:8080",
				source: "HTTPS_PROXY",
				noProxy: ".corp.example",
				tunnel: "checked-address",
			},
		});
		const text = formatStatus(report);
		expect(text).toContain(
			"exa (exa; search, fetch): ready (apiKey) · pool: key1=ready (0 uses) · proxy http://***@10.0.0.1:8080 (HTTPS_PROXY; NO_PROXY .corp.example)",
		);
		expect(text).toContain("corp (searxng; search): none needed · no proxy");
		expect(text).toContain(
			'off (brave; search): ready (apiKey) · pool: key1=ready (0 uses) · no proxy (providers.off.proxy: "none")',
		);
		expect(text).toContain(
			"direct (direct; fetch): none needed · proxy http://***@10.0.0.1:8080 (HTTPS_PROXY; NO_PROXY .corp.example; CONNECT to the checked address)",
		);
		for (const secret of ["s3cret-pa55", "0wn-pa55", "alice", "ops:"]) {
			expect(`${text}${JSON.stringify(report)}`).not.toContain(secret);
		}
	});

	it("says once that no proxy is set, instead of a column", () => {
		const setup = createSetup({ configFile: join(tmpdir(), "pwa-status-none.json5"), env: {} });
		const text = formatStatus(statusReport(setup, { version: 1, cooldowns: [], keys: [] }));
		expect(text).not.toContain("· no proxy");
	});
});
