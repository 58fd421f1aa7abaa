// What status says of a `browser` provider: the executable it would run and where it came from, why there is
// none (with the fix), that the driver is installed, and a failed launch with its reason, fix and retry time.

import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { closeSharedBrowser, sharedBrowser } from "../providers/browser/shared.ts";
import { createSetup } from "../runtime/setup.ts";
import { formatStatus, statusReport } from "../runtime/status.ts";
import { runCli as run } from "./helpers/cli-run.ts";

const EMPTY_SNAPSHOT = { cooldowns: [], keys: [], spend: [] } as unknown as Parameters<typeof statusReport>[1];

function box(options: Record<string, unknown>) {
	const home = mkdtempSync(join(tmpdir(), "pwa-browser-status-"));
	const file = join(home, "cfg.json5");
	writeFileSync(file, JSON.stringify({ providers: { b: { type: "browser", ...options } }, fetch: ["b"] }));
	return { home, file, env: { HOME: home, PI_CODING_AGENT_DIR: join(home, "agent") } };
}

afterAll(closeSharedBrowser);

describe("status of a browser provider", () => {
	it("names the executable and its source, and the driver's version", async () => {
		const { file, env } = box({ executablePath: process.execPath });
		const { code, stdout } = await run(["status", "--json", "--config", file], env);
		expect(code).toBe(0);
		const browser = JSON.parse(stdout).providers[0].browser;
		expect(browser).toMatchObject({ executable: process.execPath, source: "executablePath" });
		expect(browser.driver).toMatchObject({ installed: true, version: expect.stringMatching(/^\d+\.\d+/) });
	}, 60_000);

	it("says why there is no browser and how to get one, and the plan skips it with that reason", async () => {
		const { file, env } = box({ executablePath: "/nonexistent/chrome" });
		const { stdout } = await run(["status", "--config", file], env);
		expect(stdout).toContain("executablePath /nonexistent/chrome is not an executable file");
		const off = box({});
		const none = await run(["status", "--config", off.file], { ...off.env, PI_WEB_ACCESS_BROWSER: "none" });
		expect(none.stdout).toContain("turned off by $PI_WEB_ACCESS_BROWSER=none");
		const explained = await run(["explain", "fetch", "https://example.com/", "--config", off.file], {
			...off.env,
			PI_WEB_ACCESS_BROWSER: "none",
		});
		expect(explained.stdout).toContain("1. b (browser) skipped: turned off by $PI_WEB_ACCESS_BROWSER=none");
	}, 60_000);

	it("shows a failed launch with its reason, its fix and when it is tried again", async () => {
		const dir = mkdtempSync(join(tmpdir(), "pwa-fake-browser-"));
		const fake = join(dir, "chrome");
		writeFileSync(fake, "#!/bin/sh\necho 'not a browser' >&2\nexit 3\n");
		chmodSync(fake, 0o755);
		await expect(sharedBrowser().acquire(fake, new AbortController().signal)).rejects.toMatchObject({
			code: "browser-launch",
		});
		const { file } = box({ executablePath: fake });
		const setup = createSetup({ configFile: file, env: {} });
		const text = formatStatus(statusReport(setup, EMPTY_SNAPSHOT));
		expect(text).toMatch(/launch failed: could not start the browser .*chrome: .*; check that the browser starts/);
		expect(text).toMatch(/tried again in \d+ s/);
	});
});
