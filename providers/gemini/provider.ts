// Gemini (Google AI Studio key, or pi's "google" provider): search with the google_search tool, fetch with
// url_context (model-written). The family in families/gemini-family.ts does the work; the `model` type reuses it.

import type { ProviderDefinition } from "../contract.ts";
import { createFamilyType } from "../families/factory.ts";
import { GEMINI_FAMILY } from "../families/gemini-family.ts";
import facts from "./facts.ts";

const family = createFamilyType(GEMINI_FAMILY, facts);

export const { buildSearchRequest, buildFetchRequest } = family;

const definition: ProviderDefinition = family.definition;

export default definition;
