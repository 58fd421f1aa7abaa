// The common site rule and the common policy checked by hand against the schema's `rule` and `policy`
// (schema/schema-defs.ts), so a big file's rules need not go through Ajv's validator: true only when Ajv accepts the
// value too (test/rule-check.property.test.ts holds the two equal); anything else goes to Ajv, which words the problem.

import { NAMED_RECENCIES } from "../engine/recency.ts";

const RECENCIES: ReadonlySet<unknown> = new Set<unknown>([...NAMED_RECENCIES, "range"]);

/** An array of strings, each at least `minLength` long (the schema's minLength 1 holds for any non-empty string). */
export function allStrings(value: unknown, minLength: number): boolean {
	if (!Array.isArray(value)) return false;
	for (let i = 0; i < value.length; i++) {
		const item: unknown = value[i];
		if (typeof item !== "string" || item.length < minLength) return false;
	}
	return true;
}

function recencies(value: unknown): boolean {
	if (!Array.isArray(value)) return false;
	for (let i = 0; i < value.length; i++) if (!RECENCIES.has(value[i])) return false;
	return true;
}

/** A string the schema's `minLength: 1` takes. */
export function nonEmptyString(value: unknown): value is string {
	return typeof value === "string" && value.length > 0;
}

/** An object that is neither null nor an array: what the schema's `"type": "object"` takes. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Ajv's integer within the schema's bounds (Ajv's `integer` takes Infinity, which the bounds then refuse). */
export function integerIn(value: unknown, minimum: number, maximum: number): boolean {
	return Number.isInteger(value) && (value as number) >= minimum && (value as number) <= maximum;
}

/**
 * True when the schema's `policy` surely accepts `policy`: its scalar keys only. fallbackOn, cooldown and budget go
 * to Ajv (rare in a rule, and their forms are Ajv's to word).
 */
export function policyAccepted(policy: unknown): boolean {
	if (!isPlainObject(policy)) return false;
	for (const key in policy) {
		const value: unknown = policy[key];
		switch (key) {
			case "onEmpty":
				if (value !== "next" && value !== "stop" && value !== "next-if-filtered") return false;
				break;
			case "maxAttempts":
				if (!integerIn(value, 1, 20)) return false;
				break;
			case "hedgeAfterMs":
				if (!integerIn(value, 0, 600_000)) return false;
				break;
			case "cacheTtlMs":
				if (!integerIn(value, 0, 86_400_000)) return false;
				break;
			default:
				return false;
		}
	}
	return true;
}

/** True when the schema surely accepts `rule`; false means "ask Ajv" (an unknown key, a wrong value). */
export function ruleAccepted(rule: unknown): boolean {
	if (!isPlainObject(rule)) return false;
	// for-in, as Ajv's additionalProperties walks the rule: an inherited enumerable key is an unknown key there too.
	for (const key in rule) {
		const value: unknown = rule[key];
		switch (key) {
			case "name":
				if (!nonEmptyString(value)) return false;
				break;
			case "sites":
				if (!allStrings(value, 0)) return false;
				break;
			case "queryScript":
			case "fileTypes":
			case "search":
			case "fetch":
				if (!allStrings(value, 1)) return false;
				break;
			case "recency":
				if (!recencies(value)) return false;
				break;
			case "policy":
				if (!policyAccepted(value)) return false;
				break;
			default:
				return false;
		}
	}
	return true;
}

/** Positions of the rules to hand to Ajv: those ruleAccepted does not vouch for. */
export function rulesForAjv(rules: readonly unknown[]): number[] {
	const out: number[] = [];
	for (let i = 0; i < rules.length; i++) if (!ruleAccepted(rules[i])) out.push(i);
	return out;
}
