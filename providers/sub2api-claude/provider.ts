// A Sub2API gateway's Claude group: Messages web_search / web_fetch at <root>/v1/messages, with the base URL,
// key and headers of the pi provider named by `provider`. The family is families/messages-family.ts (as for anthropic).

import type { ProviderDefinition } from "../contract.ts";
import { createFamilyType } from "../families/factory.ts";
import { canServe, MESSAGES_FAMILY } from "../families/messages-family.ts";
import facts from "./facts.ts";

const family = createFamilyType(MESSAGES_FAMILY, facts);

export const { buildSearchRequest, buildFetchRequest } = family;
export { canServe };

const definition: ProviderDefinition = family.definition;

export default definition;
