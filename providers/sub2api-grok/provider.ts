// A Sub2API gateway's Grok group: x_search / web_search at <base>/responses, with the base URL, key and headers
// of the pi provider named by `provider`. The family is families/grok-family.ts (as for xai).

import type { ProviderDefinition } from "../contract.ts";
import { createFamilyType } from "../families/factory.ts";
import { GROK_FAMILY } from "../families/grok-family.ts";
import facts from "./facts.ts";

const family = createFamilyType(GROK_FAMILY, facts);

export const { buildSearchRequest, buildFetchRequest } = family;

const definition: ProviderDefinition = family.definition;

export default definition;
