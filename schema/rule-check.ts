// The common site rule checked by hand against the schema's `rule` (schema/schema-defs.ts), so a big file's rules
// need not all go through Ajv's validator: true only when Ajv accepts the rule too (test/rule-check.property.test.ts
// holds the two equal); a rule it does not accept, or one with a policy, goes to Ajv, which words the problem.

import type { ErrorObject } from "ajv";
import { NAMED_RECENCIES } from "../engine/recency.ts";

const RECENCIES: ReadonlySet<unknown> = new Set<unknown>([...NAMED_RECENCIES, "range"]);

/** An array of strings, each at least `minLength` long (the schema's minLength 1 holds for any non-empty string). */
function strings(value: unknown, minLength: number): boolean {
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

/** True when the schema surely accepts `rule`; false means "ask Ajv" (a policy, an unknown key, a wrong value). */
export function ruleAccepted(rule: unknown): boolean {
	if (rule === null || typeof rule !== "object" || Array.isArray(rule)) return false;
	// for-in, as Ajv's additionalProperties walks the rule: an inherited enumerable key is an unknown key there too.
	for (const key in rule) {
		const value: unknown = (rule as Record<string, unknown>)[key];
		switch (key) {
			case "name":
				if (typeof value !== "string" || value.length === 0) return false;
				break;
			case "sites":
				if (!strings(value, 0)) return false;
				break;
			case "queryScript":
			case "fileTypes":
			case "search":
			case "fetch":
				if (!strings(value, 1)) return false;
				break;
			case "recency":
				if (!recencies(value)) return false;
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

const RULE_POINTER = /^\/rules\/(\d+)(?=\/|$)/;

/**
 * Ajv's errors for `root` (`run` validates a value by Ajv), the rules ruleAccepted vouches for left out of Ajv's run:
 * a 1,000-rule file ran Ajv's rule validator 1,000 times on a first load, in code not yet optimised. The rest is
 * validated as it is, with only the other rules in its list, and their errors are given their places in the whole
 * list again.
 */
export function withRulesChecked(root: unknown, run: (value: unknown) => ErrorObject[]): ErrorObject[] {
	if (root === null || typeof root !== "object" || Array.isArray(root) || !Object.hasOwn(root, "rules")) {
		return run(root);
	}
	const rules: unknown = (root as Record<string, unknown>).rules;
	if (!Array.isArray(rules)) return run(root);
	const asked = rulesForAjv(rules);
	if (asked.length === rules.length) return run(root);
	return run({ ...root, rules: asked.map((i) => rules[i]) }).map((error) => {
		const match = RULE_POINTER.exec(error.instancePath);
		if (match === null) return error;
		const at = asked[Number(match[1])];
		return { ...error, instancePath: `/rules/${at}${error.instancePath.slice(match[0].length)}` };
	});
}
