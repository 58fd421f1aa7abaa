// The provider conformance suite every adapter's test calls: each case runs the real search/fetch against a fake
// backend on 127.0.0.1, asserts the request sent, the parsed result or the classified failure, and that the key
// never leaks. Generic cases (HTML pages, truncated JSON, Retry-After, reset, cancel) are added for every type.

import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ProviderConfig } from "../../engine/config-types.ts";
import type { ErrorClass, KeyVerdict } from "../../engine/error-classes.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type {
	CallContext,
	CallKey,
	CurrentModel,
	PiProviderAuth,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../../providers/contract.ts";
import { type FakeResponse, type FakeServer, type RecordedRequest, startFakeServer } from "../helpers/fake-server.ts";

export type { FakeResponse } from "../helpers/fake-server.ts";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const fixtureRoot = path.resolve(repoRoot, "test", "fixtures", "providers");

/** Text of `test/fixtures/providers/<relativePath>` (formats: docs/providers/). */
export function fixture(relativePath: string): string {
	return readFileSync(path.join(fixtureRoot, relativePath), "utf8");
}

/** Parsed JSON fixture. */
export function fixtureJson(relativePath: string): unknown {
	return JSON.parse(fixture(relativePath));
}

/** What the fake server must have received. Header names are lower-case; `undefined` means "absent". */
export interface ExpectedRequest {
	method?: "GET" | "POST";
	/** Exact path including the query string. */
	path?: string;
	/** Path without the query string. */
	pathname?: string;
	/** The exact set of query parameters. */
	query?: Record<string, string>;
	headers?: Record<string, string | RegExp | undefined>;
	/** JSON body, deep-equal. */
	body?: unknown;
	/** JSON body, partial match (toMatchObject). */
	bodyIncludes?: Record<string, unknown>;
}

export type ContractExpectation =
	| { result: (r: ProviderSearchResult | ProviderFetchResult) => void }
	| { errorClass: ErrorClass; keyVerdict?: KeyVerdict; retryAfterMs?: number; reasonIncludes?: string };

export interface ContractCase {
	name: string;
	capability: "search" | "fetch";
	request: SearchRequest | FetchRequest;
	/** Merged over `{ name: type, type, options: {} }`; baseUrl is the fake server unless the case names it (even as
	 * undefined). Any string here or in piAuth may contain `{server}`, replaced by the fake server's URL. */
	config?: Partial<ProviderConfig>;
	/** Default: a synthetic key for types that need one. */
	key?: CallKey;
	piAuth?: PiProviderAuth;
	currentModel?: CurrentModel;
	respond: FakeResponse | FakeResponse[];
	expectRequest?: ExpectedRequest | ExpectedRequest[];
	expect: ContractExpectation;
}

export interface ContractOptions {
	definition: ProviderDefinition;
	cases: ContractCase[];
	/** Add the generic failure cases per capability (default true). */
	generic?: boolean;
}

/** The synthetic key every case uses unless it gives its own; it must never show up in output. */
export const CONTRACT_KEY: CallKey = { secret: "ctk-SECRET-7f3a9c2e51", label: "key1", billing: "postpaid" };

function fill<T>(value: T, server: string): T {
	if (typeof value === "string") return value.replaceAll("{server}", server) as T;
	if (Array.isArray(value)) return value.map((item) => fill(item, server)) as T;
	if (typeof value === "object" && value !== null) {
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, server)])) as T;
	}
	return value;
}

function list<T>(value: T | T[] | undefined): T[] {
	return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function assertRequest(received: RecordedRequest | undefined, expected: ExpectedRequest, index: number): void {
	expect(received, `request #${index + 1} was not sent`).toBeDefined();
	const got = received!;
	const url = new URL(got.path, "http://fake");
	if (expected.method) expect(got.method, "method").toBe(expected.method);
	if (expected.path !== undefined) expect(got.path, "path").toBe(expected.path);
	if (expected.pathname !== undefined) expect(decodeURIComponent(url.pathname), "pathname").toBe(expected.pathname);
	if (expected.query) expect(Object.fromEntries(url.searchParams), "query").toEqual(expected.query);
	for (const [name, value] of Object.entries(expected.headers ?? {})) {
		const actual = got.headers[name.toLowerCase()];
		if (value === undefined) expect(actual, `header ${name} must be absent`).toBeUndefined();
		else if (value instanceof RegExp) expect(actual, `header ${name}`).toMatch(value);
		else expect(actual, `header ${name}`).toBe(value);
	}
	if (expected.body !== undefined) expect(JSON.parse(got.body), "body").toEqual(expected.body);
	if (expected.bodyIncludes !== undefined) expect(JSON.parse(got.body), "body").toMatchObject(expected.bodyIncludes);
}

function genericCases(definition: ProviderDefinition, cases: ContractCase[]): ContractCase[] {
	const out: ContractCase[] = [];
	for (const capability of ["search", "fetch"] as const) {
		const sample = cases.find((c) => c.capability === capability);
		if (!sample || !definition.capabilities[capability]) continue;
		const base = { capability, request: sample.request, config: sample.config, piAuth: sample.piAuth };
		const html = "<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>502</h1></body></html>";
		out.push(
			{
				...base,
				name: `${capability}: an HTML 502 page is a server error`,
				respond: { status: 502, body: html, headers: { "content-type": "text/html" } },
				expect: { errorClass: "server" },
			},
			{
				...base,
				name: `${capability}: an HTML page with status 200 is a parse error`,
				respond: { status: 200, body: html, headers: { "content-type": "text/html" } },
				expect: { errorClass: "parse" },
			},
			{
				...base,
				name: `${capability}: a truncated JSON body is a parse error`,
				respond: { status: 200, body: '{"results": [{"title": "Cut', headers: { "content-type": "application/json" } },
				expect: { errorClass: "parse" },
			},
			{
				...base,
				name: `${capability}: 429 with Retry-After is rate-limit with the delay`,
				respond: { status: 429, json: { error: "Too many requests" }, headers: { "retry-after": "7" } },
				expect: { errorClass: "rate-limit", keyVerdict: "rate-limited", retryAfterMs: 7000 },
			},
			{
				...base,
				name: `${capability}: a 503 is a server error`,
				respond: { status: 503, json: { error: { message: "Service temporarily unavailable" } } },
				expect: { errorClass: "server" },
			},
			{
				...base,
				name: `${capability}: a connection reset before the answer is a transport error`,
				respond: { resetBeforeHeaders: true },
				expect: { errorClass: "transport" },
			},
		);
	}
	return out;
}

function contextFor(definition: ProviderDefinition, c: ContractCase, server: FakeServer, signal: AbortSignal) {
	const filled = fill(c.config ?? {}, server.url);
	const config: ProviderConfig = {
		name: definition.type,
		type: definition.type,
		...filled,
		// A case that names baseUrl (even as undefined) gets exactly that, so pi's baseUrl can be tested.
		baseUrl: c.config && "baseUrl" in c.config ? filled.baseUrl : server.url,
		options: filled.options ?? {},
	};
	const progress: string[] = [];
	const key = c.key ?? (definition.needsKey ? CONTRACT_KEY : undefined);
	const call: CallContext = {
		config,
		key,
		piAuth: c.piAuth && fill(c.piAuth, server.url),
		currentModel: c.currentModel,
		signal,
		timeoutMs: config.timeoutMs ?? definition.defaults.timeoutMs ?? 30_000,
		onProgress: (line) => progress.push(line),
	};
	return { call, progress };
}

async function runCase(definition: ProviderDefinition, c: ContractCase, server: FakeServer, signal: AbortSignal) {
	server.respond(...list(c.respond));
	const { call, progress } = contextFor(definition, c, server, signal);
	const secret = call.key?.secret;
	const noSecret = (text: string, what: string) => {
		if (secret) expect(text.includes(secret), `the key leaked into ${what}`).toBe(false);
	};
	let result: ProviderSearchResult | ProviderFetchResult | undefined;
	let failure: unknown;
	try {
		if (c.capability === "search") result = await definition.search!(c.request as SearchRequest, call);
		else result = await definition.fetch!(c.request as FetchRequest, call);
	} catch (error) {
		failure = error;
	}
	for (const line of progress) noSecret(line, "a progress line");
	const expectedRequests = list(c.expectRequest);
	for (const [index, expected] of expectedRequests.entries()) assertRequest(server.requests[index], expected, index);
	if (Array.isArray(c.expectRequest))
		expect(server.requests.length, "number of requests").toBe(expectedRequests.length);
	if ("result" in c.expect) {
		if (failure !== undefined) throw failure;
		noSecret(JSON.stringify(result), "the result");
		c.expect.result(result!);
		return;
	}
	expect(failure, "expected the call to fail").toBeDefined();
	const classification = definition.classify(failure);
	noSecret(failure instanceof Error ? failure.message : String(failure), "the error message");
	noSecret(classification.reason, "the reason");
	expect(classification.reason.includes("\n"), "reason is one line").toBe(false);
	expect(classification.errorClass, classification.reason).toBe(c.expect.errorClass);
	if (c.expect.keyVerdict !== undefined) expect(classification.keyVerdict).toBe(c.expect.keyVerdict);
	if (c.expect.retryAfterMs !== undefined) expect(classification.retryAfterMs).toBe(c.expect.retryAfterMs);
	if (c.expect.reasonIncludes !== undefined) expect(classification.reason).toContain(c.expect.reasonIncludes);
}

/** Registers the suite (describe/it); one fake server per file. */
export function runProviderContract(options: ContractOptions): void {
	const { definition, cases } = options;
	describe(`provider contract: ${definition.type}`, () => {
		let server: FakeServer;
		beforeAll(async () => {
			server = await startFakeServer();
		});
		afterAll(() => server.close());
		beforeEach(() => server.reset());

		it("has a well-formed definition", () => {
			expect(definition.type).toMatch(/^[a-z][a-z0-9-]*$/);
			expect(typeof definition.search === "function").toBe(definition.capabilities.search);
			expect(typeof definition.fetch === "function").toBe(definition.capabilities.fetch);
			for (const [name, schema] of Object.entries(definition.optionsSchema)) {
				expect(typeof schema.description, `option ${name} needs a description`).toBe("string");
			}
			expect(Number.isInteger(definition.native.maxResults) && definition.native.maxResults > 0).toBe(true);
			expect(definition.classify(new Error("boom")).errorClass).toBeTypeOf("string");
		});

		for (const c of [...cases, ...(options.generic === false ? [] : genericCases(definition, cases))]) {
			it(c.name, () => runCase(definition, c, server, new AbortController().signal));
		}

		for (const capability of ["search", "fetch"] as const) {
			const sample = cases.find((c) => c.capability === capability);
			if (!sample || !definition.capabilities[capability] || options.generic === false) continue;
			it(`${capability}: a call cancelled while waiting for the answer is classified cancelled`, async () => {
				const controller = new AbortController();
				const watcher = setInterval(() => {
					if (server.requests.length > 0) controller.abort();
				}, 5);
				try {
					const c: ContractCase = {
						...sample,
						respond: { hang: true, headers: { "content-type": "application/json" } },
						expectRequest: undefined,
						expect: { errorClass: "cancelled" },
					};
					await runCase(definition, c, server, controller.signal);
				} finally {
					clearInterval(watcher);
				}
			});
		}
	});
}
