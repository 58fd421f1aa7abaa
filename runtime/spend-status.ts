// The spend part of status: today's (UTC, from the persisted state) and this session's spend per provider, each
// type's price with where it is stated ("estimated" when no doc states it), and the budgets that apply.

import type { Budget, Config } from "../engine/config-types.ts";
import { formatUsd, type SpendDay, type SpendEntry, type SpendReport, utcDay } from "../executor/spend.ts";
import type { CostModel } from "../providers/contract.ts";
import { providerType } from "../providers/registry.ts";

export interface ProviderSpend {
	provider: string;
	todayUsd: number;
	todayCalls: number;
	sessionUsd: number;
	sessionCalls: number;
	/** True when part of a sum is an estimate (the backend reported no cost). */
	estimated: boolean;
	/** The type's price, e.g. "$0.00075 a request (docs/providers/deepseek.md)". */
	price: string;
	cost?: CostModel;
	budget?: Budget;
	/** What the provider's own usdPerDay leaves today, over every process sharing the state store. */
	headroomUsd?: number;
	paid?: "explicit";
}

export interface SpendStatus {
	/** Today, UTC (YYYY-MM-DD). */
	day: string;
	todayUsd: number;
	sessionUsd: number;
	budget?: Budget;
	/** What the usdPerDay budget leaves today, over every process sharing the state store. */
	headroomUsd?: number;
	providers: ProviderSpend[];
}

/** One line describing how a type is charged. Reported cost wins over the estimate. */
export function priceText(cost: CostModel | undefined): string {
	if (cost === undefined || cost.basis === "free") return "free";
	const per = cost.basis === "per-result" ? "a result" : "a request";
	const price = cost.usd === undefined ? undefined : `${formatUsd(cost.usd)} ${per}`;
	if (cost.basis === "reported") {
		const from = cost.source && cost.source !== "estimated" ? ` (${cost.source})` : "";
		return `reported by the backend${from}${price ? `, else ${price} (estimated)` : ", else $0"}`;
	}
	return `${price ?? "$0"} (${cost.source ?? "estimated"})`;
}

const headroom = (limit: number, spent: number) => Math.max(0, limit - spent);

const find = (entries: SpendEntry[], provider: string) => entries.find((e) => e.provider === provider);

export function spendStatus(
	config: Config,
	saved: SpendDay | undefined,
	session: SpendReport | undefined,
	nowMs: number,
): SpendStatus {
	const day = utcDay(nowMs);
	const today = saved?.day === day ? saved.providers : [];
	const mine = session?.session ?? [];
	const providers = config.providers.map((p): ProviderSpend => {
		const cost = providerType(p.type)?.cost;
		const t = find(today, p.name);
		const s = find(mine, p.name);
		return {
			provider: p.name,
			todayUsd: t?.usd ?? 0,
			todayCalls: t?.calls ?? 0,
			sessionUsd: s?.usd ?? 0,
			sessionCalls: s?.calls ?? 0,
			estimated: Boolean(t?.estimated || s?.estimated),
			price: priceText(cost),
			...(cost ? { cost } : {}),
			...(p.budget ? { budget: p.budget } : {}),
			...(p.budget?.usdPerDay === undefined ? {} : { headroomUsd: headroom(p.budget.usdPerDay, t?.usd ?? 0) }),
			...(p.paid ? { paid: p.paid } : {}),
		};
	});
	const sum = (entries: SpendEntry[]) => entries.reduce((total, e) => total + e.usd, 0);
	const perDay = config.policy.budget?.usdPerDay;
	return {
		day,
		todayUsd: sum(today),
		sessionUsd: sum(mine),
		...(config.policy.budget ? { budget: config.policy.budget } : {}),
		...(perDay === undefined ? {} : { headroomUsd: headroom(perDay, sum(today)) }),
		providers,
	};
}

function budgetText(budget: Budget | undefined): string {
	if (budget === undefined) return "";
	const parts = [
		budget.usdPerDay !== undefined ? `${formatUsd(budget.usdPerDay)} a day` : "",
		budget.usdPerCall !== undefined ? `${formatUsd(budget.usdPerCall)} a call` : "",
	].filter(Boolean);
	return parts.length > 0 ? ` · budget ${parts.join(", ")}` : "";
}

const calls = (n: number) => `${n} call${n === 1 ? "" : "s"}`;

export function spendLines(spend: SpendStatus): string[] {
	const lines = [
		`spend today (${spend.day} UTC): ${formatUsd(spend.todayUsd)} · this session: ${formatUsd(spend.sessionUsd)}${budgetText(spend.budget)}`,
	];
	for (const p of spend.providers) {
		const used = p.todayCalls > 0 || p.sessionCalls > 0;
		const estimated = p.estimated ? " (partly estimated)" : "";
		const sums = used
			? `today ${formatUsd(p.todayUsd)} (${calls(p.todayCalls)}) · session ${formatUsd(p.sessionUsd)} (${calls(p.sessionCalls)})${estimated} · `
			: "";
		const explicit = p.paid === "explicit" ? " · paid: explicit (only when named)" : "";
		lines.push(`  ${p.provider}: ${sums}price: ${p.price}${budgetText(p.budget)}${explicit}`);
	}
	const left = [
		...(spend.headroomUsd === undefined ? [] : [`${formatUsd(spend.headroomUsd)} of the day budget`]),
		...spend.providers
			.filter((p) => p.headroomUsd !== undefined)
			.map((p) => `${p.provider} ${formatUsd(p.headroomUsd ?? 0)}`),
	];
	if (left.length > 0) lines.push(`  budget headroom today (every process of the store): ${left.join(" · ")}`);
	return lines;
}
