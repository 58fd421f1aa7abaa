// A Sub2API gateway's Grok group: x_search / web_search at <base>/responses, with the base URL, key and headers
// of the pi provider named by `provider`. The family is families/grok-family.ts (as for xai).

import type { ProviderDefinition } from "./contract.ts";
import { createGrokFamily } from "./families/grok-family.ts";

const family = createGrokFamily({ type: "sub2api-grok", gateway: true });

export const { buildSearchRequest, parseSearchResponse, buildFetchRequest, parseFetchResponse } = family;

const definition: ProviderDefinition = {
	...family.definition,
	cost: { basis: "reported", source: "docs/providers/xai.md" },
};

export default definition;
