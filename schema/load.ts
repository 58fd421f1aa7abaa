// Loads pi-web-access.json: finds the file, parses JSON5, validates, drops only the broken parts and
// normalises the rest. Never throws for a bad file: every problem is a located diagnostic.

import { readFileSync } from "node:fs";
import type { Config, Diagnostic, ProviderConfig } from "../engine/types.ts";

export { agentDir, CONFIG_FILE_NAME, type ConfigLocation, configPath } from "./paths.ts";

import { providerTypes } from "../providers/index.ts";
import { normalizeConfig, type TypeFacts } from "./normalize.ts";
import { type ConfigLocation, configPath } from "./paths.ts";
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

/** Removes each dropped part; dropped array entries become null so later indices (and locations) stay put. */
function withoutDropped(value: unknown, drops: JsonPath[]): unknown {
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

/** Loads config text; `file` is only used in diagnostics. */
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
	const prepared = layer.prepare?.(source.value, at);
	for (const d of prepared?.diagnostics ?? []) diagnostics.push({ file, ...d });
	const value = prepared ? prepared.value : source.value;
	const isObject = value !== null && typeof value === "object" && !Array.isArray(value);
	const schemaIssues = validateAgainstSchema(value);
	for (const issue of schemaIssues) diagnostics.push({ file, ...at(issue.at, issue.atKey), ...issue.diagnostic });
	const cleaned = isObject
		? withoutDropped(
				value,
				schemaIssues.map((i) => i.drop),
			)
		: {};
	const { config, issues } = normalizeConfig(cleaned as Record<string, unknown>, typeFacts(), layer.known);
	for (const issue of issues) {
		const { at: path, atKey, ...rest } = issue;
		diagnostics.push({ file, ...at(path, atKey), path: pathToPointer(path), ...rest });
	}
	diagnostics.sort((a, b) => a.line - b.line || a.col - b.col);
	return { file, exists: true, usable: isObject, config, diagnostics };
}

/** Reads and loads the config file. A missing file is not an error: zero-config applies. */
export function loadConfig(location: ConfigLocation = {}, layer: LayerOptions = {}): LoadedConfig {
	const file = configPath(location);
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === "ENOENT" && !location.explicit) {
			return { file, exists: false, usable: true, config: emptyConfig(), diagnostics: [] };
		}
		return {
			file,
			exists: code !== "ENOENT",
			usable: false,
			config: emptyConfig(),
			diagnostics: [
				{
					severity: "error",
					file,
					line: 1,
					col: 1,
					path: "",
					message: code === "ENOENT" ? "file not found" : `cannot read the file (${code ?? "error"})`,
				},
			],
		};
	}
	return loadConfigText(text, file, layer);
}

export function formatDiagnostic(d: Diagnostic): string {
	return `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}${d.fix ? ` (fix: ${d.fix})` : ""}`;
}
