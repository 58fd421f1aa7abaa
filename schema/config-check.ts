// The common config checked by hand against the schema (schema/schema-defs.ts, schema/schema-source.ts): providers
// of a shipped type with their common keys, chains, the policy and the rules (schema/rule-check.ts). Ajv validates
// only what the hand check does not vouch for, so a clean file never runs Ajv's validator, whose first run in a
// process compiled its 230 KB of code cold (test/rule-check.property.test.ts holds the issues equal to Ajv's).

import type { ErrorObject } from "ajv";
import { BUILTIN_TYPES } from "../providers/index.ts";
import { hasRegisteredTypes } from "../providers/registry.ts";
import { allStrings, integerIn, isPlainObject, nonEmptyString, policyAccepted, rulesForAjv } from "./rule-check.ts";

/** The shipped types (the shipped validator's enum) and the keys each requires. */
const SHIPPED_TYPES = new Map(BUILTIN_TYPES.map((facts) => [facts.type, facts.required ?? []]));

/** The schema's propertyNames of `providers`. */
const PROVIDER_NAME = /^\S+$/u;

/**
 * True when the schema surely accepts `provider`: a shipped type and only the common keys with plain values (a key
 * pool that is one expression). A type's own options, headers, proxy and budget go to Ajv.
 */
export function providerAccepted(provider: unknown): boolean {
	if (!isPlainObject(provider) || typeof provider.type !== "string") return false;
	const required = SHIPPED_TYPES.get(provider.type);
	if (required === undefined) return false;
	for (let i = 0; i < required.length; i++) if (provider[required[i] as string] === undefined) return false;
	// for-in, as Ajv's unevaluatedProperties walks the provider: an inherited enumerable key is unknown there too.
	for (const key in provider) {
		const value: unknown = provider[key];
		switch (key) {
			case "type":
				break;
			case "apiKey":
			case "model":
			case "provider":
				if (!nonEmptyString(value)) return false;
				break;
			case "baseUrl":
				if (typeof value !== "string" || !(value.startsWith("http://") || value.startsWith("https://"))) return false;
				break;
			case "timeoutMs":
				if (!integerIn(value, 1000, 600_000)) return false;
				break;
			case "paid":
				if (value !== "explicit") return false;
				break;
			default:
				return false;
		}
	}
	return true;
}

/** Sets an own key, even `__proto__` (which `=` would take for the prototype). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
	Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The providers the hand check does not vouch for (in their order), or undefined when it vouches for all. */
function providersForAjv(providers: Record<string, unknown>): Record<string, unknown> | undefined {
	// A type registered at run time is validated by the registry's schema (schema/validate.ts): Ajv takes them all.
	if (hasRegisteredTypes()) return providers;
	let asked: Record<string, unknown> | undefined;
	for (const name in providers) {
		const provider = providers[name];
		if (PROVIDER_NAME.test(name) && providerAccepted(provider)) continue;
		asked ??= {};
		put(asked, name, provider);
	}
	return asked;
}

const RULE_POINTER = /^\/rules\/(\d+)(?=\/|$)/;

/**
 * Ajv's errors for `root` (`run` validates a value by Ajv), what the hand check vouches for left out of Ajv's run:
 * the rest is validated as it is, keys in their order, rules with only the other rules in their list (their errors
 * are given their places in the whole list again). Nothing left, Ajv is not run.
 */
export function withHandChecked(root: unknown, run: (value: unknown) => ErrorObject[]): ErrorObject[] {
	if (!isPlainObject(root)) return run(root);
	const rest: Record<string, unknown> = {};
	let left = false;
	let asked: number[] | undefined;
	for (const key in root) {
		const value = root[key];
		let part: unknown = value;
		switch (key) {
			case "$schema":
				if (typeof value === "string") continue;
				break;
			case "search":
			case "fetch":
				if (allStrings(value, 1)) continue;
				break;
			case "policy":
				if (policyAccepted(value)) continue;
				break;
			case "providers":
				if (isPlainObject(value)) {
					part = providersForAjv(value);
					if (part === undefined) continue;
				}
				break;
			case "rules":
				if (Array.isArray(value)) {
					asked = rulesForAjv(value);
					if (asked.length === 0) continue;
					if (asked.length < value.length) part = asked.map((i) => value[i]);
					else asked = undefined;
				}
				break;
		}
		put(rest, key, part);
		left = true;
	}
	if (!left) return [];
	const errors = run(rest);
	if (asked === undefined) return errors;
	const positions = asked;
	return errors.map((error) => {
		const match = RULE_POINTER.exec(error.instancePath);
		if (match === null) return error;
		const at = positions[Number(match[1])];
		return { ...error, instancePath: `/rules/${at}${error.instancePath.slice(match[0].length)}` };
	});
}
