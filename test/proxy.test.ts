// Proxies for API providers: which proxy a setting picks (config over environment, lower-case first, NO_PROXY,
// "none"), and real requests through a loopback forwarding/CONNECT proxy that counts what passes: they go through
// it, NO_PROXY bypasses it, credentials reach the proxy but no message, a dead proxy is a transport failure.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { WebAccessError } from "../engine/errors.ts";
import type { ProxySettings } from "../providers/contract.ts";
import { bypassesProxy, maskProxyUrl, proxyFor, proxySettings } from "../providers/http/proxy.ts";
import { send } from "../providers/http/send.ts";
import { loadConfigText } from "../schema/load.ts";
import { type FakeServer, startFakeServer } from "./helpers/fake-server.ts";
import { deadPort, type ProxyServer, startProxy } from "./helpers/proxy-server.ts";

describe("proxySettings and proxyFor", () => {
	const env = { HTTPS_PROXY: "http://upper:1", https_proxy: "http://lower:2", HTTP_PROXY: "http://plain:3" };
	const route = (settings: ProxySettings, url: string) => {
		const decided = proxyFor(url, settings);
		return decided.via === "proxy" ? `${decided.proxy.url} (${decided.proxy.source})` : decided;
	};

	it.each([
		{
			what: "lower-case first, as undici",
			own: undefined,
			top: undefined,
			url: "https://a.test/",
			expected: "http://lower:2 (https_proxy)",
		},
		{
			what: "HTTP_PROXY for http targets",
			own: undefined,
			top: undefined,
			url: "http://a.test/",
			expected: "http://plain:3 (HTTP_PROXY)",
		},
		{
			what: "the top-level proxy over the environment",
			own: undefined,
			top: "http://top:4",
			url: "https://a.test/",
			expected: "http://top:4 (proxy)",
		},
		{
			what: "a provider's proxy over the top level",
			own: "http://own:5",
			top: "http://top:4",
			url: "http://a.test/",
			expected: "http://own:5 (providers.exa.proxy)",
		},
		{
			what: '"none" over the environment',
			own: undefined,
			top: "none",
			url: "https://a.test/",
			expected: { via: "direct", reason: 'proxy: "none"' },
		},
		{
			what: 'a provider\'s "none" over a top-level URL',
			own: "none",
			top: "http://top:4",
			url: "https://a.test/",
			expected: { via: "direct", reason: 'providers.exa.proxy: "none"' },
		},
	])("picks $what", ({ own, top, url, expected }) => {
		expect(route(proxySettings(own, top, env, "exa"), url)).toEqual(expected);
	});

	it("falls back to HTTP_PROXY for https targets, and uses no proxy without any setting", () => {
		expect(route(proxySettings(undefined, undefined, { HTTP_PROXY: "http://p:1" }), "https://a.test/")).toBe(
			"http://p:1 (HTTP_PROXY)",
		);
		expect(proxyFor("https://a.test/", proxySettings(undefined, undefined, {}))).toEqual({ via: "direct" });
	});

	it("honours ALL_PROXY / all_proxy after the scheme's own variables, as curl does; a socks URL there is not used", () => {
		const all = { ALL_PROXY: "http://all:6", all_proxy: "http://lower-all:7" };
		expect(route(proxySettings(undefined, undefined, all), "https://a.test/")).toBe("http://lower-all:7 (all_proxy)");
		expect(route(proxySettings(undefined, undefined, { ALL_PROXY: "http://all:6" }), "http://a.test/")).toBe(
			"http://all:6 (ALL_PROXY)",
		);
		expect(route(proxySettings(undefined, undefined, { ...all, HTTPS_PROXY: "http://s:1" }), "https://a.test/")).toBe(
			"http://s:1 (HTTPS_PROXY)",
		);
		expect(route(proxySettings(undefined, undefined, { ...all, HTTP_PROXY: "http://p:1" }), "http://a.test/")).toBe(
			"http://p:1 (HTTP_PROXY)",
		);
		expect(route(proxySettings("none", undefined, all), "https://a.test/")).toEqual({
			via: "direct",
			reason: 'proxy: "none"',
		});
		const socks = proxySettings(undefined, undefined, { ALL_PROXY: "socks5://127.0.0.1:1080" });
		expect(proxyFor("https://a.test/", socks)).toEqual({ via: "direct" });
	});

	it.each([
		["api.exa.ai", 443, "exa.ai", true],
		["exa.ai", 443, ".exa.ai", true],
		["exa.ai", 443, "*.exa.ai", false],
		["api.exa.ai", 443, "*.exa.ai", true],
		["notexa.ai", 443, "exa.ai", false],
		["127.0.0.1", 8080, "127.0.0.1:9090", false],
		["127.0.0.1", 9090, "localhost, 127.0.0.1:9090", true],
		["[::1]", 80, "[::1]:80", true],
		["anything.test", 1, "*", true],
		["EXA.AI.", 443, "exa.ai", true],
	])("NO_PROXY: %s:%i with %j bypasses: %s", (host, port, noProxy, expected) => {
		expect(bypassesProxy(host, port, noProxy)).toBe(expected);
	});

	it("says NO_PROXY when it bypasses, and refuses an unusable proxy URL instead of connecting directly", () => {
		const settings = proxySettings(undefined, undefined, { HTTPS_PROXY: "http://p:1", NO_PROXY: "a.test" });
		expect(proxyFor("https://x.a.test/", settings)).toEqual({ via: "direct", reason: "NO_PROXY" });
		const broken = proxySettings(undefined, undefined, { HTTPS_PROXY: "socks5://p:1080" });
		expect(proxyFor("https://a.test/", broken)).toMatchObject({ via: "invalid", source: "HTTPS_PROXY" });
	});

	it("masks the user name and password of a proxy URL", () => {
		expect(maskProxyUrl("http://alice:s3cret-pw@10.0.0.1:8080/")).toBe("http://***@10.0.0.1:8080");
		expect(maskProxyUrl("https://proxy.corp:3128")).toBe("https://proxy.corp:3128");
		expect(maskProxyUrl("not a url s3cret")).toBe("(not a URL)");
	});
});

describe("send through a real proxy", () => {
	let backend: FakeServer;
	let proxy: ProxyServer;
	beforeAll(async () => {
		[backend, proxy] = await Promise.all([startFakeServer(), startProxy()]);
	});
	afterAll(async () => Promise.all([backend.close(), proxy.close()]));
	beforeEach(() => {
		backend.reset();
		proxy.clear();
		proxy.requireAuth = undefined;
	});

	const options = (settings: ProxySettings) => ({
		provider: "exa",
		signal: new AbortController().signal,
		proxy: settings,
	});
	const get = () => ({ method: "GET" as const, url: `${backend.url}/search?q=1`, headers: {} });

	it("forwards the request through the configured proxy", async () => {
		backend.respond({ json: { ok: true } });
		const res = await send(get(), options(proxySettings(undefined, proxy.url, {})));
		expect(res.status).toBe(200);
		expect(proxy.seen).toEqual([{ method: "GET", target: `${backend.url}/search?q=1` }]);
		expect(backend.requests).toHaveLength(1);
	});

	it("goes around the proxy for a NO_PROXY host", async () => {
		backend.respond({ json: { ok: true } });
		const settings = proxySettings(undefined, undefined, { HTTP_PROXY: proxy.url, NO_PROXY: "localhost,127.0.0.1" });
		await send(get(), options(settings));
		expect(proxy.seen).toHaveLength(0);
		expect(backend.requests).toHaveLength(1);
	});

	it("sends the URL's credentials to the proxy only, and never puts them into a message", async () => {
		const password = "pr0xy-Pa55-word";
		proxy.requireAuth = `Basic ${Buffer.from(`alice:${password}`).toString("base64")}`;
		backend.respond({ json: { ok: true } });
		const withAuth = proxy.url.replace("http://", `http://alice:${password}@`);
		await send(get(), options(proxySettings(withAuth, undefined, {}, "exa")));
		expect(proxy.seen[0]?.auth).toBe(proxy.requireAuth);
		expect(backend.requests[0]?.headers["proxy-authorization"]).toBeUndefined();

		const wrong = proxy.url.replace("http://", "http://alice:wrong-Pa55@");
		const error = (await send(get(), options(proxySettings(wrong, undefined, {}, "exa"))).catch(
			(e) => e,
		)) as WebAccessError;
		expect(error).toBeInstanceOf(WebAccessError);
		expect(error).toMatchObject({ kind: "transport", code: "proxy-auth" });
		expect(error.message).toBe(
			`connection failed (the proxy wants credentials (407): check user:password@ in the proxy URL) to ${backend.url}/search via proxy http://***@127.0.0.1:${proxy.port} (providers.exa.proxy)`,
		);
		expect(backend.requests).toHaveLength(1);
	});

	it("fails a request to a dead proxy as a transport failure naming the proxy, not the backend", async () => {
		const port = await deadPort();
		const settings = proxySettings(undefined, undefined, { HTTP_PROXY: `http://bob:hunter22@127.0.0.1:${port}` });
		const error = await send(get(), options(settings)).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(WebAccessError);
		const failure = error as WebAccessError;
		expect(failure.kind).toBe("transport");
		expect(failure.message).toBe(
			`connection failed (ECONNREFUSED) to ${backend.url}/search via proxy http://***@127.0.0.1:${port} (HTTP_PROXY)`,
		);
		expect(failure.message).not.toContain("hunter22");
		expect(backend.requests).toHaveLength(0);
	});

	it("refuses an unusable proxy URL from the environment without sending anything", async () => {
		const settings = proxySettings(undefined, undefined, { HTTP_PROXY: "socks5://127.0.0.1:1080" });
		const error = (await send(get(), options(settings)).catch((e: unknown) => e)) as WebAccessError;
		expect(error.code).toBe("invalid-proxy");
		expect(error.message).toBe(
			"the proxy in HTTP_PROXY cannot be used: scheme socks5: is not supported (http: or https:)",
		);
		expect(backend.requests).toHaveLength(0);
	});
});

describe("proxy in the config", () => {
	it("keeps a top-level and a per-provider proxy, and reports an unusable one where it is", () => {
		const text = [
			"{",
			'  proxy: "http://user:pw@10.0.0.1:3128",',
			"  providers: {",
			'    exa: { type: "exa", proxy: "none" },',
			'    brave: { type: "brave", proxy: "http://[bad" },',
			'    tavily: { type: "tavily", proxy: "socks5://127.0.0.1:1080" },',
			"  },",
			"}",
		].join("\n");
		const loaded = loadConfigText(text, "/cfg.json5");
		expect(loaded.config.proxy).toBe("http://user:pw@10.0.0.1:3128");
		const byName = new Map(loaded.config.providers.map((p) => [p.name, p]));
		expect(byName.get("exa")?.proxy).toBe("none");
		expect(byName.get("brave")?.proxy).toBeUndefined();
		expect(byName.get("tavily")?.proxy).toBeUndefined();
		expect(byName.get("exa")?.options).toEqual({});
		const located = loaded.diagnostics.map((d) => `${d.line}:${d.col} ${d.path} ${d.message}`);
		expect(located).toEqual([
			expect.stringMatching(/^5:\d+ \/providers\/brave\/proxy proxy: not a URL/),
			expect.stringMatching(/^6:\d+ \/providers\/tavily\/proxy .*pattern/),
		]);
	});
});
