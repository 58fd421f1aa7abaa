// Proxy URLs whose credentials cannot be decoded (`us%ZZer`) are refused where they are read: a located diagnostic
// with a fix at load, "unusable" in status, and a fetch that fails at once without opening a socket. On every
// failure through a proxy (bad credentials, refusal, a TLS failure in the tunnel, a cancelled call) no connection to
// the proxy outlives the call: the loopback proxy counts what it accepted and what is still open.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebAccessError } from "../engine/errors.ts";
import { fetchPage } from "../providers/direct/fetch-page.ts";
import type { HostLookup } from "../providers/direct/guard.ts";
import { openTunnel } from "../providers/direct/proxy-connect.ts";
import { proxySettings } from "../providers/http/proxy.ts";
import { LOOPBACK, send, startServer, type TestServer } from "./direct-helpers.ts";
import { waitFor } from "./e2e/fakes.ts";
import { runCli } from "./helpers/cli-run.ts";
import { type ProxyServer, startProxy } from "./helpers/proxy-server.ts";

let site: TestServer;
let proxy: ProxyServer;
let dir: string;
beforeAll(async () => {
	[site, proxy] = await Promise.all([startServer(), startProxy()]);
	site.route("/page", send("<html><body><p>through the tunnel</p></body></html>"));
	dir = mkdtempSync(join(tmpdir(), "pwa-proxy-sockets-"));
});
afterAll(async () => {
	await Promise.all([site.close(), proxy.close()]);
	rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
	proxy.clear();
	proxy.refuseConnect = false;
	proxy.silentTunnel = false;
	proxy.stallConnect = false;
});

const lookup: HostLookup = async () => [{ address: "127.0.0.1", family: 4 }];
const badCredentials = () => proxy.url.replace("http://", "http://us%ZZer:pw@");

function fetchThrough(url: string, proxyUrl: string, signal = new AbortController().signal) {
	return fetchPage(url, {
		provider: "direct",
		signal,
		userAgent: "test",
		guard: LOOPBACK,
		lookup,
		proxy: proxySettings(undefined, undefined, { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl }),
	});
}

async function failure(promise: Promise<unknown>): Promise<WebAccessError> {
	const error = await promise.catch((e: unknown) => e);
	expect(error).toBeInstanceOf(WebAccessError);
	return error as WebAccessError;
}

/** No connection to the proxy is left open (closing is asynchronous on the proxy's side: a bounded wait). */
const noneOpen = () => waitFor("the proxy's connections to close", () => (proxy.open() === 0 ? true : undefined), 5000);

describe("a proxy URL with a bad % escape in its credentials", () => {
	it("is a located error at load with a fix, and status calls the proxy unusable; no part of the password shown", async () => {
		const file = join(dir, "cfg.json");
		const config = { providers: { d: { type: "direct", proxy: "http://us%ZZer:s3cret-pw@127.0.0.1:9" } } };
		writeFileSync(file, JSON.stringify(config, null, 2));
		const env = { HOME: dir, PI_CODING_AGENT_DIR: join(dir, "agent") };
		const check = await runCli(["check", "--config", file], env);
		expect(check.code).toBe(1);
		expect(check.stdout).toMatch(
			new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}:\\d+:\\d+: error: proxy: .*%25.*fix: `),
		);
		const status = await runCli(["status"], { ...env, HTTP_PROXY: badCredentials(), HTTPS_PROXY: badCredentials() });
		expect(status.stdout).toMatch(/proxy in https?_proxy unusable: .*%/i);
		for (const text of [check.stdout, check.stderr, status.stdout, status.stderr]) {
			expect(text).not.toContain("s3cret");
			expect(text).not.toContain("ZZer");
		}
	}, 60_000);

	it("fails a fetch at once with invalid-proxy and never opens a socket to the proxy", async () => {
		const error = await failure(fetchThrough(`http://site.test:${site.port}/page`, badCredentials()));
		expect(error).toMatchObject({ kind: "transport", code: "invalid-proxy" });
		expect(proxy.accepted).toBe(0);
		expect(site.hits).toHaveLength(0);
	});

	it("openTunnel itself rejects before connecting", async () => {
		const error = await failure(openTunnel({ url: badCredentials(), source: "test" }, "127.0.0.1:1", 5000));
		expect(error.code).toBe("invalid-proxy");
		expect(proxy.accepted).toBe(0);
	});
});

describe("no proxy connection outlives a failed call", () => {
	it("when the proxy refuses CONNECT", async () => {
		proxy.refuseConnect = true;
		await failure(fetchThrough(`http://site.test:${site.port}/page`, proxy.url));
		expect(proxy.accepted).toBe(1);
		await noneOpen();
	});

	it("when TLS inside the tunnel fails", async () => {
		// The proxy says 200 and then the site (the loopback plain-HTTP server) is not TLS.
		await failure(fetchThrough(`https://site.test:${site.port}/page`, proxy.url));
		expect(proxy.accepted).toBe(1);
		await noneOpen();
	});

	it("when the call is cancelled while the proxy has not answered CONNECT", async () => {
		proxy.stallConnect = true;
		const controller = new AbortController();
		// Its failure is taken at once (it comes while the proxy's side is watched) and checked at the end.
		const pending = failure(fetchThrough(`http://site.test:${site.port}/page`, proxy.url, controller.signal));
		await waitFor("the proxy to see CONNECT", () => (proxy.seen.length > 0 ? true : undefined), 5000);
		controller.abort(new Error("call cancelled"));
		// Within 5 s, half the 10 s connect timeout: the cancelled call closed its tunnel itself.
		await noneOpen();
		expect((await pending).kind).toBe("cancelled");
	});
});
