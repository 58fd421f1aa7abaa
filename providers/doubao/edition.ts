// What both Doubao (Volcengine) search editions share: the error envelope and its per-code key policy
// (docs/providers/doubao.md) and the definition factory the two ~30-line edition files (doubao.ts = Custom,
// doubao-global.ts = Global) are built with. Their keys from the environment: facts.ts.

import type { ErrorClass, KeyVerdict } from "../../engine/error-classes.ts";
import { isWebAccessError, WebAccessError } from "../../engine/errors.ts";
import { redactSecrets } from "../../engine/redact.ts";
import type { SearchRequest } from "../../engine/request-types.ts";
import type {
	CallContext,
	Classification,
	HttpRequestSpec,
	NativeFilters,
	ProviderDefinition,
	ProviderSearchResult,
} from "../contract.ts";
import { bearer, httpCall, jsonOrThrow, requestHeaders, resolveBaseUrl } from "../http/call.ts";
import { classifyError } from "../http/classify.ts";
import { asNumber, asRecord, asString } from "../http/json.ts";
import type { HttpResponse } from "../http/response.ts";
import { definitionFacts, type ProviderFacts } from "../type-facts.ts";
import { DOUBAO_COMMON } from "./facts.ts";

export const DOUBAO_DEFAULTS = {
	...DOUBAO_COMMON.defaults,
	/** The API truncates longer queries (and some clients report 10400), so we cut them ourselves and warn. */
	maxQueryChars: 100,
} as const;

// ---------------------------------------------------------------------------------------------
// Error codes (docs/providers/doubao.md, "Errors") and the response envelope
// ---------------------------------------------------------------------------------------------

interface CodePolicy {
	kind: ErrorClass;
	keyVerdict: KeyVerdict;
	/** Short English name for the reason line. */
	what: string;
}

/** Params/search-type/feature errors are fatal (another key cannot help); account and quota errors exhaust the key. */
const CODE_POLICY: Record<number, CodePolicy> = {
	10400: { kind: "bad-request", keyVerdict: "fatal", what: "bad parameters" },
	10401: { kind: "auth", keyVerdict: "exhausted", what: "invalid gateway token" },
	10402: { kind: "bad-request", keyVerdict: "fatal", what: "invalid search type" },
	10403: { kind: "auth", keyVerdict: "exhausted", what: "no permission or service not enabled" },
	10406: { kind: "quota", keyVerdict: "exhausted", what: "free quota exhausted" },
	10408: { kind: "bad-request", keyVerdict: "fatal", what: "feature unavailable for this account" },
	10409: { kind: "auth", keyVerdict: "exhausted", what: "key's billing mode cannot call this edition" },
	10410: { kind: "quota", keyVerdict: "exhausted", what: "no active subscription package" },
	10412: { kind: "quota", keyVerdict: "exhausted", what: "subscription quota exhausted" },
	10500: { kind: "server", keyVerdict: "retry-same-key", what: "internal error" },
	10501: { kind: "server", keyVerdict: "retry-same-key", what: "free-quota service failure" },
	700429: { kind: "rate-limit", keyVerdict: "rate-limited", what: "QPS limit exceeded" },
	700901: { kind: "auth", keyVerdict: "exhausted", what: "invalid API key" },
};

/** The error for a Doubao `CodeN`; unknown codes count as a server failure with no verdict on the key. */
export function doubaoCodeError(
	codeN: number | undefined,
	message: string,
	provider: string,
	status: number,
): WebAccessError {
	const policy = codeN === undefined ? undefined : CODE_POLICY[codeN];
	const what = policy?.what ?? "error";
	const detail = message.trim() === "" ? "" : `: ${message.replace(/\s+/g, " ").trim().slice(0, 200)}`;
	return new WebAccessError(`doubao ${codeN ?? "(no code)"} (${what})${detail}`, {
		kind: policy?.kind ?? "server",
		code: `doubao-${codeN ?? "unknown"}`,
		provider,
		status,
		keyVerdict: policy?.keyVerdict,
	});
}

export type JsonObject = Record<string, unknown>;

/** A non-empty string, else undefined (Doubao sends "" for absent text fields). */
export function text(value: unknown): string | undefined {
	return asString(value) || undefined;
}

/**
 * The `Result` object of a Doubao response, or the error it carries: `ResponseMetadata.Error` (often with HTTP 200),
 * a non-zero `Result.ErrorCode` (Global), or a plain HTTP failure. The key is scrubbed from backend messages.
 */
export function readDoubaoResult(res: HttpResponse, provider: string, secret?: string): JsonObject {
	const scrub = (message: string) => (secret ? redactSecrets(message, [secret]) : message);
	const json = jsonOrThrow(res, provider, (_res, body) => envelopeError(body, res.status, provider, scrub));
	const failure = envelopeError(json, res.status, provider, scrub);
	if (failure !== undefined) throw failure;
	const result = asRecord(asRecord(json)?.Result);
	if (result === undefined) {
		throw new WebAccessError(`${provider}: response has no Result (HTTP ${res.status})`, {
			kind: "parse",
			code: "doubao-no-result",
			provider,
			status: res.status,
		});
	}
	return result;
}

/** `ResponseMetadata.Error`, or a non-zero `Result.ErrorCode` (seen from Global), as an error; else undefined. */
function envelopeError(
	json: unknown,
	status: number,
	provider: string,
	scrub: (message: string) => string,
): WebAccessError | undefined {
	const envelope = asRecord(json);
	const error = asRecord(asRecord(envelope?.ResponseMetadata)?.Error);
	if (error !== undefined) {
		const code = asNumber(error.CodeN) ?? Number(asString(error.Code) ?? Number.NaN);
		return doubaoCodeError(
			Number.isFinite(code) ? code : undefined,
			scrub(text(error.Message) ?? ""),
			provider,
			status,
		);
	}
	const result = asRecord(envelope?.Result);
	const resultCode = asNumber(result?.ErrorCode);
	if (resultCode !== undefined && resultCode !== 0) {
		return doubaoCodeError(resultCode, scrub(text(result?.ErrorMsg) ?? ""), provider, status);
	}
	return undefined;
}

/**
 * Doubao errors carry their own class and key verdict. Timeouts are never retried on the same key because the
 * backend may already have billed the call; everything else gets the default HTTP mapping.
 */
export function classifyDoubao(error: unknown): Classification {
	if (isWebAccessError(error) && error.code.startsWith("doubao-")) {
		// doubaoCodeError only ever builds executor error classes, so the kind is an ErrorClass.
		const classification: Classification = { errorClass: error.kind as ErrorClass, reason: error.message };
		if (error.keyVerdict !== undefined) classification.keyVerdict = error.keyVerdict;
		return classification;
	}
	const base = classifyError(error);
	if (base.errorClass === "timeout" || base.errorClass === "cancelled") {
		const { keyVerdict: _dropped, ...rest } = base;
		return rest;
	}
	return base;
}

// ---------------------------------------------------------------------------------------------
// Definition factory
// ---------------------------------------------------------------------------------------------

/** The edition-specific pieces; the factory adds auth, the envelope and classification. */
export interface DoubaoEdition {
	type: "doubao" | "doubao-global";
	/** `/search_api/web_search` or `/search_api/global_search`. */
	path: string;
	/** The edition's facts (options, key order, defaults): providers/doubao/facts.ts, providers/doubao-global/facts.ts. */
	facts: ProviderFacts;
	native: NativeFilters;
	/** The JSON body for a search. */
	body(request: SearchRequest, call: CallContext): Record<string, unknown>;
	/** Results from the `Result` object (errors already thrown). */
	parse(result: JsonObject, request: SearchRequest, call: CallContext): ProviderSearchResult;
}

function doubaoRequest(edition: DoubaoEdition, request: SearchRequest, call: CallContext): HttpRequestSpec {
	return {
		method: "POST",
		url: `${resolveBaseUrl(call, DOUBAO_DEFAULTS.baseUrl)}${edition.path}`,
		headers: requestHeaders(call, { "content-type": "application/json", ...bearer(call) }),
		body: edition.body(request, call),
	};
}

function doubaoParse(
	edition: DoubaoEdition,
	res: HttpResponse,
	request: SearchRequest,
	call: CallContext,
): ProviderSearchResult {
	const result = readDoubaoResult(res, call.config.name, call.key?.secret);
	const parsed = edition.parse(result, request, call);
	if ([...request.query].length > DOUBAO_DEFAULTS.maxQueryChars) {
		parsed.warnings = [
			...(parsed.warnings ?? []),
			`${edition.type}: query cut to ${DOUBAO_DEFAULTS.maxQueryChars} characters (the API's limit)`,
		];
	}
	return parsed;
}

/** The query as sent: at most 100 characters (code points, so CJK text is not split mid-character). */
export function doubaoQuery(query: string): string {
	return [...query].slice(0, DOUBAO_DEFAULTS.maxQueryChars).join("");
}

/** An edition's definition, and its request builder and answer reader (exported by each edition for its tests). */
export function createDoubaoEdition(edition: DoubaoEdition): {
	definition: ProviderDefinition;
	buildSearchRequest: (request: SearchRequest, call: CallContext) => HttpRequestSpec;
	parseSearchResponse: (res: HttpResponse, request: SearchRequest, call: CallContext) => ProviderSearchResult;
} {
	const buildSearchRequest = (request: SearchRequest, call: CallContext) => doubaoRequest(edition, request, call);
	const parseSearchResponse = (res: HttpResponse, request: SearchRequest, call: CallContext) =>
		doubaoParse(edition, res, request, call);
	const definition: ProviderDefinition = {
		...definitionFacts(edition.facts),
		native: edition.native,
		search: httpCall(buildSearchRequest, parseSearchResponse),
		classify: classifyDoubao,
	};
	return { definition, buildSearchRequest, parseSearchResponse };
}
