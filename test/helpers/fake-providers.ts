// In-process fake provider definitions for executor tests (they stand in for backends): each answers through a
// handler the test writes, on the fake clock, and every call is recorded with the key label it used.

import type { Policy } from "../../engine/config-types.ts";
import type { ErrorClass, KeyVerdict } from "../../engine/error-classes.ts";
import { WebAccessError } from "../../engine/errors.ts";
import type { Plan, SearchRequest, Step, WebRequest } from "../../engine/request-types.ts";
import { createExecutor } from "../../executor/index.ts";
import type { ExecutorOptions, ProviderBinding } from "../../executor/types.ts";
import type {
	CallContext,
	CallKey,
	NativeFilters,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../../providers/contract.ts";
import type { FakeClock } from "./fake-clock.ts";

export type Answer = ProviderSearchResult | ProviderFetchResult;
export type Handler = (request: WebRequest, call: CallContext, n: number) => Promise<Answer> | Answer;

export interface RecordedCall {
	provider: string;
	key?: string;
	signal: AbortSignal;
	at: number;
}

export interface FakeOptions {
	keys?: CallKey[];
	resolveKeys?: () => Promise<CallKey[]>;
	keyOrder?: ProviderDefinition["keyOrder"];
	/** config.timeoutMs */
	timeoutMs?: number;
	/** definition.defaults.timeoutMs */
	defaultTimeoutMs?: number;
	native?: Partial<NativeFilters>;
	fetch?: boolean;
	search?: boolean;
	/** definition.perSite */
	perSite?: boolean;
}

export const ALL_NATIVE: NativeFilters = {
	hosts: true,
	paths: true,
	excludeHosts: true,
	excludePaths: true,
	recency: true,
	dateRange: true,
	maxResults: 50,
};

/** A failure as a provider would throw it. */
export function failure(
	kind: ErrorClass,
	extra: { keyVerdict?: KeyVerdict; retryAfterMs?: number; message?: string } = {},
) {
	return new WebAccessError(extra.message ?? `${kind} failure`, {
		kind,
		code: kind,
		keyVerdict: extra.keyVerdict,
		retryAfterMs: extra.retryAfterMs,
	});
}

/** `n` distinct results under https://<host>/<i>. */
export function results(n: number, host = "example.com"): ProviderSearchResult {
	return {
		results: Array.from({ length: n }, (_, i) => ({ title: `r${i}`, url: `https://${host}/${i}`, snippet: `s${i}` })),
	};
}

export function page(content: string): ProviderFetchResult {
	return { content, extraction: "verbatim" };
}

export function fakeDefinition(type: string, handler: Handler, options: FakeOptions = {}): ProviderDefinition {
	const definition: ProviderDefinition = {
		type,
		capabilities: { search: options.search !== false, fetch: options.fetch !== false },
		optionsSchema: {},
		defaults: options.defaultTimeoutMs === undefined ? {} : { timeoutMs: options.defaultTimeoutMs },
		needsKey: options.keys !== undefined || options.resolveKeys !== undefined,
		keyOrder: options.keyOrder,
		native: { ...ALL_NATIVE, ...options.native },
		...(options.perSite ? { perSite: true } : {}),
		classify(error) {
			if (error instanceof WebAccessError) {
				const kind = error.kind as ErrorClass;
				return {
					errorClass: kind,
					keyVerdict: error.keyVerdict,
					retryAfterMs: error.retryAfterMs,
					reason: error.message,
					code: error.code,
				};
			}
			return { errorClass: "transport", reason: "unexpected failure" };
		},
	};
	let n = 0;
	const run = async (request: WebRequest, call: CallContext) => handler(request, call, n++);
	if (options.search !== false) {
		definition.search = (request: SearchRequest, call: CallContext) =>
			run(request, call) as Promise<ProviderSearchResult>;
	}
	if (options.fetch !== false) {
		definition.fetch = (request, call) => run(request, call) as Promise<ProviderFetchResult>;
	}
	return definition;
}

/** A world of fake providers on one fake clock, and executors over it. */
export function createWorld(clock: FakeClock) {
	const bindings = new Map<string, ProviderBinding>();
	const calls: RecordedCall[] = [];
	return {
		calls,
		bindings,
		/** Adds provider `name`; every call is recorded before the handler runs. */
		add(name: string, handler: Handler, options: FakeOptions = {}) {
			const recorded: Handler = (request, call, n) => {
				calls.push({ provider: name, key: call.key?.label, signal: call.signal, at: clock.now() });
				return handler(request, call, n);
			};
			const definition = fakeDefinition(name, recorded, options);
			bindings.set(name, {
				config: {
					name,
					type: name,
					options: {},
					...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
				},
				definition,
				resolveKeys: options.resolveKeys ?? (async () => options.keys ?? []),
			});
		},
		executor(extra: Partial<ExecutorOptions> = {}) {
			return createExecutor({ bindings, now: clock.now, sleep: clock.sleep, ...extra });
		},
		callsOf(name: string) {
			return calls.filter((call) => call.provider === name);
		},
	};
}

/** Ready steps by name; `"-name:reason"` makes a skipped step. */
export function steps(names: string[]): Step[] {
	return names.map((entry) => {
		if (!entry.startsWith("-")) return { provider: entry, type: entry, status: "ready" };
		const [provider = "", reason] = entry.slice(1).split(":");
		return { provider, type: provider, status: "skipped", reason };
	});
}

export function searchPlan(names: string[], policy: Policy = {}, request: Partial<SearchRequest> = {}): Plan {
	const chain = steps(names);
	return {
		capability: "search",
		request: {
			kind: "search",
			query: "golang generics",
			domains: [],
			excludeDomains: [],
			maxResults: 5,
			includeContent: false,
			...request,
		},
		source: "default",
		rule: null,
		chain: chain.map((step) => step.provider),
		steps: chain,
		policy,
		warnings: [],
	};
}

export function fetchPlan(
	names: string[],
	policy: Policy = {},
	request: { offset?: number; maxChars?: number } = {},
): Plan {
	const chain = steps(names);
	return {
		capability: "fetch",
		request: { kind: "fetch", url: "https://example.com/page", offset: 0, maxChars: 20_000, ...request },
		source: "default",
		rule: null,
		chain: chain.map((step) => step.provider),
		steps: chain,
		policy,
		warnings: [],
	};
}

/** Resolves after `ms` of fake time, or rejects with the call's abort reason. */
export async function answerAfter<T>(clock: FakeClock, call: CallContext, ms: number, value: T): Promise<T> {
	await clock.sleep(ms, call.signal);
	return value;
}

/** Never settles and ignores its signal (a provider that hangs). */
export function hang(): Promise<never> {
	return new Promise<never>(() => {});
}

export function keys(...labels: Array<string | [string, "subscription" | "postpaid"]>): CallKey[] {
	return labels.map((entry) => {
		const [label, billing] = typeof entry === "string" ? [entry, undefined] : entry;
		const key: CallKey = { secret: `sk-secret-${label}-0123456789abcdef`, label };
		if (billing !== undefined) key.billing = billing;
		return key;
	});
}
