// The limits a project file may only tighten (schema/project.ts): budgets, attempts, hedging, cooldowns, a provider's
// timeout and its bounding options. `loosened…` find, in the file as written, each value looser than the global file's
// (a located diagnostic); `held…` hold the loaded config to them, so a dropped or invalid value loosens nothing.

import type { Budget, Config, Policy, ProviderConfig } from "../engine/config-types.ts";
import { rulePolicy } from "../engine/plan.ts";
import { WALK_DEFAULTS } from "../executor/chain.ts";
import { HEALTH_DEFAULTS } from "../executor/health.ts";
import { providerType } from "../providers/registry.ts";
import { isPlainObject } from "./rule-check.ts";
import type { JsonPath } from "./validate.ts";

/** A policy's limits as the executor applies them: defaults filled in, `hedgeAfterMs` undefined for no hedging. */
export interface Limits {
	usdPerDay?: number;
	usdPerCall?: number;
	maxAttempts: number;
	hedgeAfterMs?: number;
	cooldown: false | { baseMs: number; maxMs: number };
}

export function limitsOf(policy: Policy): Limits {
	const { cooldown } = policy;
	const baseMs = cooldown === false ? 0 : (cooldown?.baseMs ?? HEALTH_DEFAULTS.baseMs);
	return {
		usdPerDay: policy.budget?.usdPerDay,
		usdPerCall: policy.budget?.usdPerCall,
		maxAttempts: policy.maxAttempts ?? WALK_DEFAULTS.maxAttempts,
		hedgeAfterMs: policy.hedgeAfterMs,
		// health.ts never uses a cap below the base.
		cooldown:
			cooldown === false ? false : { baseMs, maxMs: Math.max(baseMs, cooldown?.maxMs ?? HEALTH_DEFAULTS.maxMs) },
	};
}

const least = (a?: number, b?: number) => (a === undefined ? b : b === undefined ? a : Math.min(a, b));

/** Field by field the tighter: less money, fewer attempts, later (or no) hedging, longer cooldowns. */
export function tighter(a: Limits, b: Limits): Limits {
	const hedge = a.hedgeAfterMs === undefined || b.hedgeAfterMs === undefined;
	return {
		usdPerDay: least(a.usdPerDay, b.usdPerDay),
		usdPerCall: least(a.usdPerCall, b.usdPerCall),
		maxAttempts: Math.min(a.maxAttempts, b.maxAttempts),
		hedgeAfterMs: hedge ? undefined : Math.max(a.hedgeAfterMs!, b.hedgeAfterMs!),
		cooldown:
			a.cooldown === false
				? b.cooldown
				: b.cooldown === false
					? a.cooldown
					: {
							baseMs: Math.max(a.cooldown.baseMs, b.cooldown.baseMs),
							maxMs: Math.max(a.cooldown.maxMs, b.cooldown.maxMs),
						},
	};
}

/**
 * What a project rule is held to. It is tried before every global rule, so it can stand in for any of them: the
 * tightest of the global top level and each global rule's own policy over it.
 */
export function ruleFloor(global: Config): Limits {
	let floor = limitsOf(global.policy);
	for (const rule of global.rules)
		if (rule.policy) floor = tighter(floor, limitsOf(rulePolicy(global.policy, rule.policy)));
	return floor;
}

/** `policy` changed only where `limits` are tighter than what it says (its keys stay as written otherwise). */
function heldPolicy(policy: Policy, limits: Limits): Policy {
	const has = limitsOf(policy);
	const held = tighter(has, limits);
	const out: Policy = { ...policy };
	if (held.usdPerDay !== has.usdPerDay || held.usdPerCall !== has.usdPerCall)
		out.budget = budgetOf(held, policy.budget);
	if (held.maxAttempts !== has.maxAttempts) out.maxAttempts = held.maxAttempts;
	if (held.hedgeAfterMs === undefined) delete out.hedgeAfterMs;
	else if (held.hedgeAfterMs !== has.hedgeAfterMs) out.hedgeAfterMs = held.hedgeAfterMs;
	if (JSON.stringify(held.cooldown) !== JSON.stringify(has.cooldown)) out.cooldown = held.cooldown;
	return out;
}

function budgetOf(limits: Pick<Limits, "usdPerDay" | "usdPerCall">, kept?: Budget): Budget {
	const out: Budget = { ...kept };
	if (limits.usdPerDay !== undefined) out.usdPerDay = limits.usdPerDay;
	if (limits.usdPerCall !== undefined) out.usdPerCall = limits.usdPerCall;
	return out;
}

/** The top level: the project's keys over the global's, its limits held to the global's. */
export function heldTopPolicy(global: Policy, project: Policy): Policy {
	const merged: Policy = { ...global, ...project };
	const budget = budgetOf(
		{ usdPerDay: project.budget?.usdPerDay, usdPerCall: project.budget?.usdPerCall },
		global.budget,
	);
	if (Object.keys(budget).length > 0) merged.budget = budget;
	return heldPolicy(merged, limitsOf(global));
}

/**
 * A project rule's own policy such that, laid over `top` as plan() does, it is within `floor`. A rule that says
 * nothing gets one when the floor is tighter than the top level (a global rule it shadows is tighter).
 */
export function heldRulePolicy(top: Policy, own: Policy | undefined, floor: Limits): Policy | undefined {
	const effective = own ? rulePolicy(top, own) : top;
	const held = heldPolicy(effective, floor);
	if (JSON.stringify(held) === JSON.stringify(effective)) return own;
	// hedgeAfterMs absent from `held` means no hedging; the floor has none only when the global top level has none,
	// and then neither has `top` (held to it), so a rule without the key inherits none.
	const out: Policy = {};
	for (const [key, value] of Object.entries(held) as Array<[keyof Policy, unknown]>) {
		if (JSON.stringify(value) !== JSON.stringify(top[key]) || (own && key in own)) Object.assign(out, { [key]: value });
	}
	return out;
}

/** A provider's effective timeout: its own, its type's default, else the executor's. */
function timeoutOf(provider: ProviderConfig): number {
	return provider.timeoutMs ?? providerType(provider.type)?.defaults.timeoutMs ?? WALK_DEFAULTS.timeoutMs;
}

/**
 * A type option that bounds a call (`maxBytes`, `maxUses`, `maxPages`, `settleMs`, `idleMs`: numbers named max… or
 * …Ms) and its global value: the global file's, else the type's `default` annotation; undefined when neither is set.
 */
function boundOf(global: ProviderConfig, key: string): number | undefined {
	if (!/^max[A-Z]|Ms$/.test(key)) return undefined;
	const schema = providerType(global.type)?.options[key];
	if (schema?.type !== "integer" && schema?.type !== "number") return undefined;
	const own = global.options[key];
	if (typeof own === "number") return own;
	return typeof schema.default === "number" ? schema.default : undefined;
}

/** A global provider with a project's fields over it: its budget, timeout and bounding options held to the global's. */
export function heldProvider(global: ProviderConfig, project: ProviderConfig): ProviderConfig {
	const { name: _name, options, budget, timeoutMs, ...fields } = project;
	const held: Record<string, unknown> = { ...options };
	for (const [key, value] of Object.entries(held)) {
		const bound = boundOf(global, key);
		if (bound !== undefined && typeof value === "number" && value > bound) held[key] = bound;
	}
	const merged: ProviderConfig = { ...global, ...fields, options: { ...global.options, ...held } };
	const own = global.budget ?? {};
	const limit = budgetOf({
		usdPerDay: least(own.usdPerDay, budget?.usdPerDay),
		usdPerCall: least(own.usdPerCall, budget?.usdPerCall),
	});
	if (Object.keys(limit).length > 0) merged.budget = limit;
	if (timeoutMs !== undefined) merged.timeoutMs = Math.min(timeoutMs, timeoutOf(global));
	return merged;
}

/** One value a project file set looser than the global file allows. */
export interface Loosened {
	path: JsonPath;
	message: string;
}

type Obj = Record<string, unknown>;
const amount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

/** The values of a policy as written (`at` is its path) that are looser than `limits`. */
export function loosenedPolicy(value: unknown, at: JsonPath, limits: Limits, whose: string): Loosened[] {
	if (!isPlainObject(value)) return [];
	const out: Loosened[] = [];
	const over = (key: string, v: number, applies: number | string) =>
		out.push({ path: [...at, ...key.split(".")], message: `${key} ${v} is looser than ${whose} (${applies})` });
	if (isPlainObject(value.budget)) {
		for (const key of ["usdPerDay", "usdPerCall"] as const) {
			const v = value.budget[key];
			const limit = limits[key];
			if (amount(v) && limit !== undefined && v > limit) over(`budget.${key}`, v, `$${limit}`);
		}
	}
	const { maxAttempts, hedgeAfterMs, cooldown } = value;
	if (amount(maxAttempts) && maxAttempts > limits.maxAttempts) over("maxAttempts", maxAttempts, limits.maxAttempts);
	if (amount(hedgeAfterMs)) {
		if (limits.hedgeAfterMs === undefined) {
			out.push({ path: [...at, "hedgeAfterMs"], message: `hedgeAfterMs turns hedging on; ${whose} has none` });
		} else if (hedgeAfterMs < limits.hedgeAfterMs) over("hedgeAfterMs", hedgeAfterMs, `${limits.hedgeAfterMs} ms`);
	}
	if (limits.cooldown !== false) {
		if (cooldown === false) {
			out.push({ path: [...at, "cooldown"], message: `cooldown false turns cooldowns off; ${whose} has them` });
		} else if (isPlainObject(cooldown)) {
			for (const key of ["baseMs", "maxMs"] as const) {
				const v = cooldown[key];
				if (amount(v) && v < limits.cooldown[key]) over(`cooldown.${key}`, v, `${limits.cooldown[key]} ms`);
			}
		}
	}
	return out;
}

/** A provider override as written (`at` is its path) against the global provider it tunes. */
export function loosenedProvider(value: Obj, at: JsonPath, global: ProviderConfig): Loosened[] {
	const out: Loosened[] = [];
	const { timeoutMs, budget } = value;
	const whose = `the global file's "${global.name}"`;
	if (amount(timeoutMs) && timeoutMs > timeoutOf(global)) {
		out.push({
			path: [...at, "timeoutMs"],
			message: `timeoutMs ${timeoutMs} is longer than ${whose} (${timeoutOf(global)} ms)`,
		});
	}
	for (const [key, v] of Object.entries(value)) {
		const bound = boundOf(global, key);
		if (bound !== undefined && amount(v) && v > bound) {
			out.push({ path: [...at, key], message: `${key} ${v} is looser than ${whose} (${bound})` });
		}
	}
	const own = { ...limitsOf({}), usdPerDay: global.budget?.usdPerDay, usdPerCall: global.budget?.usdPerCall };
	if (isPlainObject(budget)) out.push(...loosenedPolicy({ budget }, at, own, whose));
	return out;
}
