// The pi-web-access CLI: check | explain | search | fetch | status | init, each with --json.
// Exit codes: 0 success, 1 failure (config errors for check, every attempt failed for search/fetch), 2 usage, 130
// cancelled (Ctrl-C).

import { explain, planToJson } from "../engine/explain.ts";
import { plan } from "../engine/plan.ts";
import type { WebRequest } from "../engine/request-types.ts";
import { fetchRequest, RequestError, searchRequest } from "../engine/requests.ts";
import { suggest } from "../engine/suggest.ts";
import { fetchNotes } from "../runtime/fetch-notes.ts";
import { agentDir } from "../runtime/files.ts";
import { projectTrust } from "../runtime/project-trust.ts";
import { readerRoutes } from "../runtime/reader-routes.ts";
import { createSetup, formatDiagnostic, needsPi, type Setup } from "../runtime/setup.ts";
import { jsonTerminalSafe, terminalSafe } from "../runtime/terminal-safe.ts";
import { type CliArgs, HELP, parseCli, UsageError, unknownCommand, usageHint } from "./args.ts";
import type { CliIO } from "./io.ts";
import { type CliPi, loadPiRegistry } from "./pi-registry.ts";

/** A host name and maybe a path, without a scheme (`go.dev/doc`, `localhost:8080/x`). */
const SCHEMELESS = /^(localhost|[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z]{2,})(:\d+)?([/?#]|$)/i;

/** A fetch URL as given, or with https:// in front when it has no scheme (and a note on stderr saying so). */
function withScheme(url: string, io: CliIO): string {
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || !SCHEMELESS.test(url)) return url;
	io.stderr(`pi-web-access: "${url}" has no scheme; using https://${url}\n`);
	return `https://${url}`;
}

function requestFrom(args: CliArgs, kind: string, io: CliIO): WebRequest {
	const [subject, ...extra] = args.positionals;
	if (!subject) throw new UsageError(`${kind} needs ${kind === "fetch" ? "a URL" : "a query"}`);
	if (kind === "fetch") {
		if (extra.length > 0) throw new UsageError(`fetch takes one URL, got extra arguments: ${extra.join(" ")}`);
		return fetchRequest({
			url: withScheme(subject, io),
			...(args.offset !== undefined ? { offset: args.offset } : {}),
			...(args.maxChars !== undefined ? { maxChars: args.maxChars } : {}),
			...(args.format !== undefined ? { format: args.format } : {}),
			...(args.links !== undefined ? { links: args.links } : {}),
			...(args.provider ? { provider: args.provider } : {}),
		});
	}
	return searchRequest({
		query: [subject, ...extra].join(" "),
		domains: args.domains,
		excludeDomains: args.excludeDomains,
		...(args.recency ? { recency: args.recency } : {}),
		...(args.maxResults !== undefined ? { maxResults: args.maxResults } : {}),
		includeContent: args.includeContent,
		...(args.provider ? { provider: args.provider } : {}),
	});
}

/** Commands that only report: they never let pi write its credential file. */
const READ_ONLY = new Set(["check", "explain", "status"]);

/** The set-up, with pi's registry when the config needs it (and what came of looking for pi). */
export async function setupWithPi(args: CliArgs, io: CliIO): Promise<{ setup: Setup; pi: CliPi }> {
	const cwd = io.cwd ?? process.cwd();
	const trust = projectTrust({ cwd, agentDir: agentDir(io.env), env: io.env, approve: args.project });
	const options = { ...(args.config ? { configFile: args.config } : {}), env: io.env, project: { cwd, trust } };
	const plain = createSetup(options);
	// A named file that is missing would silently run the defaults (and drop a fetchGuard the user meant).
	const missing = plain.loaded.exists || plain.loaded.usable ? undefined : plain.loaded.diagnostics[0];
	if (missing !== undefined) throw new Error(formatDiagnostic(missing));
	// --model names pi's current model, which only pi's registry can describe.
	if (!args.model && !needsPi(plain)) return { setup: plain, pi: { use: "not needed" } };
	const pi = await loadPiRegistry(io.env, args.model, READ_ONLY.has(args.command));
	if (pi.modelWarning) io.stderr(`pi-web-access: ${pi.modelWarning}\n`);
	return { setup: pi.bridge ? createSetup({ ...options, pi: pi.bridge }) : plain, pi };
}

/** The set-up for a call; a --provider that names no configured provider is a usage error, with a suggestion. */
async function setupFor(args: CliArgs, io: CliIO): Promise<Setup> {
	const { setup } = await setupWithPi(args, io);
	const names = setup.table.config.providers.map((p) => p.name);
	if (args.provider !== undefined && !names.includes(args.provider)) {
		const hint = suggest(args.provider, names);
		throw new UsageError(
			`provider "${args.provider}" is not configured${hint ? ` (did you mean "${hint}"?)` : ""}; configured: ${names.join(", ") || "(none)"}`,
		);
	}
	return setup;
}

async function explainCommand(args: CliArgs, io: CliIO): Promise<number> {
	const [kind, ...rest] = args.positionals;
	if (kind !== "search" && kind !== "fetch") throw new UsageError('explain needs "search <query>" or "fetch <url>"');
	const request = requestFrom({ ...args, positionals: rest }, kind, io);
	const setup = await setupFor(args, io);
	if (setup.notice) io.stderr(`pi-web-access: ${setup.notice}\n`);
	for (const d of setup.loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
	const result = plan(setup.table, request, setup.context);
	const readers = readerRoutes(setup, result);
	const notes = fetchNotes(result, setup);
	if (args.json) {
		io.stdout(
			`${JSON.stringify({ ...planToJson(result, readers), ...(notes.length > 0 ? { notes } : {}) }, null, 2)}\n`,
		);
	} else io.stdout(`${[explain(result, readers), ...notes.map((note) => `note: ${note}`)].join("\n")}\n`);
	return 0;
}

const COMMANDS: Record<string, (args: CliArgs, io: CliIO) => Promise<number>> = {
	check: async (args, io) => (await import("./check.ts")).checkCommand(args, io),
	explain: explainCommand,
	search: async (args, io) =>
		(await import("./run.ts")).runCommand(requestFrom(args, "search", io), args, io, setupFor),
	fetch: async (args, io) => (await import("./run.ts")).runCommand(requestFrom(args, "fetch", io), args, io, setupFor),
	status: async (args, io) => (await import("./status.ts")).statusCommand(await setupWithPi(args, io), args, io),
	init: async (args, io) => (await import("./init.ts")).initCommand(args, io),
};

/**
 * The streams every command writes through: text is made terminal-safe here, once, whatever it quotes (pages,
 * backends, config and project files, arguments); --json's stdout keeps its values, as escapes.
 */
function safeStreams(io: CliIO, json: boolean): CliIO {
	const stdout = json ? jsonTerminalSafe : terminalSafe;
	return { ...io, stdout: (text) => io.stdout(stdout(text)), stderr: (text) => io.stderr(terminalSafe(text)) };
}

export async function main(argv: string[], given: CliIO): Promise<number> {
	let io = safeStreams(given, false);
	let command: string | undefined;
	try {
		const args = parseCli(argv);
		if (args.json) io = safeStreams(given, true);
		if (Object.hasOwn(COMMANDS, args.command)) command = args.command;
		if (args.version || args.command === "version") {
			io.stdout(`pi-web-access ${(await import("./version.ts")).packageVersion()}\n`);
			return 0;
		}
		if (args.help || args.command === "help") {
			io.stdout(HELP);
			return 0;
		}
		const run = command === undefined ? undefined : COMMANDS[command];
		if (!run) throw new UsageError(args.command ? unknownCommand(args.command) : "no command given");
		return await run(args, io);
	} catch (error) {
		if (error instanceof UsageError || error instanceof RequestError) {
			const about = error instanceof UsageError ? (error.command ?? command) : command;
			io.stderr(`pi-web-access: ${error.message}\n${usageHint(about)}`);
			return 2;
		}
		io.stderr(`pi-web-access: ${(error as Error).message}\n`);
		return 1;
	}
}
