// The `model` type: which family follows which current model (and every skip reason), the call the family gets
// (the model's base URL, the ChatGPT backend's /codex and account header), and real calls through three families.

import { describe, expect, it } from "vitest";
import type { SearchRequest } from "../../engine/request-types.ts";
import type { CallContext, CurrentModel, ProviderSearchResult } from "../../providers/contract.ts";
import definition, { familyCall, modelFamily } from "../../providers/model/provider.ts";
import { type ContractCase, fixture, runProviderContract } from "../contract/provider-contract.ts";

function search(query: string): SearchRequest {
	return { kind: "search", query, domains: [], excludeDomains: [], maxResults: 5, includeContent: false };
}

function model(provider: string, id: string, api: string, baseUrl?: string): CurrentModel {
	return baseUrl === undefined ? { provider, id, api } : { provider, id, api, baseUrl };
}

describe("modelFamily", () => {
	it.each([
		{ current: model("openai", "gpt-5", "openai-responses"), expected: { family: "openai" } },
		{ current: model("openai-codex", "gpt-5.4", "openai-codex-responses"), expected: { family: "openai" } },
		{ current: model("anthropic", "claude-sonnet-4-5", "anthropic-messages"), expected: { family: "anthropic" } },
		{ current: model("google", "gemini-2.5-pro", "google-generative-ai"), expected: { family: "gemini" } },
		{ current: model("xai", "grok-4.6", "openai-responses", "https://api.x.ai/v1"), expected: { family: "xai" } },
		{ current: model("my-grok", "grok-4", "openai-completions", "https://api.x.ai/v1"), expected: { family: "xai" } },
		{ current: model("gw", "grok-4", "xai-responses"), expected: { family: "xai" } },
	])("$current.provider/$current.id on $current.api → $expected.family", ({ current, expected }) => {
		expect(modelFamily(current)).toEqual(expected);
	});

	it.each([
		{ current: undefined, reason: "no current model" },
		{
			current: model("amazon-bedrock", "claude-sonnet-4-5", "bedrock-converse-stream"),
			reason:
				"current model amazon-bedrock/claude-sonnet-4-5 has no native search through this API (bedrock-converse-stream)",
		},
		{
			current: model("deepseek", "deepseek-chat", "openai-completions"),
			reason: "current model deepseek/deepseek-chat has no native search through this API (openai-completions)",
		},
		{
			current: model("google-vertex", "gemini-2.5-pro", "google-vertex"),
			reason: "current model google-vertex/gemini-2.5-pro has no native search through this API (google-vertex)",
		},
		{
			current: model("azure", "gpt-5", "azure-openai-responses"),
			reason: "current model azure/gpt-5 has no native search through this API (azure-openai-responses)",
		},
		{
			current: model("mistral", "mistral-large", "mistral-conversations"),
			reason: "current model mistral/mistral-large has no native search through this API (mistral-conversations)",
		},
	])("skips $current.provider/$current.api with a reason", ({ current, reason }) => {
		expect(modelFamily(current)).toEqual({ reason });
	});
});

describe("familyCall", () => {
	const base: CallContext = {
		config: { name: "follow", type: "model", options: {} },
		piAuth: { baseUrl: "https://pi.example.org/v1", headers: { "x-extra": "1" } },
		signal: new AbortController().signal,
		timeoutMs: 1000,
		onProgress: () => {},
	};

	it("prefers the current model's base URL and keeps the pi provider's headers", () => {
		const call = familyCall(base, model("openai", "gpt-5", "openai-responses", "https://model.example.org/v1"));
		expect(call.piAuth).toEqual({ baseUrl: "https://model.example.org/v1", headers: { "x-extra": "1" } });
	});

	it("falls back to the pi provider's base URL", () => {
		expect(familyCall(base, model("openai", "gpt-5", "openai-responses")).piAuth?.baseUrl).toBe(
			"https://pi.example.org/v1",
		);
	});

	it("sends ChatGPT-backend models to /codex with the account id from the login token", () => {
		const claims = { "https://api.openai.com/auth": { chatgpt_account_id: "acct-42" } };
		const token = `h.${Buffer.from(JSON.stringify(claims)).toString("base64url")}.s`;
		const current = model("openai-codex", "gpt-5.4", "openai-codex-responses", "https://chatgpt.com/backend-api");
		const call = familyCall({ ...base, key: { secret: token, label: "key1" } }, current);
		expect(call.piAuth?.baseUrl).toBe("https://chatgpt.com/backend-api/codex");
		expect(call.piAuth?.headers).toEqual({ "x-extra": "1", "chatgpt-account-id": "acct-42" });
	});
});

const cases: ContractCase[] = [
	{
		name: "a Gemini chat model searches through the Gemini family with its own model id",
		capability: "search",
		request: search("example-db maintainer"),
		currentModel: model("google", "gemini-2.5-pro", "google-generative-ai"),
		respond: { sse: fixture("gemini/stream.sse") },
		expectRequest: {
			path: "/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse",
			headers: { "x-goog-api-key": "ctk-SECRET-7f3a9c2e51" },
		},
		expect: {
			result: (r) =>
				expect((r as ProviderSearchResult).results.map((item) => item.url)).toContain("https://example.org/"),
		},
	},
	{
		name: "an OpenAI chat model searches through the Responses family with its own model id",
		capability: "search",
		request: search("q"),
		currentModel: model("openai", "gpt-5", "openai-responses"),
		respond: { sse: fixture("openai/stream.sse") },
		expectRequest: { path: "/responses", bodyIncludes: { model: "gpt-5", tools: [{ type: "web_search" }] } },
		expect: { result: (r) => expect((r as ProviderSearchResult).results.length).toBeGreaterThan(0) },
	},
	{
		name: "a Claude chat model searches through the Messages family with its own model id",
		capability: "search",
		request: search("q"),
		currentModel: model("anthropic", "claude-sonnet-4-5", "anthropic-messages"),
		respond: { sse: fixture("anthropic/stream_web_search.sse") },
		expectRequest: { path: "/v1/messages", bodyIncludes: { model: "claude-sonnet-4-5" } },
		expect: { result: (r) => expect((r as ProviderSearchResult).results.length).toBeGreaterThan(0) },
	},
	{
		name: "a Gemini chat model fetches through url_context (extraction model)",
		capability: "fetch",
		request: { kind: "fetch", url: "https://docs.example.org/db/releases", offset: 0, maxChars: 1000 },
		currentModel: model("google", "gemini-2.5-pro", "google-generative-ai"),
		respond: { body: fixture("gemini/response_success.json") },
		expectRequest: [{ bodyIncludes: { tools: [{ url_context: {} }] } }],
		expect: { result: (r) => expect(r).toMatchObject({ extraction: "model" }) },
	},
	{
		name: "a family's rate limit comes back classified",
		capability: "search",
		request: search("q"),
		currentModel: model("google", "gemini-2.5-pro", "google-generative-ai"),
		respond: { status: 429, body: fixture("gemini/error_429_resource_exhausted.json") },
		expect: { errorClass: "rate-limit", retryAfterMs: 17_000 },
	},
	{
		name: "without a current model the call fails with the skip reason and sends nothing",
		capability: "search",
		request: search("q"),
		respond: [],
		expectRequest: [],
		expect: { errorClass: "bad-request", reasonIncludes: "no current model" },
	},
	{
		name: "a current model without native search fails with the reason",
		capability: "fetch",
		request: { kind: "fetch", url: "https://docs.example.org/", offset: 0, maxChars: 1000 },
		currentModel: model("deepseek", "deepseek-chat", "openai-completions"),
		respond: [],
		expectRequest: [],
		expect: { errorClass: "bad-request", reasonIncludes: "has no native search through this API" },
	},
];

// The generic cases do not carry a current model, so every one of them would fail on "no current model".
runProviderContract({ definition, cases, generic: false });
