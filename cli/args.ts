// Argument parsing for the CLI: flags may stand anywhere after the command word; bad input is a usage error.

import { parseArgs } from "node:util";

export class UsageError extends Error {}

export const USAGE = `usage:
  pi-web-access check   [--config F] [--json]
  pi-web-access explain [--config F] [--json] [--model P/ID] search <query> [--domains a,b] [--exclude-domains a,b] [--recency day|week|month|year|YYYY-MM-DD..YYYY-MM-DD] [--provider N]
  pi-web-access explain [--config F] [--json] [--model P/ID] fetch <url> [--provider N]
  pi-web-access search  [--config F] [--json] [--model P/ID] <query> [--domains ..] [--exclude-domains ..] [--recency ..] [--max-results N] [--include-content] [--provider N]
  pi-web-access fetch   [--config F] [--json] [--model P/ID] <url> [--offset N] [--max-chars N] [--provider N]
  pi-web-access status  [--config F] [--json]
Every command but check also layers ./.pi/pi-web-access.json when pi's trust record trusts this folder, or with --project.
`;

const OPTIONS = {
	config: { type: "string" },
	json: { type: "boolean" },
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
	help: { type: "boolean", short: "h" },
} as const;

export interface CliArgs {
	command: string;
	positionals: string[];
	config?: string;
	json: boolean;
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
	help: boolean;
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
		throw new UsageError((error as Error).message);
	}
	const { values, positionals } = parsed;
	const [command = "", ...rest] = positionals;
	return {
		command,
		positionals: rest,
		...(values.config !== undefined ? { config: values.config } : {}),
		json: values.json ?? false,
		project: values.project ?? false,
		...(values.model !== undefined ? { model: values.model } : {}),
		domains: list(values.domains),
		excludeDomains: list(values["exclude-domains"]),
		...(values.recency !== undefined ? { recency: values.recency } : {}),
		...(values.provider !== undefined ? { provider: values.provider } : {}),
		...(values["max-results"] !== undefined
			? { maxResults: integer("max-results", values["max-results"], 1, 20) }
			: {}),
		includeContent: values["include-content"] ?? false,
		...(values.offset !== undefined ? { offset: integer("offset", values.offset, 0, Number.MAX_SAFE_INTEGER) } : {}),
		...(values["max-chars"] !== undefined ? { maxChars: integer("max-chars", values["max-chars"], 1000, 100000) } : {}),
		help: values.help ?? false,
	};
}
