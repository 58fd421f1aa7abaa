// Which proxy a request goes through: the provider's own `proxy`, else the top-level `proxy`, else the environment
// (https_proxy / HTTPS_PROXY for https, http_proxy / HTTP_PROXY for http and as the https fallback, lower-case first,
// as undici's EnvHttpProxyAgent and so pi read them; then all_proxy / ALL_PROXY, as curl reads it), with NO_PROXY
// bypassing hosts. No undici here: the HTTP
// client, the direct fetcher and status all ask this one function, so what status shows is what a request does.

import type { ProxyChoice, ProxySettings } from "../contract.ts";

/** Schemes a proxy URL may have (undici's ProxyAgent speaks HTTP and HTTPS to the proxy). */
export const PROXY_SCHEMES: ReadonlySet<string> = new Set(["http:", "https:"]);

/** Where a request to one target goes. */
export type ProxyRoute =
	| { via: "proxy"; proxy: ProxyChoice }
	/** `reason`: why no proxy although one is configured (`NO_PROXY`, `providers.x.proxy: "none"`). */
	| { via: "direct"; reason?: string }
	/** A proxy is configured but its URL cannot be used; nothing is sent. */
	| { via: "invalid"; source: string; problem: string };

type Env = Record<string, string | undefined>;

function fromEnv(env: Env, names: string[]): { value: string; source: string } | undefined {
	for (const name of names) {
		const value = env[name]?.trim();
		if (value) return { value, source: name };
	}
	return undefined;
}

/**
 * ALL_PROXY, when it names an HTTP or HTTPS proxy. It is often a SOCKS proxy (curl speaks SOCKS, undici does not):
 * one of those is not used, so a variable set for other tools does not break requests that work without it.
 */
function allProxy(env: Env): { value: string; source: string } | undefined {
	const all = fromEnv(env, ["all_proxy", "ALL_PROXY"]);
	if (all === undefined) return undefined;
	try {
		return PROXY_SCHEMES.has(new URL(all.value).protocol) ? all : undefined;
	} catch {
		return all; // not a URL: reported as an unusable proxy, as any other variable's would be
	}
}

/**
 * The settings in effect for one provider. `own` is its `proxy`, `top` the top-level one; either is `"none"`
 * (no proxy, whatever the environment says) or a URL (for http and https targets). NO_PROXY applies to both.
 */
export function proxySettings(
	own: string | undefined,
	top: string | undefined,
	env: Env,
	name?: string,
): ProxySettings {
	const noProxy = fromEnv(env, ["no_proxy", "NO_PROXY"]);
	const base: ProxySettings = noProxy ? { noProxy } : {};
	const configured =
		own !== undefined
			? { value: own, source: name ? `providers.${name}.proxy` : "proxy" }
			: top !== undefined
				? { value: top, source: "proxy" }
				: undefined;
	if (configured) {
		if (configured.value === "none") return { off: `${configured.source}: "none"` };
		const choice = { url: configured.value, source: configured.source };
		return { ...base, http: choice, https: choice };
	}
	const all = allProxy(env);
	const http = fromEnv(env, ["http_proxy", "HTTP_PROXY"]) ?? all;
	const https = fromEnv(env, ["https_proxy", "HTTPS_PROXY"]) ?? http;
	return {
		...base,
		...(http ? { http: { url: http.value, source: http.source } } : {}),
		...(https ? { https: { url: https.value, source: https.source } } : {}),
	};
}

const DEFAULT_PORTS: Record<string, number> = { "http:": 80, "https:": 443 };

const DIRECT: ProxyRoute = Object.freeze({ via: "direct" });

interface NoProxyEntry {
	host: string;
	port: number;
	/** `*.example.com`: subdomains only. */
	subdomainsOnly: boolean;
}

/** NO_PROXY entries as undici parses them: comma or space separated, `*` for all, `host:port`, `[v6]:port`. */
function parseNoProxy(value: string): NoProxyEntry[] {
	const entries: NoProxyEntry[] = [];
	for (const raw of value.split(/[,\s]+/)) {
		if (!raw) continue;
		const bracketed = raw.match(/^\[(.+)\]:(\d+)$/);
		let host = raw;
		let port = 0;
		if (bracketed) {
			host = bracketed[1]!;
			port = Number(bracketed[2]);
		} else {
			const bare = raw.replace(/^\[(.+)\]$/, "$1");
			const withPort = (bare.match(/:/g) ?? []).length === 1 ? bare.match(/^(.+):(\d+)$/) : null;
			host = withPort ? withPort[1]! : bare;
			port = withPort ? Number(withPort[2]) : 0;
		}
		const subdomainsOnly = raw.startsWith("*.");
		entries.push({
			host: host
				.replace(/^\*?\./, "")
				.replace(/\.$/, "")
				.toLowerCase(),
			port,
			subdomainsOnly,
		});
	}
	return entries;
}

/** Parsed NO_PROXY values (a process has one or two): parsed once, not for every request. */
const parsedNoProxy = new Map<string, NoProxyEntry[]>();

function noProxyEntries(value: string): NoProxyEntry[] {
	let entries = parsedNoProxy.get(value);
	if (entries === undefined) {
		entries = parseNoProxy(value);
		if (parsedNoProxy.size >= 16) parsedNoProxy.clear();
		parsedNoProxy.set(value, entries);
	}
	return entries;
}

/** Whether NO_PROXY sends this host:port around the proxy. */
export function bypassesProxy(hostname: string, port: number, noProxy: string): boolean {
	const host = hostname
		.replace(/^\[(.+)\]$/, "$1")
		.replace(/(.)\.$/, "$1")
		.toLowerCase();
	for (const entry of noProxyEntries(noProxy)) {
		if (entry.port !== 0 && entry.port !== port) continue;
		if (entry.host === "*") return true;
		if (!entry.subdomainsOnly && host === entry.host) return true;
		if (host.endsWith(`.${entry.host}`)) return true;
	}
	return false;
}

/** The route for one target URL under `settings` (absent: no proxy at all). */
export function proxyFor(target: URL | string, settings: ProxySettings | undefined): ProxyRoute {
	if (settings === undefined) return DIRECT; // the common case: no URL to parse
	// No proxy for either scheme (no config, no environment): the same answer for every URL, so none is parsed.
	if (settings.http === undefined && settings.https === undefined) {
		return settings.off === undefined ? DIRECT : { via: "direct", reason: settings.off };
	}
	let url: URL;
	try {
		url = typeof target === "string" ? new URL(target) : target;
	} catch {
		return { via: "direct" }; // the request itself fails on its invalid URL, with the client's own error
	}
	return proxyForHost(url.protocol, url.hostname, Number(url.port) || DEFAULT_PORTS[url.protocol] || 0, settings);
}

/** The same decision for a connection (`https:`, host name or bare IP, port). */
export function proxyForHost(
	protocol: string,
	hostname: string,
	port: number,
	settings: ProxySettings | undefined,
): ProxyRoute {
	if (settings === undefined) return { via: "direct" };
	if (settings.off !== undefined) return { via: "direct", reason: settings.off };
	const choice = protocol === "https:" ? settings.https : protocol === "http:" ? settings.http : undefined;
	if (choice === undefined) return { via: "direct" };
	if (settings.noProxy && bypassesProxy(hostname, port, settings.noProxy.value)) {
		return { via: "direct", reason: settings.noProxy.source };
	}
	const problem = proxyUrlProblem(choice.url);
	if (problem !== undefined) return { via: "invalid", source: choice.source, problem };
	return { via: "proxy", proxy: choice };
}

/** Why a proxy URL cannot be used, or undefined when it can. */
export function proxyUrlProblem(text: string): string | undefined {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return "not a URL (expected http://host:port)";
	}
	if (!PROXY_SCHEMES.has(url.protocol)) return `scheme ${url.protocol} is not supported (http: or https:)`;
	if (url.hostname === "") return "no host";
	try {
		decodeURIComponent(url.username);
		decodeURIComponent(url.password);
	} catch {
		// The credentials are never quoted: a password is a secret.
		return "its user name or password has a % that is not followed by two hex digits (write a literal % as %25)";
	}
	return undefined;
}

/** A proxy URL for display: scheme, host and port; user name and password become `***`. */
export function maskProxyUrl(text: string): string {
	try {
		const url = new URL(text);
		const userinfo = url.username || url.password ? "***@" : "";
		return `${url.protocol}//${userinfo}${url.host}`;
	} catch {
		return "(not a URL)";
	}
}

/** `http://***@10.0.0.1:8080 (HTTPS_PROXY)`, for messages and status. */
export function describeProxy(choice: ProxyChoice): string {
	return `${maskProxyUrl(choice.url)} (${choice.source})`;
}
