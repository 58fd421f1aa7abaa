// Spend: what each answered attempt cost (a reported `costUsd` wins over the type's declared price), summed per
// provider per UTC day (persisted with the state) and per session (this process), and the budget check that
// skips a paid provider once a limit is reached. Amounts only: nothing here ever sees a key.

import type { Budget } from "../engine/config-types.ts";
import type { CostModel } from "../providers/contract.ts";

/** One provider's spend over a period. */
export interface SpendEntry {
	provider: string;
	usd: number;
	/** Answered attempts charged. */
	calls: number;
	/** True when any amount in the sum is an estimate (no cost reported). */
	estimated?: boolean;
}

/** What the state file keeps: today's sums. A day other than today is ignored on load. */
export interface SpendDay {
	/** UTC date, YYYY-MM-DD. */
	day: string;
	providers: SpendEntry[];
}

export interface SpendReport {
	day: string;
	todayUsd: number;
	sessionUsd: number;
	today: SpendEntry[];
	session: SpendEntry[];
}

export interface SpendBook {
	/** Adds what one answer cost and returns the amount (an estimate when no cost was reported). */
	charge(provider: string, cost: CostModel | undefined, answer: unknown): { usd: number; estimated: boolean };
	/** Today's spend of one provider, or of all when `provider` is omitted. */
	todayUsd(provider?: string): number;
	report(): SpendReport;
	persisted(): SpendDay;
	load(saved: SpendDay): void;
}

const DAY_MS = 86_400_000;

/** The day's sums with more entries added in, provider by provider (a copy: neither input changes). */
export function addSpend(day: SpendDay, more: Iterable<SpendEntry>): SpendDay {
	const providers = day.providers.map((entry) => ({ ...entry }));
	for (const entry of more) {
		const known = providers.find((p) => p.provider === entry.provider);
		if (known === undefined) providers.push({ ...entry });
		else {
			known.usd += entry.usd;
			known.calls += entry.calls;
			if (entry.estimated) known.estimated = true;
		}
	}
	return { day: day.day, providers };
}

/** The last day asked for and where it starts and ends: every call asks (a Date and its ISO text each time cost µs). */
let lastDay = { startMs: 0, endMs: 0, day: "" };

/** `YYYY-MM-DD` of an epoch ms, in UTC (so the day does not move with the machine's time zone). */
export function utcDay(ms: number): string {
	if (ms >= lastDay.startMs && ms < lastDay.endMs) return lastDay.day;
	const startMs = Math.floor(ms / DAY_MS) * DAY_MS;
	const day = new Date(ms).toISOString().slice(0, 10);
	if (Number.isFinite(startMs)) lastDay = { startMs, endMs: startMs + DAY_MS, day };
	return day;
}

/** `$0.50`, `$1.23`; under a dollar two significant digits are kept (`$0.035`, `$0.00075`). */
export function formatUsd(usd: number): string {
	if (usd === 0 || usd >= 1) return `$${usd.toFixed(2)}`;
	const text = String(Number(usd.toPrecision(2)));
	const decimals = text.split(".")[1]?.length ?? 0;
	return `$${decimals < 2 ? Number(text).toFixed(2) : text}`;
}

export function isPaid(cost: CostModel | undefined): boolean {
	return cost !== undefined && cost.basis !== "free";
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What one answer cost: the reported amount, else the declared price (per request, or per result returned). */
export function chargeOf(cost: CostModel | undefined, answer: unknown): { usd: number; estimated: boolean } {
	const reported = isRecord(answer) ? answer.costUsd : undefined;
	if (typeof reported === "number" && Number.isFinite(reported) && reported >= 0) {
		return { usd: reported, estimated: false };
	}
	if (cost === undefined || cost.basis === "free" || cost.usd === undefined) return { usd: 0, estimated: false };
	const results = isRecord(answer) && Array.isArray(answer.results) ? answer.results.length : undefined;
	const empty = results === 0 && !(isRecord(answer) && typeof answer.answer === "string" && answer.answer.trim());
	if (empty && cost.emptyFree) return { usd: 0, estimated: false };
	const units = cost.basis === "per-result" ? (results ?? 1) : 1;
	return { usd: cost.usd * units, estimated: true };
}

/** Parses the persisted `spend` of a state file; anything malformed is dropped. */
export function parseSpendDay(value: unknown): SpendDay | undefined {
	if (!isRecord(value) || typeof value.day !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value.day)) return undefined;
	const providers: SpendEntry[] = [];
	for (const entry of Array.isArray(value.providers) ? value.providers : []) {
		if (!isRecord(entry) || typeof entry.provider !== "string") continue;
		const { usd, calls } = entry;
		if (typeof usd !== "number" || !Number.isFinite(usd) || usd < 0) continue;
		const count = typeof calls === "number" && Number.isInteger(calls) && calls >= 0 ? calls : 0;
		providers.push({
			provider: entry.provider,
			usd,
			calls: count,
			...(entry.estimated === true ? { estimated: true } : {}),
		});
	}
	return { day: value.day, providers };
}

function add(book: Map<string, SpendEntry>, provider: string, usd: number, estimated: boolean): void {
	const entry = book.get(provider) ?? { provider, usd: 0, calls: 0 };
	entry.usd += usd;
	entry.calls += 1;
	if (estimated && usd > 0) entry.estimated = true;
	book.set(provider, entry);
}

const copy = (book: Map<string, SpendEntry>): SpendEntry[] => [...book.values()].map((entry) => ({ ...entry }));
const total = (book: Map<string, SpendEntry>): number => [...book.values()].reduce((sum, e) => sum + e.usd, 0);

export function createSpendBook(now: () => number): SpendBook {
	let day = utcDay(now());
	const today = new Map<string, SpendEntry>();
	const session = new Map<string, SpendEntry>();
	/** A new UTC day starts today's sums from zero; the session keeps counting (utcDay formats no date within a day). */
	const roll = () => {
		const current = utcDay(now());
		if (current === day) return;
		day = current;
		today.clear();
	};
	return {
		charge(provider, cost, answer) {
			roll();
			const { usd, estimated } = chargeOf(cost, answer);
			add(today, provider, usd, estimated);
			add(session, provider, usd, estimated);
			return { usd, estimated };
		},
		todayUsd(provider) {
			roll();
			return provider === undefined ? total(today) : (today.get(provider)?.usd ?? 0);
		},
		report() {
			roll();
			return { day, todayUsd: total(today), sessionUsd: total(session), today: copy(today), session: copy(session) };
		},
		persisted() {
			roll();
			return { day, providers: copy(today) };
		},
		load(saved) {
			roll();
			if (saved.day !== day) return;
			// Another process's spend of today (a shared store) may reach a provider this one has not charged yet.
			today.clear();
			for (const entry of saved.providers) today.set(entry.provider, { ...entry });
		},
	};
}

export interface BudgetCheck {
	provider: string;
	cost: CostModel | undefined;
	/** The provider's own `budget`. */
	own?: Budget;
	/** The plan's policy budget (top level with the rule's overrides). */
	policy?: Budget;
	/** What this call has spent so far. */
	callUsd: number;
	/** The declared price of this call's requests still in flight (a hedge is sent beside them). */
	inFlightUsd?: number;
}

/** The declared price of one request, when the type declares one per request (or reports it); else undefined. */
export function requestPrice(cost: CostModel | undefined): number | undefined {
	return cost?.basis === "per-request" || cost?.basis === "reported" ? cost.usd : undefined;
}

/** What the attempts still running will cost at their declared price: a hedge is checked against it too. */
export function inFlightUsd(running: ReadonlyArray<{ binding: { definition: { cost?: CostModel } } }>): number {
	let usd = 0;
	for (const run of running) usd += requestPrice(run.binding.definition.cost) ?? 0;
	return usd;
}

/** Why a paid provider must be skipped now, e.g. `budget reached: $0.50 of $0.50 today`; undefined when it may run. */
export function budgetSkip(check: BudgetCheck, book: SpendBook): string | undefined {
	if (!isPaid(check.cost)) return undefined;
	const reached = (spent: number, limit: number, when: string) =>
		`budget reached: ${formatUsd(spent)} of ${formatUsd(limit)} ${when}`;
	const ownDay = check.own?.usdPerDay;
	if (ownDay !== undefined && book.todayUsd(check.provider) >= ownDay) {
		return reached(book.todayUsd(check.provider), ownDay, "today (the provider's own budget)");
	}
	const inFlight = check.inFlightUsd ?? 0;
	const flying = inFlight > 0 ? ` with ${formatUsd(inFlight)} in flight` : "";
	const estimate = requestPrice(check.cost);
	const day = check.policy?.usdPerDay;
	if (day !== undefined) {
		const today = book.todayUsd() + inFlight;
		if (today >= day) return reached(today, day, `today${flying}`);
		// Beside a request in flight (a hedge), one that would pass the day's limit is not sent.
		if (inFlight > 0 && estimate !== undefined && today + estimate > day) {
			return `budget: ${formatUsd(estimate)} per request would exceed ${formatUsd(day)} today${flying}`;
		}
	}
	const ownCall = check.own?.usdPerCall;
	const policyCall = check.policy?.usdPerCall;
	if (ownCall === undefined && policyCall === undefined) return undefined;
	const limit = Math.min(ownCall ?? Number.POSITIVE_INFINITY, policyCall ?? Number.POSITIVE_INFINITY);
	const call = check.callUsd + inFlight;
	if (call >= limit) return reached(call, limit, `this call${flying}`);
	if (estimate !== undefined && call + estimate > limit) {
		return `budget: ${formatUsd(estimate)} per request would exceed ${formatUsd(limit)} per call${flying}`;
	}
	return undefined;
}
