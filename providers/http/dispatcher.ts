// Where a request goes: the process-wide keep-alive Agent, or one ProxyAgent per proxy URL when the provider's
// proxy settings (providers/http/proxy.ts) say so. send.ts asks `route` once per request.

import { Agent, type Dispatcher, ProxyAgent } from "undici";
import { WebAccessError } from "../../engine/errors.ts";
import type { HttpRequestSpec, ProxyChoice, ProxySettings } from "../contract.ts";
import { proxyFor } from "./proxy.ts";

/** What routing needs of a send's options. */
export interface RouteOptions {
	/** Configured provider name, used in error data (never a key). */
	provider: string;
	/** Overrides the shared Agent and any proxy (tests). */
	dispatcher?: Dispatcher;
	/** The provider's proxies (CallContext.proxy); absent: connect directly. */
	proxy?: ProxySettings;
}

export const HTTP_DEFAULTS = {
	maxBytes: 10 * 1024 * 1024,
	connectTimeoutMs: 10_000,
	keepAliveTimeoutMs: 30_000,
	acceptEncoding: "gzip, deflate, br",
};

/** The route of every direct request: the process-wide keep-alive Agent, made on first use (importing opens nothing). */
let direct: { dispatcher: Dispatcher } | undefined;

function directRoute(): { dispatcher: Dispatcher } {
	direct ??= {
		dispatcher: new Agent({
			keepAliveTimeout: HTTP_DEFAULTS.keepAliveTimeoutMs,
			connect: { timeout: HTTP_DEFAULTS.connectTimeoutMs },
		}),
	};
	return direct;
}

/** One ProxyAgent per proxy URL: few (the config's and the environment's), and each keeps its connections alive. */
const proxyAgents = new Map<string, ProxyAgent>();

function proxyDispatcher(proxy: ProxyChoice): Dispatcher {
	let found = proxyAgents.get(proxy.url);
	if (found === undefined) {
		found = new ProxyAgent({
			uri: proxy.url,
			keepAliveTimeout: HTTP_DEFAULTS.keepAliveTimeoutMs,
			// ProxyAgent builds its connectors from these (its own `connect` replaces an Agent's): the connect
			// timeout to the proxy, and to the backend through the tunnel.
			proxyTls: { timeout: HTTP_DEFAULTS.connectTimeoutMs },
			requestTls: { timeout: HTTP_DEFAULTS.connectTimeoutMs },
		});
		proxyAgents.set(proxy.url, found);
	}
	return found;
}

/** The dispatcher for one request, and the proxy it goes through (for error messages). */
export function route(spec: HttpRequestSpec, options: RouteOptions): { dispatcher: Dispatcher; proxy?: ProxyChoice } {
	if (options.dispatcher) return { dispatcher: options.dispatcher };
	const decided = proxyFor(spec.url, options.proxy);
	if (decided.via === "invalid") {
		throw new WebAccessError(`the proxy in ${decided.source} cannot be used: ${decided.problem}`, {
			kind: "transport",
			code: "invalid-proxy",
			provider: options.provider,
		});
	}
	if (decided.via === "direct") return directRoute();
	return { dispatcher: proxyDispatcher(decided.proxy), proxy: decided.proxy };
}
