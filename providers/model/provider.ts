// The `model` type, "follow the chat model": searches and fetches with the native web tools of pi's current
// conversation model, through that model's own pi provider (key, headers, base URL). Which family that is comes from
// model/facts.ts, which the planner asks too, so the planner skips the step with its reason before a call.

import { WebAccessError } from "../../engine/errors.ts";
import type { FetchRequest, SearchRequest } from "../../engine/request-types.ts";
import type {
	CallContext,
	CurrentModel,
	ProviderDefinition,
	ProviderFetchResult,
	ProviderSearchResult,
} from "../contract.ts";
import { classifyError } from "../http/classify.ts";
import { noNativeFilters } from "../params/filters.ts";
import { definitionFacts } from "../type-facts.ts";
import facts, { modelFamily } from "./facts.ts";
import { fetchWithFamily, type ModelFamily, searchWithFamily } from "./family-table.ts";

export { modelFamily };

const DEFAULTS = { maxResults: 10 };

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
	...definitionFacts(facts),
	// Which filters are native depends on the family: claim none, so the executor always checks and says so.
	native: noNativeFilters(DEFAULTS.maxResults),
	search,
	fetch: fetchPage,
	classify: classifyError,
};

export default definition;
