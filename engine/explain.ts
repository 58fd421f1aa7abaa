// Dry-run views of a plan: a few lines of text for people (CLI and /web-access explain) and the JSON shape
// other tools read (`explain --json`). Field names of the JSON are a contract: add, never rename.

import type { Plan, Step } from "./request-types.ts";

/** A source reader a fetch step tries before the page: `{ reader: "github-issue", via: "api.github.com", fallback: "page" }`. */
export interface ReaderRoute {
	reader: string;
	via: string;
	fallback: string;
	/** For a reader whose source takes a token: the credential it sends, in words ("pi's GitHub login"). */
	credential?: string;
}

/** Which reader a step would use for the plan's URL (the composition root knows; the engine only shows it). */
export type ReaderRouteOf = (step: Step) => ReaderRoute | undefined;

export interface PlanJson {
	capability: Plan["capability"];
	request: {
		query?: string;
		url?: string;
		domains: string[];
		excludeDomains: string[];
		recency?: string;
		format?: string;
		links?: string;
	};
	source: Plan["source"];
	rule: Plan["rule"];
	chain: string[];
	steps: Array<{
		provider: string;
		type: string;
		status: "ready" | "skipped";
		reason?: string;
		extraction?: string;
		/** Set when the step runs only after an earlier one failed so: "an earlier step finds a page that needs JavaScript". */
		onlyWhen?: string;
		/** Set when the step reads this URL through a source's API first (explain fetch). */
		reader?: ReaderRoute;
	}>;
	warnings: string[];
}

/**
 * When no step is ready: "no provider can serve this call: grok has no credentials, exa cannot fetch PDFs".
 * Undefined when some step is ready.
 */
export function planVerdict(plan: Plan): string | undefined {
	if (plan.steps.some((s) => s.status === "ready")) return undefined;
	if (plan.steps.length === 0) return `no provider can serve this call: the ${plan.capability} chain is empty`;
	const why = plan.steps.map((s) => {
		const reason = s.reason ?? "not ready";
		const missing = /^no credentials(?:: (.*))?$/.exec(reason);
		if (missing) return `${s.provider} has no credentials${missing[1] ? ` (${missing[1]})` : ""}`;
		return `${s.provider} ${reason.startsWith("cannot") ? reason : `is skipped (${reason})`}`;
	});
	return `no provider can serve this call: ${why.join(", ")}`;
}

export function planToJson(plan: Plan, readerOf?: ReaderRouteOf): PlanJson {
	const r = plan.request;
	const request: PlanJson["request"] =
		r.kind === "search"
			? {
					query: r.query,
					domains: [...r.domains],
					excludeDomains: [...r.excludeDomains],
					...(r.recency ? { recency: r.recency } : {}),
				}
			: {
					url: r.url,
					domains: [],
					excludeDomains: [],
					...(r.format ? { format: r.format } : {}),
					...(r.links ? { links: r.links } : {}),
				};
	return {
		capability: plan.capability,
		request,
		source: plan.source,
		rule: plan.rule,
		chain: [...plan.chain],
		steps: plan.steps.map((s) => {
			const reader = readerOf?.(s);
			return {
				provider: s.provider,
				type: s.type,
				status: s.status,
				...(s.reason ? { reason: s.reason } : {}),
				...(s.extraction ? { extraction: s.extraction } : {}),
				...(s.onlyAfter ? { onlyWhen: s.onlyAfter.when } : {}),
				...(reader ? { reader: { ...reader } } : {}),
			};
		}),
		warnings: [...plan.warnings, ...[planVerdict(plan)].filter((v) => v !== undefined)],
	};
}

function describeRequest(plan: Plan): string {
	const r = plan.request;
	if (r.kind === "fetch") return `fetch ${r.url}${r.format && r.format !== "markdown" ? ` · format: ${r.format}` : ""}`;
	const parts = [`search ${JSON.stringify(r.query)}`];
	if (r.domains.length > 0) parts.push(`domains: ${r.domains.join(", ")}`);
	if (r.excludeDomains.length > 0) parts.push(`excluding: ${r.excludeDomains.join(", ")}`);
	if (r.recency) parts.push(`recency: ${r.recency}`);
	return parts.join(" · ");
}

function describeSource(plan: Plan): string {
	if (plan.source === "provider") return `provider named in the call: only ${plan.chain[0] ?? "?"} is tried`;
	if (plan.source === "default") {
		const why =
			plan.request.kind === "search" && plan.request.domains.length === 0 ? " (no domains, so no site rule)" : "";
		return `no rule matched${why}: default ${plan.capability} chain`;
	}
	const rule = plan.rule;
	if (!rule) return "rule";
	const how =
		rule.site === null
			? "by its other conditions"
			: plan.capability === "search"
				? `site ${rule.site} matches domain ${rule.matched}`
				: `site ${rule.site} matches the URL`;
	const where = rule.file ? ` in ${rule.file}` : "";
	return `rule "${rule.name}" (#${rule.index + 1}${where}) matched: ${how}`;
}

/** The plan as text: request, why this chain, then each step in attempt order with why it is skipped. */
export function explain(plan: Plan, readerOf?: ReaderRouteOf): string {
	const lines = [describeRequest(plan), describeSource(plan)];
	if (plan.steps.length === 0) lines.push("chain: (empty)");
	else lines.push(`chain: ${plan.chain.join(" → ")}`);
	plan.steps.forEach((step, i) => {
		const extraction = step.extraction === "model" ? " · extraction: model (a model writes the page out)" : "";
		const when = step.onlyAfter ? ` · only when ${step.onlyAfter.when}` : "";
		const status = step.status === "ready" ? `ready${when}` : `skipped: ${step.reason ?? "not ready"}`;
		lines.push(`  ${i + 1}. ${step.provider} (${step.type}) ${status}${extraction}`);
		const reader = readerOf?.(step);
		if (reader) {
			const credential = reader.credential ? ` (credential: ${reader.credential})` : "";
			lines.push(`     ${reader.reader} reader via ${reader.via}${credential}, fallback: ${reader.fallback}`);
		}
	});
	const policy = plan.policy;
	const notes: string[] = [];
	if (policy.hedgeAfterMs !== undefined) notes.push(`hedge after ${policy.hedgeAfterMs} ms`);
	if (policy.onEmpty) notes.push(`on empty: ${policy.onEmpty}`);
	if (policy.maxAttempts !== undefined) notes.push(`max attempts: ${policy.maxAttempts}`);
	if (policy.fallbackOn) notes.push(`falls back on: ${policy.fallbackOn.join(", ")}`);
	if (policy.budget?.usdPerDay !== undefined) notes.push(`budget: $${policy.budget.usdPerDay} a day`);
	if (policy.budget?.usdPerCall !== undefined) notes.push(`budget: $${policy.budget.usdPerCall} a call`);
	if (notes.length > 0) lines.push(`policy: ${notes.join(" · ")}`);
	for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
	const verdict = planVerdict(plan);
	if (verdict !== undefined) lines.push(`verdict: ${verdict}`);
	return lines.join("\n");
}
