// Loads pi-web-access.json: finds the file, parses JSON5, validates, drops only the broken parts and
// normalises the rest. Never throws for a bad file: every problem is a located diagnostic.

import type { Config, Diagnostic, ProviderConfig } from "../engine/config-types.ts";

export {
	agentDir,
	CONFIG_FILE_NAME,
	CONFIG_FILE_NAMES,
	type ConfigLocation,
	chooseConfigFile,
	configPath,
} from "./paths.ts";

import { providerTypes } from "../providers/registry.ts";
import { normalizeConfig, type ParsedSites, type TypeFacts } from "./normalize.ts";
import { type ConfigLocation, chooseConfigFile } from "./paths.ts";
import { mayNamePrototype, prototypeKeyPaths } from "./prototype-keys.ts";
import { CONFIG_LIMITS, readConfigFile } from "./read-file.ts";
import { type Position, parseSource } from "./source.ts";
import { type JsonPath, pathToPointer, validateAgainstSchema } from "./validate.ts";

export interface LoadedConfig {
	/** The file read, or the one that would be read. */
	file: string;
	exists: boolean;
	/** False when the file could not be used at all (syntax error, unreadable): `config` is then empty. */
	usable: boolean;
	config: Config;
	diagnostics: Diagnostic[];
}

export function emptyConfig(): Config {
	return { providers: [], rules: [], policy: {} };
}

function typeFacts(): Record<string, TypeFacts> {
	const facts: Record<string, TypeFacts> = {};
	for (const [type, entry] of Object.entries(providerTypes)) facts[type] = { search: entry.search, fetch: entry.fetch };
	return facts;
}

/**
 * Removes each dropped part; dropped array entries become null so later indices (and locations) stay put.
 * With nothing to drop the value is returned as it is: it was parsed for this load alone, so no copy is needed.
 */
function withoutDropped(value: unknown, drops: JsonPath[]): unknown {
	if (drops.length === 0) return value;
	const root = structuredClone(value);
	for (const path of drops) {
		if (path.length === 0) return {};
		let parent: unknown = root;
		for (const segment of path.slice(0, -1)) {
			if (parent === null || typeof parent !== "object" || !Object.hasOwn(parent, segment)) {
				parent = undefined;
				break;
			}
			parent = (parent as Record<string, unknown>)[segment];
		}
		const last = path.at(-1) as string | number;
		if (Array.isArray(parent) && typeof last === "number") parent[last] = null;
		else if (parent !== null && typeof parent === "object") delete (parent as Record<string, unknown>)[last];
	}
	return root;
}

/** Hooks for a file layered over another (schema/project.ts): a filter before validation, providers it may name. */
export interface LayerOptions {
	/** Runs on the parsed value before validation; its diagnostics are located in this file. */
	prepare?(value: unknown, at: (path: JsonPath, atKey?: boolean) => Position): PrepareOutcome;
	/** Providers of the layer below, which chains in this file may name. */
	known?: ProviderConfig[];
}

export interface PrepareOutcome {
	value: unknown;
	diagnostics: Array<Omit<Diagnostic, "file">>;
}

/**
 * The parsed sites of each file's last load, by file: a file loaded again (pi's reload, a CLI command after
 * another) reuses the patterns of every rule whose sites are unchanged. The site-pattern memo of requests' domains
 * (engine/site-parse.ts) is left alone: a first load's 5,000 patterns paid its hash and map operations, cold.
 */
const lastParsedSites = new Map<string, ParsedSites>();
/** A process loads its global and its project config; past this many names the kept parses start again. */
const MAX_FILES_KEPT = 8;

/** Loads config text; `file` names it in diagnostics, and keys the reuse of its last load's parsed sites. */
export function loadConfigText(text: string, file: string, layer: LayerOptions = {}): LoadedConfig {
	const parsed = parseSource(text);
	if (!parsed.ok) {
		return {
			file,
			exists: true,
			usable: false,
			config: emptyConfig(),
			diagnostics: [
				{
					severity: "error",
					file,
					...parsed.position,
					path: "",
					message: `syntax error: ${parsed.message}; the file is not used`,
					fix: "fix the syntax (JSON5: comments and trailing commas are fine)",
				},
			],
		};
	}
	const { source } = parsed;
	const diagnostics: Diagnostic[] = [];
	const at = (path: JsonPath, atKey = false) => source.locate(path, atKey ? "key" : "value");
	for (const dup of source.duplicates) {
		diagnostics.push({
			severity: "warning",
			file,
			...dup.position,
			path: pathToPointer(dup.path),
			message: `duplicate key "${String(dup.path.at(-1))}"; the last one is used`,
			fix: "remove one of them",
		});
	}
	const refused = mayNamePrototype(text) ? prototypeKeyPaths(source.value) : [];
	for (const path of refused) {
		diagnostics.push({
			severity: "error",
			file,
			...at(path, true),
			path: pathToPointer(path),
			message: `"${String(path.at(-1))}" cannot be a key (it names JavaScript's object prototype); it is ignored`,
			fix: "remove it",
		});
	}
	const unrefused = refused.length > 0 ? withoutDropped(source.value, refused) : source.value;
	const prepared = layer.prepare?.(unrefused, at);
	for (const d of prepared?.diagnostics ?? []) diagnostics.push({ file, ...d });
	const value = prepared ? prepared.value : unrefused;
	const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
	const schemaIssues = validateAgainstSchema(value);
	for (const issue of schemaIssues) diagnostics.push({ file, ...at(issue.at, issue.atKey), ...issue.diagnostic });
	const cleaned = isObject
		? withoutDropped(
				value,
				schemaIssues.map((i) => i.drop),
			)
		: {};
	// A provider the schema step dropped has its error; chains lose its name without a second message.
	const dropped = schemaIssues.filter((i) => i.drop.length === 2 && i.drop[0] === "providers").map((i) => i.drop[1]);
	const { config, issues, parsedSites } = normalizeConfig(cleaned as Record<string, unknown>, typeFacts(), {
		known: layer.known ?? [],
		dropped: new Set(dropped.map(String)),
		previous: lastParsedSites.get(file),
	});
	if (!lastParsedSites.has(file) && lastParsedSites.size >= MAX_FILES_KEPT) lastParsedSites.clear();
	lastParsedSites.set(file, parsedSites);
	for (const issue of issues) {
		const { at: path, atKey, ...rest } = issue;
		diagnostics.push({ file, ...at(path, atKey), path: pathToPointer(path), ...rest });
	}
	diagnostics.sort((a, b) => a.line - b.line || a.col - b.col);
	return { file, exists: true, usable: isObject, config, diagnostics };
}

const listed = (files: string[]) => `${files.slice(0, -1).join(", ")}${files.length > 1 ? " and " : ""}${files.at(-1)}`;

/**
 * Reads and loads the config file. A missing file is not an error (zero-config applies) unless it was named by
 * `--config` or PI_WEB_ACCESS_CONFIG: then it is one, and nothing is loaded (usable: false). When more than one
 * of the accepted names is present, the first is read and one warning names them all.
 */
export function loadConfig(location: ConfigLocation = {}, layer: LayerOptions = {}): LoadedConfig {
	const { file, present } = chooseConfigFile(location);
	const loaded = loadConfigFile(file, location, layer);
	if (present.length < 2) return loaded;
	const ignored = present.slice(1);
	loaded.diagnostics.unshift({
		severity: "warning",
		file,
		line: 1,
		col: 1,
		path: "",
		message: `${present.length} config files: found ${listed(present)}; ${file} is read, ${listed(ignored)} ${ignored.length > 1 ? "are" : "is"} ignored`,
		fix: `keep one: merge what you need into ${file} and delete ${listed(ignored)}`,
	});
	return loaded;
}

function loadConfigFile(file: string, location: ConfigLocation, layer: LayerOptions): LoadedConfig {
	const named = Boolean(location.explicit || (location.env ?? process.env).PI_WEB_ACCESS_CONFIG);
	const read = readConfigFile(file);
	if (read.ok) return capDiagnostics(loadConfigText(read.text, file, layer));
	if (read.missing && !named) return { file, exists: false, usable: true, config: emptyConfig(), diagnostics: [] };
	const problem = read.missing
		? { message: MISSING_NAMED_FILE, fix: "create it, or fix the path given by --config or PI_WEB_ACCESS_CONFIG" }
		: { message: read.message, ...(read.fix ? { fix: read.fix } : {}) };
	return {
		file,
		exists: !read.missing,
		usable: false,
		config: emptyConfig(),
		diagnostics: [{ severity: "error", file, line: 1, col: 1, path: "", ...problem }],
	};
}
export const MISSING_NAMED_FILE = "file not found";

/** The first CONFIG_LIMITS.maxDiagnostics diagnostics, then one that counts the rest. */
function capDiagnostics(loaded: LoadedConfig): LoadedConfig {
	const { maxDiagnostics } = CONFIG_LIMITS;
	const all = loaded.diagnostics;
	if (all.length <= maxDiagnostics) return loaded;
	const last = all[maxDiagnostics]!;
	const rest = all.length - maxDiagnostics;
	const more: Diagnostic = {
		severity: all.slice(maxDiagnostics).some((d) => d.severity === "error") ? "error" : "warning",
		file: loaded.file,
		line: last.line,
		col: last.col,
		path: "",
		message: `and ${rest} more problems (only the first ${maxDiagnostics} are shown)`,
		fix: "fix the ones above and check again",
	};
	return { ...loaded, diagnostics: [...all.slice(0, maxDiagnostics), more] };
}

export function formatDiagnostic(d: Diagnostic): string {
	return `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}${d.fix ? ` (fix: ${d.fix})` : ""}`;
}
