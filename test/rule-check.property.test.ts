// The hand-written checks (schema/rule-check.ts, schema/config-check.ts) against Ajv: each accepts a rule, a
// policy or a provider exactly when the shipped validator does, and validating a config with them gives the very
// issues a validation of everything by Ajv gives, on mutated configs and on long rule lists with broken rules among
// good ones. A clean 1,000-rule file (the bench's) hands Ajv nothing.

import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { generateConfig } from "../bench/generate.ts";
import { providerAccepted } from "../schema/config-check.ts";
import { validate as compiledValidate } from "../schema/config-validator.js";
import { policyAccepted, ruleAccepted, rulesForAjv } from "../schema/rule-check.ts";
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
const badNumber = fc.oneof(
	fc.constantFrom(0, 21, 999, 600_001, 86_400_001, -1, 1.5, Number.POSITIVE_INFINITY, Number.NaN, "3", null, true),
	fc.integer(),
);
/** A value the schema takes for the key most of the time, else a wrong one. */
const mostly = (good: fc.Arbitrary<unknown>, bad: fc.Arbitrary<unknown>) =>
	fc.oneof({ weight: 5, arbitrary: good }, { weight: 1, arbitrary: bad });
/** Adds now and then one key from `extras` (a key Ajv answers for, or an unknown one) to a record's values. */
const withExtra = (base: fc.Arbitrary<Record<string, unknown>>, extras: Record<string, unknown>) =>
	fc.tuple(base, fc.option(fc.constantFrom(...Object.keys(extras)), { freq: 3 })).map(([value, extra]) => {
		if (extra === null) return value;
		const out: Record<string, unknown> = { ...value };
		Object.defineProperty(out, extra, { value: extras[extra], enumerable: true, writable: true });
		return out;
	});
/** Policy-like values: its scalar keys with right and wrong values, now and then another key or a non-object. */
const policy: fc.Arbitrary<unknown> = fc.oneof(
	{
		weight: 8,
		arbitrary: withExtra(
			fc.record(
				{
					onEmpty: mostly(fc.constantFrom("next", "stop", "next-if-filtered"), fc.constantFrom("soon", 1)),
					maxAttempts: mostly(fc.integer({ min: 1, max: 20 }), badNumber),
					hedgeAfterMs: mostly(fc.constantFrom(0, 3000, 600_000, -0), badNumber),
					cacheTtlMs: mostly(fc.constantFrom(0, 86_400_000), badNumber),
				},
				{ requiredKeys: [] },
			),
			{ fallbackOn: ["timeout"], cooldown: false, budget: { usdPerDay: -1 }, extra: 1, __proto__: {} },
		),
	},
	{ weight: 1, arbitrary: fc.oneof(fc.constant("stop"), fc.constant(null), fc.constant([]), fc.integer()) },
);
/** Provider-like values: types shipped or not, required keys present or not, common keys with any values, options. */
const provider: fc.Arbitrary<unknown> = fc.oneof(
	{
		weight: 8,
		arbitrary: withExtra(
			fc.record(
				{
					type: mostly(
						fc.constantFrom("exa", "brave", "direct", "searxng", "sub2api-grok", "openai"),
						fc.constantFrom("nope", 3),
					),
					apiKey: mostly(fc.constantFrom("$EXA_API_KEY", "$$literal"), fc.constantFrom("", ["$A"], { key: "$A" }, 1)),
					model: mostly(fc.constant("m"), fc.constantFrom("", 1)),
					provider: mostly(fc.constant("gw"), fc.constantFrom("", null)),
					baseUrl: mostly(
						fc.constantFrom("https://a.example", "http://b.example/"),
						fc.constantFrom("ftp://c", "https:", ""),
					),
					timeoutMs: mostly(fc.constantFrom(1000, 20_000, 600_000), badNumber),
					paid: mostly(fc.constant("explicit"), fc.constant("always")),
				},
				{ requiredKeys: [] },
			),
			{ headers: { "x-a": "b" }, maxAgeHours: 1, proxy: "none", budget: { usdPerDay: 1 }, Type: "exa" },
		),
	},
	{ weight: 1, arbitrary: fc.oneof(fc.constant("exa"), fc.constant(null), fc.constant([]), fc.integer()) },
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

/** The policy keys the hand check answers for, and the provider keys it answers for: with only these, it agrees. */
const SCALAR = new Set(["onEmpty", "maxAttempts", "hedgeAfterMs", "cacheTtlMs"]);
const COMMON = new Set(["type", "apiKey", "model", "provider", "baseUrl", "timeoutMs", "paid"]);
const scalarOnly = (value: unknown) =>
	value === null || typeof value !== "object" || Object.keys(value).every((k) => SCALAR.has(k));

// json5 warns on the console about U+2028 in strings, which the mutated configs hold now and then.
beforeAll(() => {
	vi.spyOn(console, "warn").mockImplementation(() => {});
});
afterAll(() => {
	vi.restoreAllMocks();
});

const ajvAccepts = (rule: unknown) => compiledValidate({ rules: [rule] });
const accepted = { rule: 0, policy: 0, provider: 0 };

describe("the hand-written rule check", () => {
	it("accepts a rule exactly when Ajv does, bar a policy key the hand check leaves to Ajv", () => {
		fc.assert(
			fc.property(ruleArb, (rule) => {
				if (ruleAccepted(rule)) accepted.rule++;
				if (ruleAccepted(rule)) expect(ajvAccepts(rule)).toBe(true);
				const policy = rule !== null && typeof rule === "object" ? (rule as { policy?: unknown }).policy : undefined;
				if (policy === undefined || scalarOnly(policy)) expect(ruleAccepted(rule)).toBe(ajvAccepts(rule));
			}),
			{ numRuns: 5000 },
		);
		expect(accepted.rule).toBeGreaterThan(100); // the property is not vacuous
	});

	it("accepts a policy only when Ajv does, and exactly as Ajv when it holds only scalar keys", () => {
		fc.assert(
			fc.property(policy, (value) => {
				if (policyAccepted(value)) accepted.policy++;
				// Ajv also takes fallbackOn, cooldown and budget, which the hand check leaves to it.
				if (policyAccepted(value)) expect(compiledValidate({ policy: value })).toBe(true);
				if (scalarOnly(value)) expect(policyAccepted(value)).toBe(compiledValidate({ policy: value }));
			}),
			{ numRuns: 5000 },
		);
		expect(accepted.policy).toBeGreaterThan(100);
	});

	it("accepts a provider only when Ajv does, and every clean provider of a shipped type with common keys", () => {
		fc.assert(
			fc.property(provider, (value) => {
				const ajv = compiledValidate({ providers: { p: value } });
				if (providerAccepted(value)) {
					accepted.provider++;
					expect(ajv).toBe(true);
				}
				// A key pool that is a list is Ajv's to check too.
				const common =
					value !== null &&
					typeof value === "object" &&
					Object.keys(value).every((k) => COMMON.has(k)) &&
					!Array.isArray((value as { apiKey?: unknown }).apiKey);
				if (common) expect(providerAccepted(value)).toBe(ajv);
			}),
			{ numRuns: 5000 },
		);
		expect(accepted.provider).toBeGreaterThan(100);
	});

	it("gives the issues Ajv gives for a config with mutated providers, chains and policies", () => {
		const good = generateConfig(20, 9).raw;
		const chain = fc.constantFrom(["exa"], ["exa", "brave"], [], [""], ["exa", 1], "exa");
		fc.assert(
			fc.property(
				fc.dictionary(fc.constantFrom("exa", "brave", "direct", "two words", ""), provider, { maxKeys: 4 }),
				fc.option(policy),
				fc.option(chain),
				fc.option(fc.constantFrom("./schema.json", 1)),
				(providers, top, search, $schema) => {
					const config: Record<string, unknown> = { ...good, providers: { ...good.providers, ...providers } };
					if (top !== null) config.policy = top;
					if (search !== null) config.search = search;
					if ($schema !== null) config.$schema = $schema;
					expect(validateAgainstSchema(config)).toEqual(validateAgainstSchemaByAjv(config));
				},
			),
			{ numRuns: 1500 },
		);
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

	it("hands Ajv no rule of the bench's clean 1,000-rule file, those with a policy included", () => {
		const { rules } = generateConfig(1000, 4242).raw;
		expect(rules.filter((rule) => rule.policy !== undefined).length).toBeGreaterThan(0);
		expect(rulesForAjv(rules)).toEqual([]);
		expect(validateAgainstSchema({ ...generateConfig(1000, 4242).raw })).toEqual([]);
	});
});
