// web_fetch's format (markdown | text | html) and links (references | inline | none): validated once for the tool
// and the CLI, part of the tool and output schemas, in the cache key, honoured by the direct provider (HTML as is),
// skipped with a reason in the plan by backends that cannot return HTML, warned about when text gets markdown.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Value } from "typebox/value";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { FetchRequest } from "../engine/request-types.ts";
import { fetchRequest, RequestError } from "../engine/requests.ts";
import { fetchOutput, fetchParameters } from "../extension/schemas.ts";
import directDefault from "../providers/direct/provider.ts";
import { callContext, send, startServer, type TestServer } from "./direct-helpers.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { createWorld, fetchPlan, page } from "./helpers/fake-providers.ts";

const URL_OK = "https://docs.example.org/page";

describe("format and links arguments", () => {
	const cases: Array<[input: Record<string, unknown>, expected: Partial<FetchRequest> | RegExp]> = [
		[{}, {}],
		[{ format: "markdown" }, { format: "markdown" }],
		[
			{ format: "text", links: "none" },
			{ format: "text", links: "none" },
		],
		[{ format: "html" }, { format: "html" }],
		[{ links: "inline" }, { links: "inline" }],
		[{ format: "pdf" }, /format must be one of markdown, text, html, got "pdf"/],
		[{ links: "footnotes" }, /links must be one of references, inline, none, got "footnotes"/],
		[{ format: 1 }, /format must be text, got a number \(1\)/],
	];
	for (const [input, expected] of cases) {
		it(`${JSON.stringify(input)} → ${expected instanceof RegExp ? expected : JSON.stringify(expected)}`, () => {
			const run = () => fetchRequest({ url: URL_OK, ...input } as Parameters<typeof fetchRequest>[0]);
			if (expected instanceof RegExp) {
				expect(run).toThrow(RequestError);
				expect(run).toThrow(expected);
			} else {
				const request = run();
				expect({ format: request.format, links: request.links }).toEqual({
					format: expected.format,
					links: expected.links,
				});
			}
		});
	}

	it("is part of the tool's parameter and output schemas", () => {
		expect(Value.Check(fetchParameters, { url: URL_OK, format: "html", links: "none" })).toBe(true);
		expect(Value.Check(fetchParameters, { url: URL_OK, format: "pdf" })).toBe(false);
		expect(Value.Check(fetchParameters, { url: URL_OK, links: "all" })).toBe(false);
		const result = { provider: "direct", url: URL_OK, content: "<p>x</p>", format: "html", extraction: "verbatim" };
		const full = { ...result, truncated: false, attempts: [], warnings: [], latencyMs: 1 };
		expect(Value.Check(fetchOutput, full)).toBe(true);
		expect(Value.Check(fetchOutput, { ...full, format: "pdf" })).toBe(false);
	});
});

describe("format through the executor", () => {
	it("keeps one cache entry per format and warns when a markdown-only backend answers a text request", async () => {
		const clock = createFakeClock();
		const world = createWorld(clock);
		world.add("md", async () => page("# Title\n\n**bold**"));
		const executor = world.executor();
		const plan = (format?: FetchRequest["format"]) => {
			const base = fetchPlan(["md"], { cacheTtlMs: 60_000 });
			return { ...base, request: { ...(base.request as FetchRequest), ...(format ? { format } : {}) } };
		};
		const markdown = await clock.run(executor.fetch(plan()));
		const text = await clock.run(executor.fetch(plan("text")));
		expect(world.calls).toHaveLength(2);
		expect(markdown).toMatchObject({ format: "markdown", warnings: [] });
		expect(text.format).toBe("markdown");
		expect(text.warnings).toContain('md returns markdown: format "text" is the keyless fetcher\'s (direct)');
		await clock.run(executor.fetch(plan("text")));
		expect(world.calls).toHaveLength(2);
	});
});

describe("format html", () => {
	let server: TestServer;
	let dir: string;
	beforeAll(async () => {
		server = await startServer();
		dir = mkdtempSync(join(tmpdir(), "pwa-format-"));
	});
	afterAll(async () => {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	});

	it("the direct provider returns the page's HTML itself, decoded, marked as html", async () => {
		const html =
			"<!DOCTYPE html><html><head><title>T</title></head><body><nav>menu</nav><p>caf\u00e9</p></body></html>";
		server.route("/page", send(Buffer.from(html, "latin1"), { "content-type": "text/html; charset=iso-8859-1" }));
		const request: FetchRequest = { kind: "fetch", url: `${server.origin}/page`, offset: 0, maxChars: 20_000 };
		const result = await directDefault.fetch!({ ...request, format: "html" }, callContext());
		expect(result).toMatchObject({ content: html, format: "html" });
	});

	it("explain skips backends that cannot return HTML, with the reason, and shows the format", async () => {
		const config = join(dir, "pi-web-access.json");
		writeFileSync(config, JSON.stringify({ providers: { exa: { type: "exa" }, direct: { type: "direct" } } }));
		let out = "";
		const io = { stdout: (t: string) => (out += t), stderr: () => {}, env: { EXA_API_KEY: "k", HOME: dir } };
		const code = await main(["explain", "--config", config, "fetch", URL_OK, "--format", "html"], io);
		expect(code).toBe(0);
		expect(out).toContain(`fetch ${URL_OK} · format: html`);
		expect(out).toContain('exa (exa) skipped: cannot return HTML (format "html")');
		expect(out).toMatch(/direct \(direct\) ready/);
		out = "";
		expect(await main(["explain", "--config", config, "--json", "fetch", URL_OK, "--format", "text"], io)).toBe(0);
		const json = JSON.parse(out) as { request: { format?: string }; steps: Array<{ status: string }> };
		expect(json.request.format).toBe("text");
		expect(json.steps.map((s) => s.status)).toEqual(["ready", "ready"]);
		expect(await main(["fetch", "--config", config, URL_OK, "--format", "xml"], io)).toBe(2);
	});
});
