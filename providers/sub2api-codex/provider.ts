// A Sub2API gateway's Codex group: the Responses API's web_search at <base>/responses, with the base URL, key
// and headers of the pi provider named by `provider`. The family is families/responses-family.ts (as for openai).

import type { ProviderDefinition } from "../contract.ts";
import { createFamilyType } from "../families/factory.ts";
import { RESPONSES_FAMILY } from "../families/responses-family.ts";
import facts from "./facts.ts";

const family = createFamilyType(RESPONSES_FAMILY, facts);

export const { buildSearchRequest, buildFetchRequest } = family;

const definition: ProviderDefinition = family.definition;

export default definition;
