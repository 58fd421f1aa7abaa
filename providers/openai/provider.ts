// OpenAI's Responses API with the hosted web_search tool (api.openai.com/v1, $OPENAI_API_KEY or pi's openai).
// Fetch is the model opening the page and writing it out (extraction: model). The family is families/responses-family.ts.

import type { ProviderDefinition } from "../contract.ts";
import { createFamilyType } from "../families/factory.ts";
import { RESPONSES_FAMILY } from "../families/responses-family.ts";
import facts from "./facts.ts";

const family = createFamilyType(RESPONSES_FAMILY, facts);

export const { buildSearchRequest, buildFetchRequest } = family;

const definition: ProviderDefinition = family.definition;

export default definition;
