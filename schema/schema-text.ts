// The longer texts the config schema shows in editors (hovers and completion details): key expressions, site
// patterns, chains, error classes. Kept apart so schema/schema-source.ts stays one short entry per key.

import type { ErrorClass } from "../engine/error-classes.ts";

/** Every kind of site pattern with an example; engine/site-parse.ts is what reads them (docs/site-patterns.md). */
export const SITE_PATTERN_EXAMPLES: Array<[pattern: string, meaning: string]> = [
	["github.com", "the host and every subdomain (gist.github.com), not codedgithub.com"],
	[".cn", "a suffix: every host under .cn (zhihu.cn, a.gov.cn)"],
	["*.github.io", "subdomains only, never github.io itself"],
	["=docs.python.org", "exactly that host"],
	["google.*", "the name under any public suffix (google.com, google.co.uk)"],
	["github.com/golang", "a path prefix on segment boundaries (/golang/go, not /golang-migrate)"],
	["github.com/*/*/issues", "a path glob: * within a segment, ** across"],
	["localhost:8080", "the host on that port"],
	["127.0.0.1", "that address only (also [::1])"],
];

export const SITE_PATTERN_MARKDOWN = [
	"A site pattern. `x.com` and `twitter.com` are one site.",
	"",
	"| pattern | matches |",
	"| --- | --- |",
	...SITE_PATTERN_EXAMPLES.map(([p, m]) => `| \`${p}\` | ${m} |`),
	"",
	"No scheme (`https://`), `?`, `#` or `@`.",
].join("\n");

export const SITE_PATTERN_TEXT = `A site pattern: ${SITE_PATTERN_EXAMPLES.map(([p]) => p).join(", ")}. No scheme, ?, # or @.`;

/** The forms of a key expression (runtime/key-expressions.ts resolves them; pi's models.json uses the same). */
// biome-ignore lint/suspicious/noTemplateCurlyInString: ${NAME} is key-expression syntax, not a template
export const KEY_EXPRESSION_EXAMPLES = ["$EXA_API_KEY", "${EXA_API_KEY}", "!pass show exa", "sk-literal-key"];

export const KEY_EXPRESSION_MARKDOWN = [
	"A key expression; the key itself never appears in output, logs or errors.",
	"",
	// biome-ignore lint/suspicious/noTemplateCurlyInString: ${NAME} is key-expression syntax, not a template
	"- `$NAME` or `${NAME}`: the environment variable",
	"- `!command`: the trimmed output of a shell command, run once on first use (e.g. `!pass show exa`)",
	"- `$$` for a literal `$`, `$!` for a literal leading `!`",
	"- anything else: the key itself (prefer a variable: the file may be shared)",
].join("\n");

export const KEY_EXPRESSION_TEXT =
	// biome-ignore lint/suspicious/noTemplateCurlyInString: ${NAME} is key-expression syntax, not a template
	"A key expression: $NAME or ${NAME} (environment variable), !command (trimmed output of a shell command, run once on first use), $$ for a literal $, $! for a literal leading !, else the key itself.";

export const KEY_POOL_MARKDOWN = [
	"The key: one key expression, or a **key pool** used round-robin, where a rate-limited or exhausted key rests.",
	"",
	'A pool is a list of expressions, or of `{ "key": "$K1", "billing": "subscription", "label": "plan" }`.',
	"Without `apiKey` the type's usual source is used (its env variable or pi provider).",
].join("\n");

export const CHAIN_MARKDOWN = (capability: "search" | "fetch") =>
	[
		`The default ${capability} chain: provider names tried in order; a failing (or, by \`policy.onEmpty\`, empty) step falls back to the next.`,
		"",
		`Default: every provider able to ${capability}, in declaration order. Rules can pick another chain per site.`,
	].join("\n");

/** The error classes `policy.fallbackOn` names: every one of engine/error-classes.ts ErrorClass, the type checks it. */
export const ERROR_CLASS_TEXT: Record<ErrorClass, string> = {
	transport: "Connection refused, reset, DNS or TLS failure.",
	timeout: "The step did not answer within its timeoutMs.",
	"rate-limit": "HTTP 429 or the backend's rate-limit answer.",
	quota: "Credits or quota used up.",
	auth: "The key was refused (401/403).",
	server: "HTTP 5xx.",
	"bad-request": "The backend refused the request (4xx other than the above).",
	parse: "The answer could not be read.",
	cancelled: "The call was aborted (never falls back by default).",
};
