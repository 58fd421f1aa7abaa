// xAI's Responses API: x_search when every domain is an X host, web_search otherwise (api.x.ai/v1, $XAI_API_KEY or
// pi's xai). Fetch is model-written; cost from usage ticks. The family is families/grok-family.ts.

import type { ProviderDefinition } from "../contract.ts";
import { createFamilyType } from "../families/factory.ts";
import { GROK_FAMILY } from "../families/grok-family.ts";
import facts from "./facts.ts";

const family = createFamilyType(GROK_FAMILY, facts);

export const { buildSearchRequest, buildFetchRequest } = family;

const definition: ProviderDefinition = family.definition;

export default definition;
