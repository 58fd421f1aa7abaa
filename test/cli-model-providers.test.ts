// `pi-web-access search --json --provider <type>` for every model-mediated type against local fake servers, with
// gateway credentials and base URLs coming from pi's own registry (models.json in a temp agent dir), and the
// `model` type following `--model`. Runs the CLI's main() in-process (the same code the bin runs).

import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";
import { responsesSse } from "./helpers/model-sse.ts";

const fixtures = join(import.meta.dirname, "fixtures", "providers");
const text = (path: string) => readFileSync(join(fixtures, path), "utf8");
const GATEWAY_KEY = "gw-Zk29-fake-gateway-key";
const VENDOR_KEY = "vendor-Q81x-fake-key";

let server: FakeServer;
let home: string;
let config: string;

beforeAll(async () => {
	server = await startFakeServer();
	home = mkdtempSync(join(tmpdir(), "pwa-model-cli-"));
	const agentDir = join(home, "agent");
	mkdirSync(agentDir, { recursive: true });
	const model = (id: string) => ({
		id,
		contextWindow: 100000,
		maxTokens: 1000,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	});
	writeFileSync(
		join(agentDir, "models.json"),
		JSON.stringify({
			providers: {
				"gw-codex": {
					baseUrl: `${server.url}/v1`,
					apiKey: GATEWAY_KEY,
					api: "openai-responses",
					models: [model("gpt-5.2")],
				},
				"gw-claude": {
					baseUrl: server.url,
					apiKey: GATEWAY_KEY,
					api: "anthropic-messages",
					models: [model("claude-sonnet-4-5")],
				},
				"gw-grok": {
					baseUrl: `${server.url}/v1`,
					apiKey: GATEWAY_KEY,
					api: "openai-responses",
					models: [model("grok-4")],
				},
			},
		}),
	);
	config = join(home, "cfg.json5");
	writeFileSync(
		config,
		JSON.stringify({
			providers: {
				openai: { type: "openai", apiKey: VENDOR_KEY, baseUrl: `${server.url}/v1` },
				anthropic: { type: "anthropic", apiKey: VENDOR_KEY, baseUrl: server.url },
				xai: { type: "xai", apiKey: VENDOR_KEY, baseUrl: `${server.url}/v1` },
				gemini: { type: "gemini", apiKey: VENDOR_KEY, baseUrl: server.url },
				codex: { type: "sub2api-codex", provider: "gw-codex", model: "gpt-5.2" },
				claude: { type: "sub2api-claude", provider: "gw-claude", model: "claude-sonnet-4-5" },
				grok: { type: "sub2api-grok", provider: "gw-grok", model: "grok-4" },
				"codex-search": { type: "sub2api-search", provider: "gw-codex", model: "gpt-5.2" },
				current: { type: "model" },
			},
			policy: { cacheTtlMs: 0 },
		}),
	);
});
afterAll(async () => server.close());

async function search(provider: string, extra: string[] = []) {
	let stdout = "";
	let stderr = "";
	const code = await main(["search", "--json", "--config", config, "--provider", provider, "what is new", ...extra], {
		stdout: (t) => {
			stdout += t;
		},
		stderr: (t) => {
			stderr += t;
		},
		env: { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent"), PI_OFFLINE: "1" },
	});
	for (const out of [stdout, stderr]) {
		expect(out).not.toContain(GATEWAY_KEY);
		expect(out).not.toContain(VENDOR_KEY);
	}
	return { code, result: JSON.parse(stdout), stderr };
}

const sse = (body: string) => ({ body, headers: { "content-type": "text/event-stream" } });
const json = (body: string) => ({ body, headers: { "content-type": "application/json" } });

describe("--model", () => {
	it("a model pi does not know gets a warning with the closest known one; a known one none", async () => {
		server.reset();
		server.respond(sse(text("openai/stream.sse")));
		const typo = await search("current", ["--model", "gw-codex/gpt-5.3"]);
		expect(typo.stderr).toContain(
			'pi-web-access: --model "gw-codex/gpt-5.3" is not a model pi knows (did you mean "gw-codex/gpt-5.2"?)',
		);
		expect(server.requests).toHaveLength(0);
		server.respond(sse(text("openai/stream.sse")));
		const known = await search("current", ["--model", "gw-codex/gpt-5.2"]);
		expect(known.stderr).not.toContain("--model");
	}, 60_000);
});

describe("CLI search with every model-mediated type", () => {
	const cases: Array<{
		provider: string;
		respond: () => { body: string; headers: Record<string, string> };
		key: string;
		path: RegExp;
		extra?: string[];
	}> = [
		{ provider: "openai", respond: () => sse(text("openai/stream.sse")), key: VENDOR_KEY, path: /^\/v1\/responses$/ },
		{
			provider: "codex",
			respond: () => sse(responsesSse(JSON.parse(text("openai/response_success.json")))),
			key: GATEWAY_KEY,
			path: /^\/v1\/responses$/,
		},
		{
			provider: "anthropic",
			respond: () => sse(text("anthropic/stream_web_search.sse")),
			key: VENDOR_KEY,
			path: /^\/v1\/messages$/,
		},
		{
			provider: "claude",
			respond: () => sse(text("anthropic/stream_web_search.sse")),
			key: GATEWAY_KEY,
			path: /^\/v1\/messages$/,
		},
		{ provider: "xai", respond: () => sse(text("xai/stream.sse")), key: VENDOR_KEY, path: /^\/v1\/responses$/ },
		{ provider: "grok", respond: () => sse(text("xai/stream.sse")), key: GATEWAY_KEY, path: /^\/v1\/responses$/ },
		{
			provider: "gemini",
			respond: () => sse(text("gemini/stream.sse")),
			key: VENDOR_KEY,
			path: /:streamGenerateContent\?alt=sse$/,
		},
		{
			provider: "codex-search",
			respond: () => json(text("sub2api-search/search_response.json")),
			key: GATEWAY_KEY,
			path: /alpha\/search$/,
		},
		{
			provider: "current",
			respond: () => sse(text("openai/stream.sse")),
			key: GATEWAY_KEY,
			path: /^\/v1\/responses$/,
			extra: ["--model", "gw-codex/gpt-5.2"],
		},
	];
	for (const c of cases) {
		it(`--provider ${c.provider} returns results from its backend with the right credentials`, async () => {
			server.reset();
			server.respond(c.respond());
			const { code, result, stderr } = await search(c.provider, c.extra);
			expect(code, stderr).toBe(0);
			expect(result.provider).toBe(c.provider);
			expect(result.results.length + (result.answer ? 1 : 0)).toBeGreaterThan(0);
			const request = server.requests[0];
			expect(request?.path).toMatch(c.path);
			const auth = `${request?.headers.authorization ?? ""}${request?.headers["x-api-key"] ?? ""}${request?.headers["x-goog-api-key"] ?? ""}`;
			expect(auth).toContain(c.key);
		}, 60_000);
	}

	it("the model type is skipped with a reason when the current model has no native search", async () => {
		const { code, result, stderr } = await search("current", ["--model", "nobody/none"]);
		expect(code).toBe(1);
		expect(stderr).toContain('pi-web-access: --model "nobody/none" is not a model pi knows');
		expect(result.attempts[0]).toMatchObject({ provider: "current", outcome: "skipped" });
		expect(result.attempts[0].reason).toMatch(/no native search through this API/);
	}, 60_000);
});
