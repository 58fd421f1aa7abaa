// The built-in provider types: each type's facts module (providers/<type>/facts.ts) and a lazy loader for its
// implementation, one entry per type. Adding a type is its facts and implementation plus its two lines here
// (providers/registry.ts reads this list; the loader sits here so the implementation may import its facts).

import anthropic from "./anthropic/facts.ts";
import brave from "./brave/facts.ts";
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
	{ ...anthropic, load: () => loadDefault(import("./anthropic.ts")) },
	{ ...brave, load: () => loadDefault(import("./brave.ts")) },
	{ ...deepseek, load: () => loadDefault(import("./deepseek.ts")) },
	{ ...direct, load: () => loadDefault(import("./direct.ts")) },
	{ ...doubaoGlobal, load: () => loadDefault(import("./doubao-global.ts")) },
	{ ...doubao, load: () => loadDefault(import("./doubao.ts")) },
	{ ...exa, load: () => loadDefault(import("./exa.ts")) },
	{ ...gemini, load: () => loadDefault(import("./gemini.ts")) },
	{ ...jina, load: () => loadDefault(import("./jina.ts")) },
	{ ...model, load: () => loadDefault(import("./model.ts")) },
	{ ...ollama, load: () => loadDefault(import("./ollama.ts")) },
	{ ...openai, load: () => loadDefault(import("./openai.ts")) },
	{ ...searxng, load: () => loadDefault(import("./searxng.ts")) },
	{ ...sub2apiClaude, load: () => loadDefault(import("./sub2api-claude.ts")) },
	{ ...sub2apiCodex, load: () => loadDefault(import("./sub2api-codex.ts")) },
	{ ...sub2apiGrok, load: () => loadDefault(import("./sub2api-grok.ts")) },
	{ ...sub2apiSearch, load: () => loadDefault(import("./sub2api-search.ts")) },
	{ ...tavily, load: () => loadDefault(import("./tavily.ts")) },
	{ ...xai, load: () => loadDefault(import("./xai.ts")) },
];
