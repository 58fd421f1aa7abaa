// Loads pi-web-access.json: finds the file, parses JSON5, validates, drops only the broken parts and
// normalises the rest. Never throws for a bad file: every problem is a located diagnostic.

import { readFileSync } from "node:fs";
import type { Config, Diagnostic } from "../engine/types.ts";

export {
	agentDir,
	CONFIG_FILE_NAME,
	CONFIG_FILE_NAMES,
	type ConfigLocation,
	chooseConfigFile,
	configPath,
} from "./paths.ts";

import { providerTypes } from "../providers/index.ts";
import { normalizeConfig, type TypeFacts } from "./normalize.ts";
import { type ConfigLocation, chooseConfigFile } from "./paths.ts";
import { parseSource } from "./source.ts";
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

/** Loads config text; `file` is only used in diagnostics. */
export function loadConfigText(text: string, file: string): LoadedConfig {
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
	const isObject = source.value !== null && typeof source.value === "object" && !Array.isArray(source.value);
	const schemaIssues = validateAgainstSchema(source.value);
	for (const issue of schemaIssues) diagnostics.push({ file, ...at(issue.at, issue.atKey), ...issue.diagnostic });
	const cleaned = isObject
		? withoutDropped(
				source.value,
				schemaIssues.map((i) => i.drop),
			)
		: {};
	const { config, issues } = normalizeConfig(cleaned as Record<string, unknown>, typeFacts());
	for (const issue of issues) {
		const { at: path, atKey, ...rest } = issue;
		diagnostics.push({ file, ...at(path, atKey), path: pathToPointer(path), ...rest });
	}
	diagnostics.sort((a, b) => a.line - b.line || a.col - b.col);
	return { file, exists: true, usable: isObject, config, diagnostics };
}

const listed = (files: string[]) => `${files.slice(0, -1).join(", ")}${files.length > 1 ? " and " : ""}${files.at(-1)}`;

/** Reads and loads the config file. A missing file is not an error: zero-config applies. */
export function loadConfig(location: ConfigLocation = {}): LoadedConfig {
	const { file, present } = chooseConfigFile(location);
	const loaded = loadConfigFile(file, location);
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

function loadConfigFile(file: string, location: ConfigLocation): LoadedConfig {
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
	return loadConfigText(text, file);
}

export function formatDiagnostic(d: Diagnostic): string {
	return `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}${d.fix ? ` (fix: ${d.fix})` : ""}`;
}
