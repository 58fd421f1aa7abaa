// `direct` through a proxy keeps the private-network guard: it checks each hop itself and asks a real loopback
// proxy for `CONNECT <checked address>:<port>` only; private targets, unresolvable names and a dead or refusing
// proxy fail with what to do, and the proxy's count shows nothing unchecked reached it.

import { readFileSync } from "node:fs";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createSecureContext } from "node:tls";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Config } from "../engine/config-types.ts";
import { WebAccessError } from "../engine/errors.ts";
import type { ProxySettings } from "../providers/contract.ts";
import { fetchPage } from "../providers/direct/fetch-page.ts";
import type { HostLookup } from "../providers/direct/guard.ts";
import { proxySettings } from "../providers/http/proxy.ts";
import { LOOPBACK, redirect, send, startServer, type TestServer } from "./direct-helpers.ts";
import { deadPort, type ProxyServer, startProxy } from "./helpers/proxy-server.ts";

let site: TestServer;
let proxy: ProxyServer;
beforeAll(async () => {
	[site, proxy] = await Promise.all([startServer(), startProxy()]);
	site.route("/page", send("<html><title>T</title><body><p>hello through the tunnel</p></body></html>"));
	site.route("/to-private", redirect("http://intranet.test/admin"));
});
afterAll(async () => Promise.all([site.close(), proxy.close()]));
beforeEach(() => {
	proxy.clear();
	proxy.refuseConnect = false;
	site.hits.length = 0;
});

/** DNS answers of the test world: site.test is the loopback site, intranet.test a private address. */
const lookup: HostLookup = async (host) => {
	if (host === "site.test") return [{ address: "127.0.0.1", family: 4 }];
	if (host === "intranet.test") return [{ address: "10.1.2.3", family: 4 }];
	throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
};
const noDns: HostLookup = async () => {
	throw new Error("local DNS must not be asked");
};

const viaProxy = (env: Record<string, string> = { HTTP_PROXY: proxy.url }): ProxySettings =>
	proxySettings(undefined, undefined, env);

function fetchThrough(url: string, settings: ProxySettings, guard: Config["fetchGuard"] = LOOPBACK, dns = lookup) {
	return fetchPage(url, {
		provider: "direct",
		signal: new AbortController().signal,
		userAgent: "test",
		guard,
		lookup: dns,
		proxy: settings,
	});
}

async function failure(promise: Promise<unknown>): Promise<WebAccessError> {
	const error = await promise.catch((e: unknown) => e);
	expect(error).toBeInstanceOf(WebAccessError);
	return error as WebAccessError;
}

describe("direct through a proxy", () => {
	it("tunnels to the address it checked, not to the name", async () => {
		const page = await fetchThrough(`http://site.test:${site.port}/page`, viaProxy());
		expect(page.status).toBe(200);
		expect(page.body.toString()).toContain("hello through the tunnel");
		expect(proxy.seen).toEqual([{ method: "CONNECT", target: `127.0.0.1:${site.port}` }]);
		expect(site.hits).toEqual(["/page"]);
	});

	it("still refuses a private target: the proxy is never asked", async () => {
		const error = await failure(fetchThrough("http://intranet.test/admin", viaProxy()));
		expect(error.kind).toBe("guard");
		expect(error.message).toMatch(/^refused 10\.1\.2\.3 \(private\) for intranet\.test/);
		const loopback = await failure(fetchThrough(`http://127.0.0.1:${site.port}/page`, viaProxy(), {}));
		expect(loopback.message).toMatch(/^refused 127\.0\.0\.1 \(loopback\)/);
		expect(proxy.seen).toHaveLength(0);
		expect(site.hits).toHaveLength(0);
	});

	it("checks a redirect hop before the proxy sees it", async () => {
		const error = await failure(fetchThrough(`http://site.test:${site.port}/to-private`, viaProxy()));
		expect(error.message).toMatch(/^refused 10\.1\.2\.3 \(private\) for intranet\.test/);
		expect(proxy.seen.map((s) => s.target)).toEqual([`127.0.0.1:${site.port}`]);
	});

	it("refuses a host it cannot resolve itself, saying so, rather than letting the proxy resolve it", async () => {
		const error = await failure(fetchThrough(`http://nowhere.test:${site.port}/page`, viaProxy()));
		expect(error).toMatchObject({ kind: "guard", code: "guard-unresolvable" });
		expect(error.message).toBe(
			`refused nowhere.test: the fetch goes through proxy ${proxy.url} (HTTP_PROXY), and the guard cannot check a host that does not resolve here (DNS lookup failed for nowhere.test (ENOTFOUND)): set fetchGuard.allowPrivate to let the proxy resolve names (the guard is then off), or use another provider`,
		);
		expect(proxy.seen).toHaveLength(0);
	});

	it("with the guard off, hands the name to the proxy without asking local DNS", async () => {
		const page = await fetchThrough(`http://localhost:${site.port}/page`, viaProxy(), { allowPrivate: true }, noDns);
		expect(page.status).toBe(200);
		expect(proxy.seen).toEqual([{ method: "CONNECT", target: `localhost:${site.port}` }]);
	});

	it("goes through ALL_PROXY when no scheme's own variable is set", async () => {
		const page = await fetchThrough(`http://site.test:${site.port}/page`, viaProxy({ ALL_PROXY: proxy.url }));
		expect(page.status).toBe(200);
		expect(proxy.seen).toEqual([{ method: "CONNECT", target: `127.0.0.1:${site.port}` }]);
	});

	it("goes around the proxy for NO_PROXY hosts (connecting to the checked address)", async () => {
		const settings = viaProxy({ HTTP_PROXY: proxy.url, NO_PROXY: "site.test" });
		const page = await fetchThrough(`http://site.test:${site.port}/page`, settings);
		expect(page.status).toBe(200);
		expect(proxy.seen).toHaveLength(0);
		expect(site.hits).toEqual(["/page"]);
	});

	it("fails on a proxy that refuses CONNECT, naming the proxy and the answer", async () => {
		proxy.refuseConnect = true;
		const error = await failure(fetchThrough(`http://site.test:${site.port}/page`, viaProxy()));
		expect(error).toMatchObject({ kind: "transport", code: "proxy-refused" });
		expect(error.message).toBe(`proxy ${proxy.url} (HTTP_PROXY) answered 403 to CONNECT 127.0.0.1:${site.port}`);
		expect(site.hits).toHaveLength(0);
	});

	it("fails on a dead proxy as a transport failure with the reason, credentials masked", async () => {
		const port = await deadPort();
		const settings = viaProxy({ HTTP_PROXY: `http://carol:t0p-secret@127.0.0.1:${port}` });
		const error = await failure(fetchThrough(`http://site.test:${site.port}/page`, settings));
		expect(error).toMatchObject({ kind: "transport", code: "econnrefused" });
		expect(error.message).toBe(`proxy http://***@127.0.0.1:${port} (HTTP_PROXY) could not be reached (ECONNREFUSED)`);
		expect(site.hits).toHaveLength(0);
	});

	it("sends the proxy URL's credentials to the proxy", async () => {
		const withAuth = proxy.url.replace("http://", "http://dave:pa%24%24@");
		proxy.requireAuth = `Basic ${Buffer.from("dave:pa$$").toString("base64")}`;
		try {
			const page = await fetchThrough(`http://site.test:${site.port}/page`, proxySettings(withAuth, undefined, {}));
			expect(page.status).toBe(200);
			expect(proxy.seen[0]?.auth).toBe(proxy.requireAuth);
		} finally {
			proxy.requireAuth = undefined;
		}
	});
});

describe("direct through a proxy to an https site", () => {
	it("runs TLS inside the tunnel with the site's name (SNI) and verifies the certificate", async () => {
		const tls = join(import.meta.dirname, "fixtures", "tls");
		const context = {
			key: readFileSync(join(tls, "site-test.key")),
			cert: readFileSync(join(tls, "site-test.crt")),
		};
		const names: string[] = [];
		const secure = createHttpsServer(
			{
				...context,
				SNICallback: (name, done) => {
					names.push(name);
					done(null, createSecureContext(context));
				},
			},
			(_req, res) => res.end("never: the certificate is self-signed"),
		);
		await new Promise<void>((done) => secure.listen(0, "127.0.0.1", done));
		const { port } = secure.address() as AddressInfo;
		try {
			const settings = viaProxy({ HTTPS_PROXY: proxy.url });
			const error = await failure(fetchThrough(`https://site.test:${port}/page`, settings));
			expect(error.kind).toBe("transport");
			expect(error.message).toMatch(/SELF_SIGNED/);
			expect(proxy.seen).toEqual([{ method: "CONNECT", target: `127.0.0.1:${port}` }]);
			expect(names).toEqual(["site.test"]);
		} finally {
			secure.closeAllConnections();
			await new Promise((done) => secure.close(done));
		}
	});
});
