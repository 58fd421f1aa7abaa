// The `model` type, "follow the chat model": searches and fetches with the native web tools of pi's current
// conversation model, through that model's own pi provider (key, headers, base URL). `modelFamily` is pure so the
// planner can skip the step with its reason when the current model's API has no native search.

import { WebAccessError } from "../engine/errors.ts";
import type { FetchRequest, SearchRequest } from "../engine/request-types.ts";
import type {
	CallContext,
	CurrentModel,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "./contract.ts";
import { USER_LOCATION_SCHEMA } from "./families/model-common.ts";
import { classifyError } from "./http/classify.ts";
import { fetchWithFamily, type ModelFamily, searchWithFamily } from "./model-families.ts";
import { noNativeFilters } from "./params/filters.ts";

const DEFAULTS = {
	/** Model-written answers are slow (a Grok fetch often takes 40 s or more). */
	timeoutMs: 120_000,
	maxResults: 10,
};

/** pi API names whose endpoints carry a native web search tool, and the family that speaks them. */
const FAMILY_BY_API: Readonly<Record<string, ModelFamily>> = {
	"openai-responses": "openai",
	"openai-codex-responses": "openai",
	"anthropic-messages": "anthropic",
	"google-generative-ai": "gemini",
};

function isXai(current: CurrentModel): boolean {
	if (current.provider === "xai" || /xai/i.test(current.api)) return true;
	try {
		const host = new URL(current.baseUrl ?? "").hostname;
		return host === "x.ai" || host.endsWith(".x.ai");
	} catch {
		return false;
	}
}

/**
 * The family that searches for the current model, or why there is none. xAI is decided by the provider (pi's xAI
 * models speak openai-responses, but their search tools are Grok's); everything else by the API name.
 */
export function modelFamily(current?: CurrentModel): { family: ModelFamily } | { reason: string } {
	if (current === undefined) return { reason: "no current model" };
	if (isXai(current)) return { family: "xai" };
	const family = FAMILY_BY_API[current.api];
	if (family !== undefined) return { family };
	return {
		reason: `current model ${current.provider}/${current.id} has no native search through this API (${current.api})`,
	};
}

/** The JWT claim the ChatGPT backend wants echoed as `chatgpt-account-id`; the claim is an id, not the token. */
function chatGptAccountId(token: string | undefined): string | undefined {
	const payload = token?.split(".")[1];
	if (payload === undefined) return undefined;
	try {
		const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Record<string, unknown>;
		const auth = claims["https://api.openai.com/auth"] as Record<string, unknown> | undefined;
		return typeof auth?.chatgpt_account_id === "string" ? auth.chatgpt_account_id : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The call as the family sees it: the current model's base URL (the one its chat requests use) ahead of the pi
 * provider's; the ChatGPT backend (`openai-codex-responses`) answers Responses under `/codex`, per account.
 */
export function familyCall(call: CallContext, current: CurrentModel): CallContext {
	let baseUrl = current.baseUrl ?? call.piAuth?.baseUrl;
	const headers = { ...call.piAuth?.headers };
	if (current.api === "openai-codex-responses") {
		if (baseUrl !== undefined && !/\/codex\/?$/.test(baseUrl)) baseUrl = `${baseUrl.replace(/\/+$/, "")}/codex`;
		const account = chatGptAccountId(call.key?.secret);
		if (account !== undefined) headers["chatgpt-account-id"] ??= account;
	}
	return { ...call, piAuth: { ...call.piAuth, headers, ...(baseUrl === undefined ? {} : { baseUrl }) } };
}

function resolve(call: CallContext): { family: ModelFamily; current: CurrentModel } {
	const current = call.currentModel;
	const found = modelFamily(current);
	if ("reason" in found || current === undefined) {
		throw new WebAccessError("reason" in found ? found.reason : "no current model", {
			kind: "bad-request",
			code: "model-no-native-search",
			provider: call.config.name,
		});
	}
	return { family: found.family, current };
}

async function search(request: SearchRequest, call: CallContext): Promise<ProviderSearchResult> {
	const { family, current } = resolve(call);
	return searchWithFamily(family, request, familyCall(call, current), current.id);
}

async function fetchPage(request: FetchRequest, call: CallContext): Promise<ProviderFetchResult> {
	const { family, current } = resolve(call);
	return fetchWithFamily(family, request, familyCall(call, current), current.id);
}

const definition: ProviderDefinition = {
	type: "model",
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
	capabilities: { search: true, fetch: true },
	optionsSchema: { userLocation: USER_LOCATION_SCHEMA },
	defaults: { timeoutMs: DEFAULTS.timeoutMs },
	// The key is the current model's pi provider's, wired by the caller.
	needsKey: true,
	keyOrder: "any",
	extraction: "model",
	// Which filters are native depends on the family: claim none, so the executor always checks and says so.
	native: noNativeFilters(DEFAULTS.maxResults),
	search,
	fetch: fetchPage,
	classify: classifyError,
};

export default definition;
