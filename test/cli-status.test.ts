// `pi-web-access status`: the same report as /web-access; it reports and never fails (exit 0 when nothing is ready).

import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { utcDay } from "../executor/spend.ts";
import { createSetup } from "../runtime/setup.ts";
import { formatStatus, statusReport } from "../runtime/status.ts";
import { runCli as run } from "./helpers/cli-run.ts";

describe("pi-web-access status", () => {
	it("exits 0 with providers that are not ready, and --json carries the report", async () => {
		const home = mkdtempSync(join(tmpdir(), "pwa-status-cli-"));
		const file = join(home, "cfg.json5");
		writeFileSync(
			file,
			`{ providers: { exa: { type: "exa" }, d: { type: "direct" } }, search: ["exa"], fetch: ["exa", "d"] }`,
		);
		const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") };
		const text = await run(["status", "--config", file], env);
		expect(text.code).toBe(0);
		expect(text.stdout).toContain("exa (exa; search, fetch): missing: no key: set EXA_API_KEY or set apiKey");
		expect(text.stdout).toContain("fetch chain: exa → d");
		const json = await run(["status", "--json", "--config", file], env);
		expect(json.code).toBe(0);
		const report = JSON.parse(json.stdout);
		expect(report).toMatchObject({
			file,
			exists: true,
			loaded: true,
			zeroConfig: false,
			search: ["exa"],
			fetch: ["exa", "d"],
		});
		expect(
			report.providers.map((p: { name: string; credentials: { state: string } }) => [p.name, p.credentials.state]),
		).toEqual([
			["exa", "missing"],
			["d", "none needed"],
		]);
	}, 60_000);

	it("with no config file shows the zero-config set-up and offers it as a starting file", async () => {
		const home = mkdtempSync(join(tmpdir(), "pwa-status-zero-"));
		const env = { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), TAVILY_API_KEY: "tvly-zero-config-key" };
		const { code, stdout } = await run(["status"], env);
		expect(code).toBe(0);
		expect(stdout).toContain("not found — zero-config from what pi knows");
		expect(stdout).toContain("search chain: tavily");
		expect(stdout).toContain("fetch chain: tavily → direct");
		expect(stdout).toContain('"direct": {');
		expect(stdout).not.toContain("tvly-zero-config-key");
	}, 60_000);

	it("shows today's spend from the state file, this session's spend, prices with their source, and budgets", async () => {
		const home = mkdtempSync(join(tmpdir(), "pwa-status-spend-"));
		const agent = join(home, "agent");
		mkdirSync(agent, { recursive: true });
		const file = join(home, "cfg.json5");
		writeFileSync(
			file,
			`{ providers: { exa: { type: "exa", apiKey: "$EXA_KEY", budget: { usdPerDay: 2 } },
			   ds: { type: "deepseek", apiKey: "$DS_KEY", paid: "explicit" }, tv: { type: "tavily" }, d: { type: "direct" } },
			   policy: { budget: { usdPerDay: 0.5, usdPerCall: 0.05 } } }`,
		);
		const today = utcDay(Date.now());
		const state = {
			version: 1,
			cooldowns: [],
			keys: [],
			spend: {
				day: today,
				providers: [
					{ provider: "exa", usd: 0.042, calls: 3 },
					{ provider: "ds", usd: 0.0015, calls: 2, estimated: true },
				],
			},
		};
		writeFileSync(join(agent, "pi-web-access.state.json"), JSON.stringify(state));
		const env = { HOME: home, PI_CODING_AGENT_DIR: agent };
		const text = await run(["status", "--config", file], env);
		expect(text.code).toBe(0);
		const lines = text.stdout.split("\n");
		expect(lines).toContain(
			`spend today (${today} UTC): $0.044 · this session: $0.00 · budget $0.50 a day, $0.05 a call`,
		);
		expect(lines).toContain(
			"  exa: today $0.042 (3 calls) · session $0.00 (0 calls) · price: reported by the backend (docs/providers/exa.md), else $0.005 a request (estimated) · budget $2.00 a day",
		);
		expect(lines).toContain(
			"  ds: today $0.0015 (2 calls) · session $0.00 (0 calls) (partly estimated) · price: $0.00075 a request (docs/providers/deepseek.md) · paid: explicit (only when named)",
		);
		expect(lines).toContain("  tv: price: $0.008 a request (estimated)");
		expect(lines).toContain("  d: price: free");

		const json = JSON.parse((await run(["status", "--json", "--config", file], env)).stdout);
		expect(json.spend).toMatchObject({ day: today, sessionUsd: 0, budget: { usdPerDay: 0.5, usdPerCall: 0.05 } });
		expect(json.spend.todayUsd).toBeCloseTo(0.0435, 10);
		expect(json.spend.headroomUsd).toBeCloseTo(0.5 - 0.0435, 10);
		expect(json.spend.providers[0].headroomUsd).toBeCloseTo(2 - 0.042, 10);
		expect(lines).toContain(
			"  budget headroom today (every process of the store): $0.46 of the day budget · exa $1.96",
		);
		expect(json.store).toMatchObject({ kind: "local", state: "ok", location: agent });
		expect(json.spend.providers[0]).toMatchObject({ provider: "exa", todayUsd: 0.042, todayCalls: 3, sessionUsd: 0 });

		// /web-access passes the executor's session sums; the same report then shows them.
		const setup = createSetup({ configFile: file, env });
		const session = {
			day: today,
			todayUsd: 0.05,
			sessionUsd: 0.008,
			today: [],
			session: [{ provider: "tv", usd: 0.008, calls: 1, estimated: true }],
		};
		const report = statusReport(
			setup,
			{ version: 1, cooldowns: [], keys: [], spend: state.spend },
			Date.now(),
			[],
			session,
		);
		expect(formatStatus(report)).toContain(
			"  tv: today $0.00 (0 calls) · session $0.008 (1 call) (partly estimated) · price: $0.008 a request (estimated)",
		);
		expect(formatStatus(report)).toContain("· this session: $0.008 ·");
	}, 60_000);
});
