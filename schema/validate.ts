// Validates a parsed config against the JSON Schema (Ajv, compiled once) and turns every Ajv error into one
// located diagnostic plus the smallest part of the config to drop, so the rest keeps working.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ErrorObject } from "ajv";
import type { Diagnostic } from "../engine/config-types.ts";
import { suggest } from "../engine/suggest.ts";
import { allProviderTypes, hasRegisteredTypes } from "../providers/registry.ts";
import { AJV_OPTIONS } from "./ajv-options.ts";
import { withHandChecked } from "./config-check.ts";
// Compiled ahead of time by schema/build.ts with AJV_OPTIONS; a test keeps it in sync with the schema file.
import { validate as compiledValidate } from "./config-validator.js";

export type JsonPath = Array<string | number>;

export interface SchemaIssue {
	diagnostic: Omit<Diagnostic, "file" | "line" | "col">;
	/** Where the problem is (for the location). */
	at: JsonPath;
	/** Whether to point at the key rather than the value. */
	atKey: boolean;
	/** The part of the config that cannot be used and is dropped. */
	drop: JsonPath;
}

/** A problem the normaliser (schema/normalize.ts, schema/headers.ts) finds in a schema-checked value. */
export interface NormalizeIssue {
	severity: "error" | "warning";
	at: JsonPath;
	atKey?: boolean;
	message: string;
	fix?: string;
}

type Validate = typeof compiledValidate;

let schemaCache: Record<string, unknown> | undefined;
/** The registry's schema compiled for the types registered after the shipped build, and how many types it covers. */
let registered: { types: number; schema: Record<string, unknown>; validate: Validate } | undefined;

/**
 * Builds the registry's schema (schema/registry-schema.ts installs it). Handed in rather than imported, so loading
 * a config never loads the schema builder: pi's host load and every CLI run only need the shipped validator.
 */
let registrySchema: (() => Record<string, unknown>) | undefined;

export function useRegistrySchema(build: () => Record<string, unknown>): void {
	registrySchema = build;
	registered = undefined;
}

/**
 * Types registered at run time (providers/registry.ts) are not in the shipped validator: for them the registry's
 * schema is compiled here, once per registration; only then is Ajv's compiler loaded.
 */
function registeredSchema(): { schema: Record<string, unknown>; validate: Validate } {
	const types = allProviderTypes().length;
	if (registered?.types !== types) {
		if (registrySchema === undefined) {
			throw new Error(
				"a provider type was registered at run time but the registry's schema is not installed: call installRegistrySchema() (schema/registry-schema.ts) after registering",
			);
		}
		const { Ajv2020 } = createRequire(import.meta.url)("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
		const schema = registrySchema();
		registered = { types, schema, validate: new Ajv2020(AJV_OPTIONS).compile(schema) as unknown as Validate };
	}
	return registered;
}

/** The config JSON Schema as shipped (also what editors see through `$schema`), or the registry's with added types. */
export function configSchema(): Record<string, unknown> {
	if (hasRegisteredTypes()) return registeredSchema().schema;
	schemaCache ??= JSON.parse(readFileSync(new URL("./pi-web-access.schema.json", import.meta.url), "utf8")) as Record<
		string,
		unknown
	>;
	return schemaCache;
}

function validator(): Validate {
	return hasRegisteredTypes() ? registeredSchema().validate : compiledValidate;
}

function pointerToPath(pointer: string): JsonPath {
	if (pointer === "") return [];
	return pointer
		.slice(1)
		.split("/")
		.map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
		.map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

export function pathToPointer(path: JsonPath): string {
	return path.length === 0 ? "" : `/${path.map((s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

const RULE_CONDITIONS = new Set(["name", "sites", "queryScript", "fileTypes", "recency"]);

/** The smallest unit to drop for a problem at `path`: a provider, a rule, an option, a chain entry. */
function dropTarget(path: JsonPath): JsonPath {
	const [top, second, third] = path;
	if (top === "providers" && second !== undefined) {
		// A broken type or a provider that is not an object loses the provider; a bad option loses the option. A bad
		// baseUrl loses the provider too: without it, calls (and the key) would go to the type's default endpoint.
		if (third === undefined || third === "type" || third === "baseUrl") return path.slice(0, 2);
		return path.slice(0, 3);
	}
	if (top === "rules" && second !== undefined) {
		// A broken condition would widen the rule if dropped alone, so the whole rule goes.
		if (third === undefined || RULE_CONDITIONS.has(String(third))) return path.slice(0, 2);
		if (third === "policy" && path.length > 3) return path.slice(0, 4);
		if ((third === "search" || third === "fetch") && path.length > 3) return path.slice(0, 4);
		return path.slice(0, 3);
	}
	if ((top === "search" || top === "fetch") && second !== undefined) return path.slice(0, 2);
	if (top === "policy" && second !== undefined) return path.slice(0, 2);
	// A bad source setting loses that setting only (a bad origin must not send the source's token elsewhere).
	if (top === "sources" && second !== undefined) return path.slice(0, 3);
	if (
		(top === "tools" || top === "output" || top === "fetchGuard" || top === "state" || top === "store") &&
		second !== undefined
	) {
		return path.slice(0, top === "tools" ? Math.min(path.length, 3) : 2);
	}
	return path.slice(0, 1);
}

/** The schema's pattern for URLs (schema/schema-source.ts, baseUrl): its failure is worded, never the regex. */
const URL_PATTERN = "^https?://";
/** The team store's URL pattern (schema/schema-source.ts, store.url): worded too, and the value never quoted. */
const STORE_URL_PATTERN = "^rediss?://\\S+$";

/** A fix for errors whose message alone does not show the way: the URL's form, the closest allowed value. */
function fixFor(error: ErrorObject, value: unknown): string | undefined {
	if (error.keyword === "pattern" && error.params.pattern === URL_PATTERN) {
		return 'write the whole URL with its scheme, like "https://search.example.org"';
	}
	if (error.keyword === "pattern" && error.params.pattern === STORE_URL_PATTERN) {
		return 'write the Redis URL with its scheme, like "redis://redis.internal:6379" (rediss:// for TLS)';
	}
	if (error.keyword === "enum" && typeof value === "string") {
		const allowed = (error.params.allowedValues as unknown[]).filter((v): v is string => typeof v === "string");
		const hint = suggest(value, allowed);
		return hint === undefined ? undefined : `use "${hint}"`;
	}
	return undefined;
}

function describe(error: ErrorObject, value: unknown): string {
	const where = error.instancePath || "the config";
	switch (error.keyword) {
		case "type":
			return `${where} must be ${String(error.params.type)}, got ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`;
		case "enum":
			return `${where} must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
		case "required":
			return `${where} is missing "${String(error.params.missingProperty)}"`;
		case "minimum":
		case "maximum":
			return `${where} ${error.message ?? "is out of range"}`;
		case "pattern":
			if (error.params.pattern === URL_PATTERN) return `${where} must start with http:// or https://`;
			if (error.params.pattern === STORE_URL_PATTERN) return `${where} must be a redis:// or rediss:// URL`;
			return `${where} ${error.message ?? "is invalid"}`;
		default:
			return `${where} ${error.message ?? "is invalid"}`;
	}
}

function valueAt(root: unknown, path: JsonPath): unknown {
	let current = root;
	for (const segment of path) {
		if (current === null || typeof current !== "object") return undefined;
		current = Object.hasOwn(current, segment) ? (current as Record<string, unknown>)[segment] : undefined;
	}
	return current;
}

/** Properties an object at `path` may have, for "did you mean" suggestions. */
function knownKeys(path: JsonPath, root: unknown, schema: Record<string, unknown>): string[] {
	const defs = schema.$defs as Record<string, { properties?: Record<string, unknown>; allOf?: unknown[] }>;
	if (path[0] === "providers" && path.length === 2) {
		const type = valueAt(root, [...path, "type"]);
		const keys = Object.keys(defs.provider?.properties ?? {});
		for (const branch of (defs.provider?.allOf ?? []) as Array<{
			if: { properties: { type: { const: string } } };
			then: { properties?: Record<string, unknown> };
		}>) {
			if (branch.if.properties.type.const === type) keys.push(...Object.keys(branch.then.properties ?? {}));
		}
		return keys;
	}
	if (path[0] === "rules" && path.length === 2) return Object.keys(defs.rule?.properties ?? {});
	if (path.at(-1) === "policy") return Object.keys(defs.policy?.properties ?? {});
	const top = (schema.properties ?? {}) as Record<string, { properties?: Record<string, unknown> }>;
	if (path.length === 0) return Object.keys(top);
	// A top-level object's own keys (store, state, output, fetchGuard): read from the schema, never listed here.
	if (path.length === 1 && Object.hasOwn(top, path[0]!)) return Object.keys(top[String(path[0])]?.properties ?? {});
	return [];
}

/** Ajv's errors for `root`, every part of it validated by Ajv. */
function allErrors(root: unknown): ErrorObject[] {
	const validate = validator();
	return validate(root) ? [] : [...(validate.errors ?? [])];
}

/** validateAgainstSchema with every rule validated by Ajv: what the shortcut must give (tests compare the two). */
export function validateAgainstSchemaByAjv(root: unknown): SchemaIssue[] {
	return issuesOf(root, allErrors(root));
}

/** Runs the schema and reports each problem once, with what to drop; the common parts are checked by hand. */
export function validateAgainstSchema(root: unknown): SchemaIssue[] {
	return issuesOf(root, withHandChecked(root, allErrors));
}

function issuesOf(root: unknown, errors: ErrorObject[]): SchemaIssue[] {
	if (errors.length === 0) return [];
	const schema = configSchema();
	const issues: SchemaIssue[] = [];
	const seen = new Set<string>();
	// An enum failure on a provider's type makes its per-type branches noise: report the type only.
	const badTypes = new Set(
		errors
			.filter((e) => e.keyword === "enum" && /^\/providers\/[^/]+\/type$/.test(e.instancePath))
			.map((e) => e.instancePath.replace(/\/type$/, "")),
	);
	const byDrop = new Map<string, { issue: SchemaIssue; depth: number }>();
	// A value that fails its own schema (a bad enum) also counts as "unevaluated" for its parent: report it once,
	// for what is wrong with it, not as an unknown key.
	const failing = new Set<string>();
	for (const e of errors) {
		if (e.keyword === "unevaluatedProperties" || e.keyword === "additionalProperties") continue;
		// The value itself and every object above it: an unknown-key report for any of them would be bogus.
		for (let at = e.instancePath; at !== ""; at = at.slice(0, at.lastIndexOf("/"))) failing.add(at);
	}
	for (const error of errors) {
		if (error.keyword === "if" || error.keyword === "anyOf" || error.keyword === "allOf") continue;
		// The normaliser reports the offending name and drops only that provider; errors of the name's own
		// subschema (they carry `propertyName`) would otherwise drop every provider.
		if (error.keyword === "propertyNames" || error.propertyName !== undefined) continue;
		const path = pointerToPath(error.instancePath);
		const providerPointer = path[0] === "providers" && path.length >= 2 ? pathToPointer(path.slice(0, 2)) : "";
		if (badTypes.has(providerPointer) && error.instancePath !== `${providerPointer}/type`) continue;
		if (error.keyword === "additionalProperties" || error.keyword === "unevaluatedProperties") {
			const key = String(error.params.additionalProperty ?? error.params.unevaluatedProperty);
			const keyPath = [...path, key];
			const pointer = pathToPointer(keyPath);
			// A known option whose value fails its type's branch is not "evaluated" in Ajv's sense; its own error
			// reports it, so "unknown key" (did you mean itself?) would be wrong.
			const known = error.keyword === "unevaluatedProperties" && knownKeys(path, root, schema).includes(key);
			if (known || seen.has(pointer) || failing.has(pointer)) continue;
			seen.add(pointer);
			const hint = suggest(key, knownKeys(path, root, schema));
			issues.push({
				at: keyPath,
				atKey: true,
				drop: keyPath,
				diagnostic: {
					severity: "warning",
					path: pointer,
					message: `unknown key "${key}"${hint ? ` (did you mean "${hint}"?)` : ""}; it is ignored`,
					fix: hint ? `rename it to "${hint}"` : "remove it",
				},
			});
			continue;
		}
		// Several schema branches can fail for one value (key pools are anyOf): one report per dropped part,
		// worded after the most specific failure.
		const drop = dropTarget(path);
		const dropPointer = pathToPointer(drop);
		const previous = byDrop.get(dropPointer);
		if (previous && previous.depth >= path.length) continue;
		byDrop.set(dropPointer, {
			depth: path.length,
			issue: {
				// A missing key is reported where editors put it: on the name of the object that lacks it.
				at: path,
				atKey: error.keyword === "required" && path.length > 0,
				drop,
				diagnostic: {
					severity: "error",
					path: error.instancePath,
					message: `${describe(error, valueAt(root, path))}; ${drop.length === 0 ? "the config is not used" : `${dropPointer} is not used`}`,
					...(fixFor(error, valueAt(root, path)) ? { fix: fixFor(error, valueAt(root, path)) } : {}),
				},
			},
		});
	}
	for (const { issue } of byDrop.values()) issues.push(issue);
	return issues;
}
