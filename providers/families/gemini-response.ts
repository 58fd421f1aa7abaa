// Reads Gemini `generateContent` answers: a `?alt=sse` stream (or a plain JSON body) folded into one response, Google's
// error envelope mapped to our classes (API_KEY_INVALID → auth, RetryInfo → retryAfterMs), and grounding chunks
// turned into results without following Google's grounding redirects. Pure apart from the parse errors it throws.

import type { ErrorClass } from "../../engine/error-classes.ts";
import { WebAccessError } from "../../engine/errors.ts";
import type { SearchResultItem } from "../../engine/result-types.ts";
import { DEFAULT_VERDICTS } from "../http/classify.ts";
import { asArray, asRecord, asString } from "../http/json.ts";
import { type HttpResponse, httpStatusError, statusKind } from "../http/response.ts";
import { eventJson, type SseEvent } from "../http/sse.ts";
import { ResultList } from "./citations.ts";

type Json = Record<string, unknown>;

/** One answer folded from all its chunks. */
export interface GeminiAnswer {
	/** The model's text (thought parts left out). */
	text: string;
	finishReason?: string;
	blockReason?: string;
	grounding?: Json;
	urlContext?: Json;
}

const REDIRECT_HOST = "vertexaisearch.cloud.google.com";

/** Folds a streamed answer event by event (a plain JSON answer arrives as one event); `finish` gives the answer. */
export interface GeminiAccumulator {
	/** Folds one chunk; throws for an error chunk or an event that is not a JSON object. */
	push(event: SseEvent): void;
	finish(): GeminiAnswer;
}

export function createGeminiAccumulator(provider: string): GeminiAccumulator {
	const answer: GeminiAnswer = { text: "" };
	return {
		push(event) {
			const chunk = eventJson(event, provider);
			if (chunk === undefined) {
				throw new WebAccessError("Gemini sent a chunk that is not a JSON object", {
					kind: "parse",
					code: "gemini-shape",
					provider,
				});
			}
			if (chunk.error !== undefined) throw geminiError(asRecord(chunk.error) ?? {}, provider, undefined);
			fold(answer, chunk);
		},
		finish: () => answer,
	};
}

function fold(answer: GeminiAnswer, chunk: Json): void {
	const blockReason = asString(asRecord(chunk.promptFeedback)?.blockReason);
	if (blockReason) answer.blockReason = blockReason;
	const candidate = asRecord(asArray(chunk.candidates)[0]);
	if (candidate === undefined) return;
	for (const part of asArray(asRecord(candidate.content)?.parts).map(asRecord)) {
		if (part?.thought === true) continue;
		answer.text += asString(part?.text) ?? "";
	}
	answer.finishReason = asString(candidate.finishReason) ?? answer.finishReason;
	const grounding = asRecord(candidate.groundingMetadata);
	// Streams usually repeat the metadata on the last chunk; keep the fullest one seen.
	if (grounding && (answer.grounding === undefined || asArray(grounding.groundingChunks).length > 0)) {
		answer.grounding = grounding;
	}
	answer.urlContext = asRecord(candidate.urlContextMetadata) ?? answer.urlContext;
}

/** A non-2xx answer: Google's envelope when present, else the default status mapping. */
export function geminiHttpError(res: HttpResponse, provider: string): WebAccessError {
	let envelope: Json | undefined;
	try {
		envelope = asRecord(asRecord(JSON.parse(res.text))?.error);
	} catch {
		envelope = undefined;
	}
	const base = httpStatusError(res, provider);
	if (envelope === undefined) return base;
	return geminiError(envelope, provider, base);
}

/** Google's `{code, message, status, details}`; `base` carries the HTTP status error (masked message, Retry-After). */
export function geminiError(error: Json, provider: string, base: WebAccessError | undefined): WebAccessError {
	const status = base?.status ?? (typeof error.code === "number" ? error.code : undefined);
	const details = asArray(error.details).map((detail) => asRecord(detail) ?? {});
	const reason = details.map((detail) => asString(detail.reason)).find((value) => value !== undefined);
	const rpcStatus = asString(error.status);
	let kind: ErrorClass = status === undefined ? "server" : statusKind(status).kind;
	if (reason === "API_KEY_INVALID" || rpcStatus === "PERMISSION_DENIED" || rpcStatus === "UNAUTHENTICATED")
		kind = "auth";
	let retryAfterMs = base?.retryAfterMs;
	if (status === 429 || rpcStatus === "RESOURCE_EXHAUSTED") {
		const perDay = details.some((detail) =>
			asArray(detail.violations).some((v) => /PerDay/i.test(asString(asRecord(v)?.quotaId) ?? "")),
		);
		kind = perDay ? "quota" : "rate-limit";
		retryAfterMs = retryDelayMs(details) ?? retryAfterMs;
	}
	const message = base?.message ?? `stream error ${status ?? ""} ${rpcStatus ?? ""}: ${asString(error.message) ?? ""}`;
	const code = reason ? `gemini-${reason.toLowerCase().replaceAll("_", "-")}` : (base?.code ?? "gemini-error");
	return new WebAccessError(message.replace(/\s+/g, " ").trim(), {
		kind,
		code,
		provider,
		status,
		url: base?.url,
		retryAfterMs,
		keyVerdict: DEFAULT_VERDICTS[kind],
	});
}

/** `RetryInfo.retryDelay` ("17s", "1.5s") in milliseconds. */
function retryDelayMs(details: Json[]): number | undefined {
	for (const detail of details) {
		const delay = /^(\d+(?:\.\d+)?)s$/.exec(asString(detail.retryDelay) ?? "");
		if (delay) return Math.round(Number(delay[1]) * 1000);
	}
	return undefined;
}

/** What grounding chunks became: results plus how many links only name a site. */
export interface GroundingResults {
	results: SearchResultItem[];
	/** Chunks whose redirect was replaced by the site's home page (the chunk names only the site). */
	siteOnly: number;
	/** Chunks left as Google redirect links (nothing said where they lead). */
	redirects: number;
	/** The redirect link of each result that came from one, by result URL. */
	redirectOf: Record<string, string>;
}

function isRedirect(uri: string): boolean {
	try {
		const url = new URL(uri);
		return url.hostname === REDIRECT_HOST && url.pathname.startsWith("/grounding-api-redirect/");
	} catch {
		return false;
	}
}

function isHttpUrl(text: string | undefined): text is string {
	return text !== undefined && /^https?:\/\/[^\s/]+/i.test(text);
}

function asHost(text: string | undefined): string | undefined {
	const host = text?.trim().toLowerCase();
	return host !== undefined && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : undefined;
}

/** Where a chunk leads: the URI itself, a URL title, or the site named by `domain` / a domain title. */
function target(uri: string, title: string | undefined, domain: string | undefined) {
	if (!isRedirect(uri)) return { url: uri, kind: "direct" as const };
	if (isHttpUrl(title)) return { url: title, kind: "resolved" as const };
	const host = asHost(domain) ?? asHost(title);
	if (host !== undefined) return { url: `https://${host}/`, kind: "site" as const };
	return { url: uri, kind: "redirect" as const };
}

/** Grounding chunks → results; each gets the answer segments that cite it as its snippet. */
export function groundingResults(grounding: Json | undefined): GroundingResults {
	const out: GroundingResults = { results: [], siteOnly: 0, redirects: 0, redirectOf: {} };
	if (grounding === undefined) return out;
	const supports = asArray(grounding.groundingSupports).map((support) => asRecord(support) ?? {});
	const list = new ResultList();
	asArray(grounding.groundingChunks).forEach((raw, index) => {
		const chunk = asRecord(raw);
		const web = asRecord(chunk?.web) ?? asRecord(chunk?.retrievedContext);
		const uri = asString(web?.uri);
		if (web === undefined || !uri) return;
		const title = asString(web.title);
		const where = target(uri, title, asString(web.domain));
		if (where.kind === "site") out.siteOnly++;
		if (where.kind === "redirect") out.redirects++;
		if (where.kind !== "direct") out.redirectOf[where.url] ??= uri;
		const segments = supports
			.filter((support) => asArray(support.groundingChunkIndices).includes(index))
			.map((support) => asString(asRecord(support.segment)?.text)?.trim() ?? "")
			.filter((text) => text !== "");
		const snippet = [...new Set(segments)].join(" … ") || asString(web.text) || "";
		const named = title && !isHttpUrl(title) && asHost(title) === undefined ? title : undefined;
		list.add({ title: named ?? asHost(asString(web.domain)) ?? asHost(title) ?? where.url, url: where.url, snippet });
	});
	out.results = list.items();
	return out;
}

/** `webSearchQueries` of the grounding metadata. */
export function searchQueries(grounding: Json | undefined): string[] {
	return asArray(grounding?.webSearchQueries).filter((query): query is string => typeof query === "string");
}
