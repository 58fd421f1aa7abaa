// The built-in provider types, one line each: a type's facts module (providers/<type>/facts.ts) says everything
// else. Adding a type is its folder plus a line here (providers/registry.ts reads this list).

export { default as anthropic } from "./anthropic/facts.ts";
export { default as brave } from "./brave/facts.ts";
export { default as deepseek } from "./deepseek/facts.ts";
export { default as direct } from "./direct/facts.ts";
export { default as doubao } from "./doubao/facts.ts";
export { default as doubaoGlobal } from "./doubao-global/facts.ts";
export { default as exa } from "./exa/facts.ts";
export { default as gemini } from "./gemini/facts.ts";
export { default as jina } from "./jina/facts.ts";
export { default as model } from "./model/facts.ts";
export { default as ollama } from "./ollama/facts.ts";
export { default as openai } from "./openai/facts.ts";
export { default as searxng } from "./searxng/facts.ts";
export { default as sub2apiClaude } from "./sub2api-claude/facts.ts";
export { default as sub2apiCodex } from "./sub2api-codex/facts.ts";
export { default as sub2apiGrok } from "./sub2api-grok/facts.ts";
export { default as sub2apiSearch } from "./sub2api-search/facts.ts";
export { default as tavily } from "./tavily/facts.ts";
export { default as xai } from "./xai/facts.ts";
