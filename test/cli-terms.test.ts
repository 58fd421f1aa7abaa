// The CLI speaks its own terms: --version, --help with a line per command and the config lookup order, fetch
// continuation hints as --offset N, and window headers that say where the window starts and ends.

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { HELP, USAGE } from "../cli/args.ts";
import { main } from "../cli/main.ts";
import { fetchRequest } from "../engine/requests.ts";
import type { FetchResult } from "../engine/result-types.ts";
import pkg from "../package.json" with { type: "json" };
import { CLI_TERMS, formatFetch, modelText, truncateLines, windowHeader } from "../runtime/format.ts";

async function run(argv: string[]) {
	const out: string[] = [];
	const err: string[] = [];
	const code = await main(argv, { stdout: (t) => out.push(t), stderr: (t) => err.push(t), env: {} });
	return { code, stdout: out.join(""), stderr: err.join("") };
}

const page = (content: string, extra: Partial<FetchResult> = {}): FetchResult => ({
	provider: "direct",
	url: "https://docs.example.org/page",
	content,
	extraction: "verbatim",
	truncated: false,
	attempts: [{ provider: "direct", outcome: "ok" }],
	warnings: [],
	latencyMs: 1,
	...extra,
});

describe("CLI terms", () => {
	it("--version prints the package version", async () => {
		expect(await run(["--version"])).toEqual({ code: 0, stdout: `pi-web-access ${pkg.version}\n`, stderr: "" });
	});

	it("--help has a one-line description per command and the config lookup order", async () => {
		const { code, stdout } = await run(["--help"]);
		expect(code).toBe(0);
		expect(stdout).toBe(HELP);
		for (const command of ["check", "explain", "search", "fetch", "status"]) {
			expect(stdout).toMatch(new RegExp(`\\n  ${command} +\\S`));
		}
		const order = ["--config F", "$PI_WEB_ACCESS_CONFIG", "<agentDir>/pi-web-access.json"].map((s) =>
			stdout.indexOf(s),
		);
		expect(order.every((at) => at > 0)).toBe(true);
		expect([...order].sort((a, b) => a - b)).toEqual(order);
	});

	it("documents in the README's CLI section every flag the usage names", () => {
		const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
		const section = readme.slice(
			readme.indexOf("\n## CLI\n"),
			readme.indexOf("\n## ", readme.indexOf("\n## CLI\n") + 1),
		);
		const flags = [...new Set(USAGE.match(/--[a-z][a-z-]*/g) ?? [])];
		expect(flags).toEqual(expect.arrayContaining(["--strict", "--model", "--version", "--help"]));
		expect(flags.filter((flag) => !section.includes(flag))).toEqual([]);
	});

	it("says where a window starts and ends: characters 2,000–4,000 of 16,594", () => {
		const middle = page("x".repeat(2000), { truncated: true, nextOffset: 4000, totalChars: 16594 });
		expect(windowHeader(middle, 2000)).toBe("characters 2,000–4,000 of 16,594");
		expect(windowHeader(middle)).toBe("characters 2,000–4,000 of 16,594");
		const last = page("y".repeat(594), { totalChars: 16594 });
		expect(windowHeader(last, 16000)).toBe("characters 16,000–16,594 of 16,594");
		expect(formatFetch(middle, "web_fetch", 2000)).toContain("· characters 2,000–4,000 of 16,594");
	});

	it("continues in the CLI's own flags (--offset N), and in the tool's terms for the model", () => {
		const request = fetchRequest({ url: "https://docs.example.org/page", offset: 2000 });
		const middle = page("x".repeat(2000), { truncated: true, nextOffset: 4000, totalChars: 16594 });
		const cli = modelText(middle, request, { maxChars: 30000, truncate: truncateLines, terms: CLI_TERMS }).text;
		expect(cli).toContain("The text continues: run it again with --offset 4000.");
		expect(cli).not.toMatch(/web_fetch|offset 4000 /);
		const tool = modelText(middle, request, { maxChars: 30000, truncate: truncateLines, fetchTool: "web_fetch" }).text;
		expect(tool).toContain("call web_fetch again with offset 4000");
	});
});
