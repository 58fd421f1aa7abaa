// The key-leakage property's machinery: random keys (fast-check), every provider type configured with one (apiKey
// literal, `!printf` command, or a fake pi's providerAuth) against the echo server, runs through the real stack
// (services, the pi tools and /web-access, the CLI), and a scan of everything a person or the model could see and
// every file the runs wrote under their agent dir.

import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import fc from "fast-check";
import { main } from "../../cli/main.ts";
import { explain, planToJson } from "../../engine/explain.ts";
import { plan } from "../../engine/plan.ts";
import { RESULT_ECHO_WARNING } from "../../engine/redact.ts";
import type { WebRequest } from "../../engine/request-types.ts";
import { fetchRequest, searchRequest } from "../../engine/requests.ts";
import type { FetchResult, SearchResult } from "../../engine/result-types.ts";
import { handleCommand } from "../../extension/command.ts";
import { createHost } from "../../extension/host.ts";
import { COMMAND_HELP, createWebFetchTool, createWebSearchTool } from "../../pi-web-access/index.ts";
import type { CurrentModel } from "../../providers/contract.ts";
import { providerTypes } from "../../providers/registry.ts";
import { formatFetch, formatSearch, truncateLines } from "../../runtime/format.ts";
import { KeyResolver } from "../../runtime/key-expressions.ts";
import type { PiBridge } from "../../runtime/pi-bridge.ts";
import { createServices } from "../../runtime/services.ts";
import { createSetup } from "../../runtime/setup.ts";
import { formatStatus, statusReport } from "../../runtime/status.ts";
import { storeIn } from "../../runtime/team-store.ts";
import { ECHO_MODES, type EchoMode, type EchoServer, echoPiece } from "./echo-server.ts";
import { PAGE_FETCHERS } from "./fault-rows.ts";
import { commandExpression, keyArb, LeakScan, literalExpression } from "./leak-keys.ts";

export const TYPES = Object.keys(providerTypes);
/** Types the CLI runs without pi's own registry (gateway and model types need pi's models.json). */
export const CLI_TYPES = TYPES.filter((type) => {
	const { credentials } = providerTypes[type]!;
	return credentials !== "pi-provider" && credentials !== "current-model";
});
/** The CLI prints what the services return (covered for every fault there): one fault of each kind is enough. */
export const CLI_MODES: readonly EchoMode[] = ["401-echo", "500-headers", "inband-echo", "success", "success-echo"];
export type KeySource = "literal" | "command" | "pi";

/** Gateway types need the pi provider and model they route through (their facts require both). */
const isGateway = (type: string) => providerTypes[type]?.required?.includes("provider") === true;
const PI_ID = "fakepi";
/** A page the exa contents fixture has text for (other fixtures answer for any URL). */
const FETCH_URL = "https://docs.example.org/guides/isr-cache";

// ---------------------------------------------------------------------------------------------
// Configs and the fake pi
// ---------------------------------------------------------------------------------------------

export function capabilities(type: string): Array<"search" | "fetch"> {
	const entry = providerTypes[type];
	return (["search", "fetch"] as const).filter((c) => entry?.[c]);
}

/** The config file for one provider `p` of `type` answering in `mode`. */
export function leakConfig(type: string, source: KeySource, key: string, base: string): Record<string, unknown> {
	const provider: Record<string, unknown> = { type, baseUrl: base, timeoutMs: 10_000 };
	if (isGateway(type)) Object.assign(provider, { provider: "gw", model: "m-leak" });
	if (source === "literal") provider.apiKey = literalExpression(key);
	if (source === "command") provider.apiKey = commandExpression(key);
	if (source === "pi") provider.provider = PI_ID;
	return { providers: { p: provider }, fetchGuard: { allowPrivate: true }, policy: { cooldown: false } };
}

function currentModel(base: string): CurrentModel {
	return { provider: PI_ID, id: "m-leak", api: "openai-responses", baseUrl: base };
}

/** pi as the services and the CLI see it: `fakepi` holds the key; other ids (the gateway "gw") only a base URL. */
export function fakeBridge(key: string, base: string): PiBridge {
	return {
		authStatus: () => ({ configured: true }),
		providerAuth: async (id) => (id === PI_ID ? { apiKey: key, baseUrl: base } : { baseUrl: base }),
		storedKey: () => undefined,
		currentModel: () => currentModel(base),
	};
}

/** pi's extension context as the host reads it, with the same fake registry. */
function fakeContext(key: string, base: string) {
	return {
		modelRegistry: {
			getProviderAuthStatus: () => ({ configured: true }),
			getProvider: () => ({ baseUrl: base }),
			getProviderAuth: async (id: string) => ({ auth: id === PI_ID ? { apiKey: key } : {} }),
		},
		model: { provider: PI_ID, id: "m-leak", api: "openai-responses", baseUrl: base },
	};
}

function requestFor(capability: "search" | "fetch", echo: EchoServer, mode: EchoMode, type: string): WebRequest {
	if (capability === "search") return searchRequest({ query: "leak check widgets", maxResults: 3 });
	return fetchRequest({ url: PAGE_FETCHERS.has(type) ? `${echo.base(mode, type)}/page.html` : FETCH_URL });
}

let root: string | undefined;
let serial = 0;
function freshDir(): string {
	root ??= mkdtempSync(join(tmpdir(), "pwa-leak-"));
	const dir = join(root, String(serial++));
	mkdirSync(dir);
	return dir;
}

/** Removes every directory the runs made (configs, store logs). */
export function removeLeakDirs(): void {
	if (root !== undefined) rmSync(root, { recursive: true, force: true });
	root = undefined;
}

/**
 * Scans every regular file under `dir` (state store logs, anything else the product wrote) but `config`, the file
 * the run was given with the key in it; how many files it read and how many of them were store logs.
 */
export function scanWritten(
	scan: LeakScan,
	where: string,
	dir: string,
	config: string,
): { files: number; logs: number } {
	const seen = { files: 0, logs: 0 };
	const walk = (folder: string) => {
		for (const name of readdirSync(folder)) {
			const path = join(folder, name);
			const stat = lstatSync(path);
			if (stat.isDirectory()) walk(path);
			if (!stat.isFile() || path === config) continue;
			seen.files++;
			if (/^pi-web-access\.state\..*\.log$/.test(name)) seen.logs++;
			scan.check(`${where} ${relative(dir, path)}`, readFileSync(path, "utf8"));
		}
	};
	walk(dir);
	return seen;
}

/** Runs `tasks` with at most `limit` at a time. */
export async function inPool<T>(items: T[], limit: number, task: (item: T) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < items.length) await task(items[next++]!);
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export interface Job {
	type: string;
	mode: EchoMode;
	source: KeySource;
}

export function jobs(types: string[], sources: KeySource[], modes: readonly EchoMode[] = ECHO_MODES): Job[] {
	return types.flatMap((type) => sources.flatMap((source) => modes.map((mode) => ({ type, mode, source }))));
}

// ---------------------------------------------------------------------------------------------
// The three ways in
// ---------------------------------------------------------------------------------------------

/** A key resolver for one key's jobs (no environment: every key comes from the config or pi). */
export function resolverForKey(): KeyResolver {
	return new KeyResolver({ env: {} });
}

/** createSetup + createServices (the local state store on), every capability; outcomes counted per mode. */
export async function viaServices(
	echo: EchoServer,
	key: string,
	job: Job,
	scan: LeakScan,
	tally: LeakTally,
	keys: KeyResolver,
) {
	const { type, mode, source } = job;
	const base = echo.base(mode, type);
	const dir = freshDir();
	const file = join(dir, "pi-web-access.json");
	writeFileSync(file, JSON.stringify(leakConfig(type, source, key, base)));
	// One resolver per key, as the extension keeps one per process: the `!command` runs once, not once per job.
	const setup = createSetup({ configFile: file, env: {}, pi: fakeBridge(key, base), keys });
	const store = storeIn({ PI_CODING_AGENT_DIR: dir });
	const services = createServices(setup, { store });
	const where = `services ${type}/${source}/${mode}`;
	for (const capability of capabilities(type)) {
		const planned = plan(setup.table, requestFor(capability, echo, mode, type), setup.context);
		scan.check(`${where} explain`, [explain(planned), planToJson(planned)]);
		const progress: string[] = [];
		try {
			const result = await services.run(planned, { onProgress: (line) => progress.push(line) });
			tally.wins.add(`${type}/${capability}/${mode}`);
			if ((result as { warnings?: string[] }).warnings?.includes(RESULT_ECHO_WARNING))
				tally.wins.add(`${type}/echo-masked`);
			const text = capability === "search" ? formatSearch(result as SearchResult) : formatFetch(result as FetchResult);
			scan.check(`${where} ${capability} result`, [result, text]);
		} catch (error) {
			scan.check(`${where} ${capability} error`, error);
		}
		scan.check(`${where} ${capability} progress`, progress);
	}
	scan.check(`${where} status`, formatStatus(statusReport(setup, services.executor.snapshot())));
	// As a process's end does: anything buffered is written, then every file under the agent dir is scanned whole.
	services.executor.flush();
	store.close();
	tally.logs += scanWritten(scan, where, dir, file).logs;
}

/** The pi tools' execute (fake ctx), progress updates, `/web-access` status and explain, and the files written. */
export async function viaTools(echo: EchoServer, key: string, job: Job, scan: LeakScan, tally: LeakTally) {
	const { type, mode, source } = job;
	const base = echo.base(mode, type);
	const dir = freshDir();
	const file = join(dir, "pi-web-access.json");
	writeFileSync(file, JSON.stringify(leakConfig(type, source, key, base)));
	const host = createHost({ env: { PI_CODING_AGENT_DIR: dir, PI_WEB_ACCESS_CONFIG: file } });
	const ctx = fakeContext(key, base);
	const deps = { host: async () => host, truncate: truncateLines, names: { search: "web_search", fetch: "web_fetch" } };
	const where = `tool ${type}/${source}/${mode}`;
	for (const capability of capabilities(type)) {
		const tool = capability === "search" ? createWebSearchTool(deps) : createWebFetchTool(deps);
		const request = requestFor(capability, echo, mode, type);
		const params = request.kind === "search" ? { query: request.query, maxResults: 3 } : { url: request.url };
		const updates: unknown[] = [];
		try {
			const execute = tool.execute as (...args: unknown[]) => Promise<unknown>;
			scan.check(
				`${where} ${capability} output`,
				await execute("leak", params, undefined, (u: unknown) => updates.push(u), ctx),
			);
		} catch (error) {
			scan.check(`${where} ${capability} thrown`, error);
		}
		scan.check(`${where} ${capability} updates`, updates);
	}
	const notes: string[] = [];
	const notify = (message: string) => notes.push(message);
	host.useContext(ctx);
	await handleCommand("", host, notify, COMMAND_HELP);
	await handleCommand("explain leak check widgets", host, notify, COMMAND_HELP);
	await handleCommand(`explain ${FETCH_URL}`, host, notify, COMMAND_HELP);
	scan.check(`${where} /web-access`, notes);
	host.close();
	tally.logs += scanWritten(scan, where, dir, file).logs;
}

/** `main()` in-process with captured io: search/fetch (--json and markdown), explain, status, check. */
export async function viaCli(echo: EchoServer, key: string, job: Job, scan: LeakScan, tally: LeakTally) {
	const { type, mode, source } = job;
	const dir = freshDir();
	const file = join(dir, "pi-web-access.json");
	writeFileSync(file, JSON.stringify(leakConfig(type, source, key, echo.base(mode, type))));
	const out: string[] = [];
	const io = {
		stdout: (t: string) => out.push(t),
		stderr: (t: string) => out.push(t),
		env: { PI_CODING_AGENT_DIR: dir },
	};
	const url = PAGE_FETCHERS.has(type) ? `${echo.base(mode, type)}/page.html` : FETCH_URL;
	const runs: string[][] = [];
	// Markdown and JSON output differ only in shape: each fault gets one, alternating by mode.
	const json = ECHO_MODES.indexOf(mode) % 2 === 0 ? ["--json"] : [];
	if (capabilities(type).includes("search")) runs.push(["search", ...json, "leak check"]);
	if (capabilities(type).includes("fetch")) runs.push(["fetch", ...json, url]);
	if (mode === "success")
		runs.push(["check"], ["status", "--json"], ["explain", "search", "leak check"], ["explain", "fetch", url]);
	for (const argv of runs) await main([...argv, "--config", file], io);
	scan.check(`cli ${type}/${source}/${mode}`, out);
	tally.logs += scanWritten(scan, `cli ${type}/${source}/${mode}`, dir, file).logs;
}

// ---------------------------------------------------------------------------------------------
// The property
// ---------------------------------------------------------------------------------------------

/** What a leak run tried, for the printed count. */
export interface LeakTally {
	keys: number;
	keyTypes: number;
	runs: number;
	/** `type/capability/mode` combinations that ended with a result (not an error). */
	wins: Set<string>;
	/** State store logs scanned (a run that wrote none scanned nothing of the store). */
	logs: number;
}

export function newTally(): LeakTally {
	return { keys: 0, keyTypes: 0, runs: 0, wins: new Set(), logs: 0 };
}

export interface LeakPropertyOptions {
	path: "services" | "tools" | "cli";
	echo: EchoServer;
	numRuns: number;
	types: string[];
	sources: KeySource[];
	modes?: readonly EchoMode[];
	tally: LeakTally;
}

/** Characters the backend puts before each echoed key: moves the key across the 160/200-character one-line cuts. */
const padArb = fc.integer({ min: 0, max: 220 });
/** Where the echoed 12-character piece starts: 1–4 characters in, or ending 1–4 before the end (echoPiece). */
const pieceArb = fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: -4, max: -1 }));

/** Jobs in flight: a 500 or a refused header costs a 200 ms retry pause, so waits are overlapped, not summed. */
const CONCURRENCY = { services: 24, tools: 24, cli: 24 };

function report(scan: LeakScan): string {
	const lines = scan.leaks
		.slice(0, 5)
		.map((l) => `${l.where}: ${JSON.stringify(l.needle)} in …${JSON.stringify(l.text)}`);
	return `${scan.leaks.length} leaks of ${JSON.stringify(scan.key)}:\n${lines.join("\n")}`;
}

/** Needs `$` escaping, looks like JSON and a URL with userinfo, holds quotes, regex and shell metacharacters. */
export const FIXED_KEY = `$!{"sk":"a'b\\"}Zx9q-https://u:p@h.example/?k=v&x=(.*)+#f|$HOME;\`id\`-tail7Q`;

/** Runs the property: each random key through every job of the path; throws (fast-check) on the first leak. */
export async function assertNoLeak(options: LeakPropertyOptions): Promise<void> {
	// Each in-process CLI run listens for SIGINT while it works; many at once are expected here.
	const listeners = process.getMaxListeners();
	if (options.path === "cli") process.setMaxListeners(listeners + CONCURRENCY.cli);
	try {
		await fc.assert(
			fc.asyncProperty(keyArb, padArb, pieceArb, (key, pad, pieceAt) => tryKey(options, key, pad, pieceAt)),
			// The services run a fixed key first: nasty, yet it fits in an HTTP header, so the success path of every
			// type is reached whatever the random keys are (the HTTP client refuses a unicode key before sending);
			// its pad puts the echoed key across the 200-character cut of the model types' stream errors.
			{
				numRuns: options.numRuns,
				endOnFailure: true,
				examples: options.path === "services" ? [[FIXED_KEY, 128, 3]] : [],
			},
		);
	} finally {
		process.setMaxListeners(listeners);
	}
}

async function tryKey(options: LeakPropertyOptions, key: string, pad: number, pieceAt: number): Promise<void> {
	const { path, echo, types, sources, modes = ECHO_MODES, tally } = options;
	echo.pad = pad;
	echo.pieceAt = pieceAt;
	const scan = new LeakScan(key, echoPiece(key, pieceAt));
	const all = jobs(types, sources, modes);
	const keys = resolverForKey();
	await inPool(all, CONCURRENCY[path], (job) => {
		if (path === "services") return viaServices(echo, key, job, scan, tally, keys);
		return path === "tools" ? viaTools(echo, key, job, scan, tally) : viaCli(echo, key, job, scan, tally);
	});
	tally.keys++;
	tally.keyTypes += types.length;
	tally.runs += all.length;
	if (scan.leaks.length > 0) throw new Error(report(scan));
}
