// The hand-written rule check (schema/rule-check.ts) against Ajv: it accepts a rule exactly when the shipped
// validator does (a rule with a policy always goes to Ajv), and validating a config with it gives the very issues a
// validation of everything by Ajv gives, on mutated configs and on long rule lists with broken rules among good ones.
// A clean 1,000-rule file (the bench's) hands Ajv only its rules with a policy.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateConfig } from "../bench/generate.ts";
import { validate as compiledValidate } from "../schema/config-validator.js";
import { ruleAccepted, rulesForAjv } from "../schema/rule-check.ts";
import { parseSource } from "../schema/source.ts";
import { validateAgainstSchema, validateAgainstSchemaByAjv } from "../schema/validate.ts";
import { configTextArb } from "./helpers/config-arbitraries.ts";

const word = fc.constantFrom("", "a", "exa", "github.com", "*.x.io", "Han", "day", "week", "range", "month", "soon");
const listOf = fc.array(fc.oneof(word, fc.integer(), fc.constant(null), fc.constant([])), { maxLength: 4 });
const fieldValue = fc.oneof(
	{ weight: 4, arbitrary: fc.array(word, { maxLength: 4 }) },
	{ weight: 2, arbitrary: listOf },
	{ weight: 2, arbitrary: word },
	{ weight: 1, arbitrary: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), fc.constant({})) },
);
const policy = fc.oneof(
	fc.constant({ maxAttempts: 2 }),
	fc.constant({ maxAttempts: 0 }),
	fc.constant({ onEmpty: "stop", hedgeAfterMs: 3000 }),
	fc.constant("stop"),
);
const named = fc.array(fc.constantFrom("a", "exa", "Han", "pdf", "a", "exa", "Han", "pdf", ""), { maxLength: 3 });
/** Per key a value the schema takes, most of the time, else any of the values above. */
const valid: Record<string, fc.Arbitrary<unknown>> = {
	name: fc.constantFrom("a", "Go", ""),
	sites: fc.array(word, { maxLength: 4 }),
	queryScript: named,
	fileTypes: named,
	recency: fc.array(fc.constantFrom("day", "week", "month", "year", "range"), { maxLength: 3 }),
	search: named,
	fetch: named,
};
const fields = Object.fromEntries(
	Object.entries(valid).map(([key, good]) => [
		key,
		fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: fieldValue }),
	]),
);

/** Rule-like values: known keys with right and wrong values, now and then an unknown key, a policy or a non-object. */
const ruleArb: fc.Arbitrary<unknown> = fc.oneof(
	{
		weight: 12,
		arbitrary: fc
			.tuple(
				fc.record(fields, { requiredKeys: [] }),
				fc.option(fc.constantFrom("policy", "Sites", "__proto__", "constructor", "extra")),
				policy,
			)
			.map(([rule, extra, p]) => {
				if (extra === null) return rule;
				const out: Record<string, unknown> = { ...rule };
				Object.defineProperty(out, extra, { value: extra === "policy" ? p : 1, enumerable: true, writable: true });
				return out;
			}),
	},
	{ weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.constant([]), word, fc.integer()) },
);

// json5 warns on the console about U+2028 in strings, which the mutated configs hold now and then.
beforeAll(() => {
	vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
	vi.restoreAllMocks();
});

const ajvAccepts = (rule: unknown) => compiledValidate({ rules: [rule] });

describe("the hand-written rule check", () => {
	it("accepts a rule exactly when Ajv does, and never one with a policy", () => {
		let accepted = 0;
		fc.assert(
			fc.property(ruleArb, (rule) => {
				const withPolicy = rule !== null && typeof rule === "object" && Object.hasOwn(rule, "policy");
				expect(ruleAccepted(rule)).toBe(withPolicy ? false : ajvAccepts(rule));
				if (ruleAccepted(rule)) accepted++;
			}),
			{ numRuns: 5000 },
		);
		expect(accepted).toBeGreaterThan(100); // the property is not vacuous
	});

	it("gives the issues Ajv gives for the whole config, over long rule lists with broken rules among good ones", () => {
		const good = generateConfig(40, 7).raw;
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.nat(good.rules.length - 1), ruleArb), { maxLength: 6 }), (edits) => {
				const rules: unknown[] = [...good.rules];
				for (const [at, rule] of edits) rules[at] = rule;
				const config = { ...good, rules };
				expect(validateAgainstSchema(config)).toEqual(validateAgainstSchemaByAjv(config));
			}),
			{ numRuns: 600 },
		);
	});

	it("gives the issues Ajv gives for the whole config on mutated configs", () => {
		let compared = 0;
		fc.assert(
			fc.property(configTextArb({ longChars: 200, maxDepth: 8 }), (text) => {
				const parsed = parseSource(text);
				if (!parsed.ok) return;
				compared++;
				expect(validateAgainstSchema(parsed.source.value)).toEqual(validateAgainstSchemaByAjv(parsed.source.value));
			}),
			{ numRuns: 1500 },
		);
		expect(compared).toBeGreaterThan(300);
	});

	it("hands Ajv only the rules with a policy of the bench's clean 1,000-rule file", () => {
		const { rules } = generateConfig(1000, 4242).raw;
		const withPolicy = rules.flatMap((rule, i) => (rule.policy === undefined ? [] : [i]));
		expect(withPolicy.length).toBeGreaterThan(0);
		expect(withPolicy.length).toBeLessThan(100);
		expect(rulesForAjv(rules)).toEqual(withPolicy);
		expect(validateAgainstSchema({ ...generateConfig(1000, 4242).raw })).toEqual([]);
	});
});
