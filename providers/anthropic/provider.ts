// Anthropic's Messages API with the web_search / web_fetch server tools (api.anthropic.com, $ANTHROPIC_API_KEY
// or pi's anthropic). Fetch is verbatim and live; PDFs are refused. The family is families/messages-family.ts.

import type { ProviderDefinition } from "../contract.ts";
import { createFamilyType } from "../families/factory.ts";
import { canServe, MESSAGES_FAMILY } from "../families/messages-family.ts";
import facts from "./facts.ts";

const family = createFamilyType(MESSAGES_FAMILY, facts);

export const { buildSearchRequest, buildFetchRequest } = family;
export { canServe };

const definition: ProviderDefinition = family.definition;

export default definition;
