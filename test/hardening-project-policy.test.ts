// A project file never loosens a limit the global file sets: budgets, attempts, hedging, cooldowns and a provider's
// timeout, at the top level, in a provider and in a rule's own policy (a project rule is tried before every global
// rule, so it is held to the tightest the global file sets anywhere). Each loosened value is a located diagnostic.

import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { plan } from "../engine/plan.ts";
import { searchRequest } from "../engine/requests.ts";
import { DRIVER_DEFAULTS } from "../providers/browser/driver.ts";
import { RENDER_DEFAULTS } from "../providers/browser/render.ts";
import { FETCH_DEFAULTS } from "../providers/direct/fetch-page.ts";
import { ANTHROPIC_DEFAULTS } from "../providers/families/messages-family.ts";
import { providerType } from "../providers/registry.ts";
import { createServices } from "../runtime/services.ts";
import { createSetup } from "../runtime/setup.ts";
import { projectConfigPath } from "../schema/project.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const TRUSTED = { trusted: true, reason: "pi trusts this project" };

function layout(global: unknown, project: string) {
	const root = mkdtempSync(join(tmpdir(), "pwa-project-policy-"));
	dirs.push(root);
	const globalFile = join(root, "pi-web-access.json");
	writeFileSync(globalFile, JSON.stringify(global, null, "\t"));
	const cwd = join(root, "repo");
	mkdirSync(join(cwd, ".pi"), { recursive: true });
	writeFileSync(projectConfigPath(cwd), project);
	const setup = createSetup({ configFile: globalFile, env: {}, project: { cwd, trust: TRUSTED } });
	const projectFile = projectConfigPath(cwd);
	const diagnostics = setup.loaded.diagnostics.filter((d) => d.file === projectFile);
	return { setup, projectFile, diagnostics };
}

const lineOf = (text: string, needle: string) => text.split("\n").findIndex((line) => line.includes(needle)) + 1;

describe("a project rule's own budget", () => {
	let backend: FakeServer;
	beforeAll(async () => {
		backend = await startFakeServer();
	});
	afterAll(() => backend.close());

	it("cannot let searches through the global daily budget: 6 searches at $0.005 against $0.01/day send 2", async () => {
		const fixture = readFileSync(join(import.meta.dirname, "fixtures/providers/brave/search_success.json"));
		backend.respond(...Array.from({ length: 6 }, () => ({ body: fixture })));
		const global = {
			providers: { brave: { type: "brave", apiKey: "brave-test-key", baseUrl: backend.url } },
			policy: { budget: { usdPerDay: 0.01 }, cacheTtlMs: 0 },
		};
		const project = `{
	"rules": [
		{ "name": "everything", "queryScript": ["Latin"], "search": ["brave"],
			"policy": { "budget": { "usdPerDay": 1000 } } }
	]
}`;
		const { setup, projectFile, diagnostics } = layout(global, project);
		const services = createServices(setup);
		const outcomes: string[] = [];
		for (let i = 0; i < 6; i++) {
			const planned = plan(setup.table, searchRequest({ query: `query number ${i}` }), setup.context);
			await services.run(planned).then(
				() => outcomes.push("ok"),
				(error: Error) => outcomes.push(error.message.includes("budget reached") ? "budget" : error.message),
			);
		}
		expect(backend.requests).toHaveLength(2);
		expect(outcomes).toEqual(["ok", "ok", "budget", "budget", "budget", "budget"]);
		expect(diagnostics).toHaveLength(1);
		expect(diagnostics[0]).toMatchObject({
			file: projectFile,
			line: lineOf(project, "usdPerDay"),
			path: "/rules/0/policy/budget/usdPerDay",
		});
		expect(diagnostics[0]?.message).toContain("1000");
		expect(diagnostics[0]?.message).toContain("0.01");
	});
});

describe("every limit a project file sets", () => {
	const GLOBAL = {
		providers: {
			brave: { type: "brave", apiKey: "k", timeoutMs: 20_000, budget: { usdPerCall: 0.01 } },
			exa: { type: "exa", apiKey: "k" },
		},
		rules: [
			{ name: "Go", sites: ["go.dev"], search: ["brave"], policy: { maxAttempts: 2, budget: { usdPerDay: 0.001 } } },
		],
		policy: { maxAttempts: 3, hedgeAfterMs: 4000, cooldown: { baseMs: 30_000 }, budget: { usdPerCall: 0.01 } },
	};

	it("is held to the global file's at the top level and in a provider, each loosened value a located diagnostic", () => {
		const project = `{
	"policy": {
		"maxAttempts": 20,
		"hedgeAfterMs": 1,
		"cooldown": false,
		"budget": { "usdPerCall": 5, "usdPerDay": 2 }
	},
	"providers": {
		"brave": { "timeoutMs": 600000, "budget": { "usdPerCall": 1 } },
		"exa": { "timeoutMs": 600000 }
	}
}`;
		const { setup, diagnostics } = layout(GLOBAL, project);
		const { config } = setup.table;
		expect(config.policy).toEqual({
			maxAttempts: 3,
			hedgeAfterMs: 4000,
			cooldown: { baseMs: 30_000, maxMs: 600_000 },
			budget: { usdPerCall: 0.01, usdPerDay: 2 },
		});
		const brave = config.providers.find((p) => p.name === "brave");
		expect(brave).toMatchObject({ timeoutMs: 20_000, budget: { usdPerCall: 0.01 } });
		// exa's own timeout is its type's default (docs/providers/exa.md), which a project may lower, never raise.
		expect(config.providers.find((p) => p.name === "exa")?.timeoutMs).toBeLessThan(600_000);
		const located = diagnostics.map((d) => [d.path, d.line]);
		expect(located).toEqual([
			["/policy/maxAttempts", lineOf(project, "maxAttempts")],
			["/policy/hedgeAfterMs", lineOf(project, "hedgeAfterMs")],
			["/policy/cooldown", lineOf(project, "cooldown")],
			["/policy/budget/usdPerCall", lineOf(project, '"usdPerCall": 5')],
			["/providers/brave/timeoutMs", lineOf(project, '"brave"')],
			["/providers/brave/budget/usdPerCall", lineOf(project, '"brave"')],
			["/providers/exa/timeoutMs", lineOf(project, '"exa"')],
		]);
		for (const d of diagnostics) expect(d.fix).toBeDefined();
	});

	it("cannot turn hedging on when the global file does not hedge", () => {
		const { setup, diagnostics } = layout({ ...GLOBAL, policy: {} }, `{ "policy": { "hedgeAfterMs": 1 } }`);
		expect(setup.table.config.policy.hedgeAfterMs).toBeUndefined();
		expect(diagnostics.map((d) => d.path)).toEqual(["/policy/hedgeAfterMs"]);
		expect(diagnostics[0]?.message).toContain("hedg");
	});

	it("in a project rule is held to the tightest the global file sets, even where the rule says nothing", () => {
		const project = `{
	"rules": [
		{ "name": "all", "queryScript": ["Latin"], "search": ["exa"],
			"policy": { "maxAttempts": 6, "hedgeAfterMs": 10, "budget": { "usdPerDay": 1000 } } },
		{ "name": "go", "sites": ["go.dev"], "search": ["exa"] }
	]
}`;
		const { setup, diagnostics } = layout(GLOBAL, project);
		const policyOf = (query: string, domains: string[] = []) =>
			plan(setup.table, searchRequest({ query, domains }), setup.context).policy;
		// The rule "all" shadows the global rule "Go" (maxAttempts 2, $0.001 a day): those stay the limit.
		expect(policyOf("latin words")).toMatchObject({
			maxAttempts: 2,
			hedgeAfterMs: 4000,
			budget: { usdPerCall: 0.01, usdPerDay: 0.001 },
		});
		expect(policyOf("日本語", ["go.dev"])).toMatchObject({ maxAttempts: 2, budget: { usdPerDay: 0.001 } });
		expect(diagnostics.map((d) => d.path)).toEqual([
			"/rules/0/policy/maxAttempts",
			"/rules/0/policy/hedgeAfterMs",
			"/rules/0/policy/budget/usdPerDay",
		]);
	});

	it("may still tighten, and choose what only orders or words the walk (onEmpty, fallbackOn, cacheTtlMs)", () => {
		const project = `{
	"policy": { "maxAttempts": 1, "hedgeAfterMs": 9000, "cooldown": { "baseMs": 90000 }, "onEmpty": "next",
		"fallbackOn": ["timeout"], "cacheTtlMs": 0, "budget": { "usdPerCall": 0.001 } },
	"providers": { "brave": { "timeoutMs": 5000 } }
}`;
		const { setup, diagnostics } = layout(GLOBAL, project);
		expect(diagnostics).toEqual([]);
		expect(setup.table.config.policy).toEqual({
			maxAttempts: 1,
			hedgeAfterMs: 9000,
			cooldown: { baseMs: 90_000 },
			onEmpty: "next",
			fallbackOn: ["timeout"],
			cacheTtlMs: 0,
			budget: { usdPerCall: 0.001 },
		});
		expect(setup.table.config.providers.find((p) => p.name === "brave")?.timeoutMs).toBe(5000);
	});
});

describe("a project file's provider options", () => {
	it("cannot name a program to run (the browser's executablePath): refused, located, the global's kept", () => {
		const global = { providers: { web: { type: "browser", executablePath: "/usr/bin/chromium" } } };
		const project = `{
	"providers": { "web": { "executablePath": "./tools/not-a-browser.sh", "settleMs": 1000 } }
}`;
		const { setup, diagnostics } = layout(global, project);
		const web = setup.table.config.providers.find((p) => p.name === "web");
		expect(web?.options).toMatchObject({ executablePath: "/usr/bin/chromium", settleMs: 1000 });
		expect(diagnostics.map((d) => [d.path, d.line])).toEqual([["/providers/web/executablePath", 2]]);
	});

	it("cannot name the file the browser keeps cookies in and writes back (its profile)", () => {
		const global = { providers: { web: { type: "browser" } } };
		const project = `{ "providers": { "web": { "profile": "~/.bashrc" } } }`;
		const { setup, diagnostics } = layout(global, project);
		expect(setup.table.config.providers.find((p) => p.name === "web")?.options.profile).toBeUndefined();
		expect(diagnostics.map((d) => d.path)).toEqual(["/providers/web/profile"]);
	});
});

describe("a project file's bounding options", () => {
	it("are held to the global file's value, else the type's default: bytes, pages, waits, paid searches per call", () => {
		const global = {
			providers: {
				d: { type: "direct" },
				web: { type: "browser", settleMs: 2000 },
				claude: { type: "anthropic", apiKey: "k" },
			},
		};
		const project = `{
	"providers": {
		"d": { "maxBytes": 1000000000000 },
		"web": { "settleMs": 60000, "maxPages": 2, "maxMemoryMb": 65536 },
		"claude": { "maxUses": 10 }
	}
}`;
		const { setup, diagnostics } = layout(global, project);
		const options = (name: string) => setup.table.config.providers.find((p) => p.name === name)?.options;
		expect(options("d")).toMatchObject({ maxBytes: FETCH_DEFAULTS.maxBytes });
		expect(options("web")).toMatchObject({ settleMs: 2000, maxPages: 2, maxMemoryMb: RENDER_DEFAULTS.maxMemoryMb });
		expect(options("claude")).toMatchObject({ maxUses: ANTHROPIC_DEFAULTS.maxUses });
		expect(diagnostics.map((d) => d.path)).toEqual([
			"/providers/d/maxBytes",
			"/providers/web/settleMs",
			"/providers/web/maxMemoryMb",
			"/providers/claude/maxUses",
		]);
	});

	it("read their defaults from the types' facts, which say what the implementations use", () => {
		const option = (type: string, key: string) => providerType(type)?.options[key]?.default;
		expect(option("direct", "maxBytes")).toBe(FETCH_DEFAULTS.maxBytes);
		expect(option("anthropic", "maxUses")).toBe(ANTHROPIC_DEFAULTS.maxUses);
		expect(option("sub2api-claude", "maxUses")).toBe(ANTHROPIC_DEFAULTS.maxUses);
		for (const key of ["settleMs", "maxBytes", "maxDomNodes", "maxMemoryMb"] as const) {
			expect(option("browser", key)).toBe(RENDER_DEFAULTS[key]);
		}
		for (const key of ["maxPages", "idleMs"] as const) expect(option("browser", key)).toBe(DRIVER_DEFAULTS[key]);
	});
});
