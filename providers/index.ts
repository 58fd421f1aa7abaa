// The built-in provider types: each type's facts module (providers/<type>/facts.ts) and a lazy loader for its
// implementation, one entry per type. Adding a type is its facts and implementation plus its two lines here
// (providers/registry.ts reads this list; the loader sits here so the implementation may import its facts).

import anthropic from "./anthropic/facts.ts";
import brave from "./brave/facts.ts";
import browser from "./browser/facts.ts";
import deepseek from "./deepseek/facts.ts";
import direct from "./direct/facts.ts";
import doubao from "./doubao/facts.ts";
import doubaoGlobal from "./doubao-global/facts.ts";
import exa from "./exa/facts.ts";
import gemini from "./gemini/facts.ts";
import jina from "./jina/facts.ts";
import model from "./model/facts.ts";
import ollama from "./ollama/facts.ts";
import openai from "./openai/facts.ts";
import searxng from "./searxng/facts.ts";
import sub2apiClaude from "./sub2api-claude/facts.ts";
import sub2apiCodex from "./sub2api-codex/facts.ts";
import sub2apiGrok from "./sub2api-grok/facts.ts";
import sub2apiSearch from "./sub2api-search/facts.ts";
import tavily from "./tavily/facts.ts";
import { loadDefault, type ProviderType } from "./type-facts.ts";
import xai from "./xai/facts.ts";

export const BUILTIN_TYPES: readonly ProviderType[] = [
	{ ...anthropic, load: () => loadDefault(import("./anthropic/provider.ts")) },
	{ ...brave, load: () => loadDefault(import("./brave/provider.ts")) },
	{ ...browser, load: () => loadDefault(import("./browser/provider.ts")) },
	{ ...deepseek, load: () => loadDefault(import("./deepseek/provider.ts")) },
	{ ...direct, load: () => loadDefault(import("./direct/provider.ts")) },
	{ ...doubaoGlobal, load: () => loadDefault(import("./doubao-global/provider.ts")) },
	{ ...doubao, load: () => loadDefault(import("./doubao/provider.ts")) },
	{ ...exa, load: () => loadDefault(import("./exa/provider.ts")) },
	{ ...gemini, load: () => loadDefault(import("./gemini/provider.ts")) },
	{ ...jina, load: () => loadDefault(import("./jina/provider.ts")) },
	{ ...model, load: () => loadDefault(import("./model/provider.ts")) },
	{ ...ollama, load: () => loadDefault(import("./ollama/provider.ts")) },
	{ ...openai, load: () => loadDefault(import("./openai/provider.ts")) },
	{ ...searxng, load: () => loadDefault(import("./searxng/provider.ts")) },
	{ ...sub2apiClaude, load: () => loadDefault(import("./sub2api-claude/provider.ts")) },
	{ ...sub2apiCodex, load: () => loadDefault(import("./sub2api-codex/provider.ts")) },
	{ ...sub2apiGrok, load: () => loadDefault(import("./sub2api-grok/provider.ts")) },
	{ ...sub2apiSearch, load: () => loadDefault(import("./sub2api-search/provider.ts")) },
	{ ...tavily, load: () => loadDefault(import("./tavily/provider.ts")) },
	{ ...xai, load: () => loadDefault(import("./xai/provider.ts")) },
];
