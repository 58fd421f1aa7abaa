// Argument parsing for the CLI: flags may stand anywhere after the command word; bad input is a usage error.

import { parseArgs } from "node:util";
import { REQUEST_LIMITS } from "../engine/requests.ts";
import { suggest } from "../engine/suggest.ts";

/** Bad input: the message, and the command it was for (its usage line is shown) when one is known. */
export class UsageError extends Error {
	readonly command?: string;
	constructor(message: string, command?: string) {
		super(message);
		if (command !== undefined) this.command = command;
	}
}

export const COMMAND_NAMES = ["check", "explain", "search", "fetch", "status", "init"];

export const USAGE = `usage:
  pi-web-access check   [--config F] [--json] [--strict] [--project]
  pi-web-access explain [--config F] [--json] [--model P/ID] search <query> [--domains a,b] [--exclude-domains a,b] [--recency day|week|month|year|YYYY-MM-DD..YYYY-MM-DD] [--provider N]
  pi-web-access explain [--config F] [--json] [--model P/ID] fetch <url> [--format markdown|text|html] [--provider N]
  pi-web-access search  [--config F] [--json] [--model P/ID] <query> [--domains ..] [--exclude-domains ..] [--recency ..] [--max-results N] [--include-content] [--provider N]
  pi-web-access fetch   [--config F] [--json] [--model P/ID] <url> [--offset N] [--max-chars N] [--format markdown|text|html] [--links references|inline|none] [--provider N]
  pi-web-access status  [--config F] [--json]
  pi-web-access init    [--config F] [--json] [--force]
  pi-web-access --version | --help
`;

/** `--help`: the usage, a line per command, and where the config file is looked for. */
export const HELP = `${USAGE}
commands:
  check    validate the config file: each problem as file:line:col with a fix, then a summary; exit 1 on errors
           (--strict: on warnings too; --project: ./.pi/pi-web-access.json too, under the project rules)
  explain  show how a search or a fetch would be routed (rule, chain, skipped steps), without calling anything
  search   search the web through the configured chain, with fallback; --json prints the full result
  fetch    read one page as markdown in windows (--offset, --max-chars); --json prints the full result
  status   the set-up: config file, providers with credential status (never a key), health, chains, rules
  init     write a commented starter config (the set-up zero-config derives here); --force replaces a file

config file, the first that is set:
  1. --config F
  2. $PI_WEB_ACCESS_CONFIG
  3. <agentDir>/pi-web-access.json   (agentDir: $PI_CODING_AGENT_DIR, else ~/.pi/agent)
with none of them present, zero-config applies (the model's native search, API keys from the environment, direct).
Every command but check also layers ./.pi/pi-web-access.json where pi trusts this folder, or with --project;
check --project checks that file under the project rules, layered over the global one.

exit codes: 0 success, 1 failure (config errors for check; every attempt failed for search/fetch), 2 usage,
  130 cancelled (Ctrl-C)
`;

/** What follows a usage error: the command's usage line, or the list of commands. Never the whole usage. */
export function usageHint(command: string | undefined): string {
	const lines = USAGE.split("\n").filter((line) => command && line.startsWith(`  pi-web-access ${command} `));
	if (lines.length === 0) {
		return `commands: ${COMMAND_NAMES.join(", ")}; pi-web-access --help shows the usage\n`;
	}
	return `${lines.map((line) => `usage: ${line.trim()}`).join("\n")}\npi-web-access --help shows every command\n`;
}

/** `unknown command "serch" (did you mean "search"?)` */
export function unknownCommand(command: string): string {
	const hint = suggest(command, COMMAND_NAMES);
	return `unknown command "${command}"${hint ? ` (did you mean "${hint}"?)` : ""}`;
}

/** parseArgs' message for an unknown flag, with the closest known one. */
function parseProblem(error: Error & { code?: string }): string {
	const unknown = error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /'(-[^']+)'/.exec(error.message)?.[1] : undefined;
	if (unknown === undefined) return error.message;
	const hint = suggest(unknown.replace(/^-+/, ""), Object.keys(OPTIONS));
	return `unknown option "${unknown}"${hint ? ` (did you mean "--${hint}"?)` : ""}`;
}

const OPTIONS = {
	config: { type: "string" },
	json: { type: "boolean" },
	strict: { type: "boolean" },
	project: { type: "boolean" },
	model: { type: "string" },
	domains: { type: "string", multiple: true },
	"exclude-domains": { type: "string", multiple: true },
	recency: { type: "string" },
	provider: { type: "string" },
	"max-results": { type: "string" },
	"include-content": { type: "boolean" },
	offset: { type: "string" },
	"max-chars": { type: "string" },
	force: { type: "boolean" },
	format: { type: "string" },
	links: { type: "string" },
	help: { type: "boolean", short: "h" },
	version: { type: "boolean" },
} as const;

export interface CliArgs {
	command: string;
	positionals: string[];
	config?: string;
	json: boolean;
	/** check: warnings fail too (exit 1). */
	strict: boolean;
	/** Layer ./.pi/pi-web-access.json even without a saved pi trust decision for this folder. */
	project: boolean;
	model?: string;
	domains: string[];
	excludeDomains: string[];
	recency?: string;
	provider?: string;
	maxResults?: number;
	includeContent: boolean;
	offset?: number;
	maxChars?: number;
	/** `init`: replace an existing config file. */
	force: boolean;
	/** Checked by fetchRequest (one message for the tool and the CLI). */
	format?: string;
	links?: string;
	help: boolean;
	version: boolean;
}

const list = (values: string[] | undefined) =>
	(values ?? [])
		.flatMap((v) => v.split(","))
		.map((v) => v.trim())
		.filter(Boolean);

function integer(name: string, value: string | undefined, min: number, max: number): number | undefined {
	if (value === undefined) return undefined;
	if (!/^\d+$/.test(value)) throw new UsageError(`--${name} must be a whole number, got "${value}"`);
	const n = Number(value);
	if (n < min || n > max) throw new UsageError(`--${name} must be between ${min} and ${max}, got ${n}`);
	return n;
}

export function parseCli(argv: string[]): CliArgs {
	let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
	try {
		parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
	} catch (error) {
		throw new UsageError(
			parseProblem(error as Error),
			argv.find((arg) => COMMAND_NAMES.includes(arg)),
		);
	}
	const { values, positionals } = parsed;
	const [command = "", ...rest] = positionals;
	return {
		command,
		positionals: rest,
		...(values.config !== undefined ? { config: values.config } : {}),
		json: values.json ?? false,
		strict: values.strict ?? false,
		project: values.project ?? false,
		...(values.model !== undefined ? { model: values.model } : {}),
		domains: list(values.domains),
		excludeDomains: list(values["exclude-domains"]),
		...(values.recency !== undefined ? { recency: values.recency } : {}),
		...(values.provider !== undefined ? { provider: values.provider } : {}),
		...(values["max-results"] !== undefined
			? { maxResults: integer("max-results", values["max-results"], 1, REQUEST_LIMITS.maxResultsMax) }
			: {}),
		includeContent: values["include-content"] ?? false,
		...(values.offset !== undefined ? { offset: integer("offset", values.offset, 0, Number.MAX_SAFE_INTEGER) } : {}),
		...(values["max-chars"] !== undefined
			? { maxChars: integer("max-chars", values["max-chars"], REQUEST_LIMITS.maxCharsMin, REQUEST_LIMITS.maxCharsMax) }
			: {}),
		force: values.force ?? false,
		...(values.format !== undefined ? { format: values.format } : {}),
		...(values.links !== undefined ? { links: values.links } : {}),
		help: values.help ?? false,
		version: values.version ?? false,
	};
}
