// A Sub2API gateway's Claude group: Messages web_search / web_fetch at <root>/v1/messages, with the base URL,
// key and headers of the pi provider named by `provider`. The family is families/messages-family.ts (as for anthropic).

import type { ProviderDefinition } from "./contract.ts";
import { createMessagesFamily } from "./families/messages-family.ts";

const family = createMessagesFamily({ type: "sub2api-claude", gateway: true });

export const { buildSearchRequest, parseSearchResponse, buildFetchRequest, parseFetchResponse, canServe } = family;

const definition: ProviderDefinition = {
	...family.definition,
	cost: { basis: "per-request", usd: 0.01, source: "estimated" },
};

export default definition;
