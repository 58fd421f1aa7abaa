// The status report behind /web-access and `pi-web-access status`: cooling providers, key pools with their
// label, billing, state and uses, chains and rules — and never a key.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createSetup } from "../runtime/session.ts";
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
});
