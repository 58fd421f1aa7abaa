// One tool call: validate arguments, plan, run the chain with progress and cancellation, and turn the result
// into capped model-facing markdown plus structuredContent in exactly the executor's shape.

import { isWebAccessError } from "../engine/errors.ts";
import { plan } from "../engine/plan.ts";
import { type FetchInput, fetchRequest, RequestError, type SearchInput, searchRequest } from "../engine/requests.ts";
import type { FetchResult, Plan, SearchResult, WebRequest } from "../engine/types.ts";
import { formatFetch, formatSearch, guardOutput, OUTPUT_DEFAULTS } from "../runtime/format.ts";
import type { PiContextLike } from "./host.ts";
import type { ToolDetails } from "./render.ts";
import type { ToolDeps } from "./tools.ts";

type Progress =
	| ((update: { content: Array<{ type: "text"; text: string }>; details: ToolDetails }) => void)
	| undefined;

/** Arguments go to the shared validators as they came: a wrong type is reported there, never silently dropped. */
function toRequest(kind: "search" | "fetch", input: Record<string, unknown>): WebRequest {
	return kind === "fetch"
		? fetchRequest(input as unknown as FetchInput)
		: searchRequest(input as unknown as SearchInput);
}

/** Before any network: an unknown provider name, or a chain with nothing usable, fails with what to do. */
function checkPlan(thePlan: Plan, configured: string[]): void {
	const first = thePlan.steps[0];
	if (thePlan.source === "provider" && first?.reason === "not configured") {
		throw new Error(
			`provider "${first.provider}" is not configured; configured: ${configured.join(", ") || "(none)"} — see /web-access`,
		);
	}
	if (thePlan.steps.every((s) => s.status === "skipped")) {
		const what = thePlan.steps.map((s) => `${s.provider} (${s.reason ?? "not ready"})`).join(", ");
		throw new Error(
			`no ${thePlan.capability} provider is usable${what ? `: ${what}` : ""} — see /web-access to set one up`,
		);
	}
}

/**
 * Shrinks a fetch window so the whole model-facing text fits `maxChars`, moving nextOffset back to match:
 * the model then continues exactly where the shown text stops.
 */
export function fitFetch(result: FetchResult, offset: number, maxChars: number, fetchTool = "web_fetch"): FetchResult {
	const warning = (next: number) =>
		`text cut to fit the output limit (${maxChars} characters); continue at offset ${next}`;
	// Measured with the warning a cut adds and the largest next offset (the most digits), so the cut text fits too.
	const widest = offset + result.content.length;
	const shell = {
		...result,
		content: "",
		nextOffset: widest,
		truncated: true,
		warnings: [...result.warnings, warning(widest)],
	};
	const overhead = formatFetch(shell, fetchTool).length;
	const room = Math.max(0, maxChars - overhead - 16);
	if (result.content.length <= room) return result;
	const cut = result.content.slice(0, room);
	return {
		...result,
		content: cut,
		truncated: true,
		nextOffset: offset + cut.length,
		warnings: [...result.warnings, warning(offset + cut.length)],
	};
}

export async function runTool(
	kind: "search" | "fetch",
	input: Record<string, unknown>,
	signal: AbortSignal | undefined,
	onUpdate: Progress,
	ctx: PiContextLike,
	deps: ToolDeps,
) {
	let request: WebRequest;
	try {
		request = toRequest(kind, input);
	} catch (error) {
		if (error instanceof RequestError)
			throw new Error(`${kind === "search" ? deps.names.search : deps.names.fetch}: ${error.message}`);
		throw error;
	}
	const host = await deps.host(ctx);
	host.useContext(ctx);
	const setup = host.setup();
	const thePlan = plan(setup.table, request, setup.context);
	checkPlan(
		thePlan,
		setup.table.config.providers.map((p) => p.name),
	);
	const progress: string[] = [];
	let result: SearchResult | FetchResult;
	try {
		result = await host.services.run(thePlan, {
			...(signal ? { signal } : {}),
			onProgress: (line) => {
				progress.push(line);
				onUpdate?.({ content: [{ type: "text", text: line }], details: { progress: [...progress] } });
			},
		});
	} catch (error) {
		const message = (error as Error).message;
		if (isWebAccessError(error) && error.kind === "cancelled") throw new Error(`${kind} cancelled`);
		throw new Error(`${message} — see /web-access`);
	}
	const maxChars = setup.table.config.output?.maxChars ?? OUTPUT_DEFAULTS.maxChars;
	if (kind === "fetch")
		result = fitFetch(result as FetchResult, request.kind === "fetch" ? request.offset : 0, maxChars, deps.names.fetch);
	const text =
		kind === "search" ? formatSearch(result as SearchResult) : formatFetch(result as FetchResult, deps.names.fetch);
	const next = kind === "fetch" ? (result as FetchResult).nextOffset : undefined;
	const how =
		kind === "fetch"
			? `call ${deps.names.fetch} with a smaller maxChars${next !== undefined ? ` or offset ${next}` : ""} for the rest`
			: "ask for fewer results or leave includeContent off";
	const truncate = deps.truncate ?? (await import("@earendil-works/pi-coding-agent")).truncateHead;
	const guarded = guardOutput(text, maxChars, truncate, how);
	return {
		content: [{ type: "text" as const, text: guarded.text }],
		details: { result, ...(guarded.truncated ? { outputTruncated: true } : {}) } as ToolDetails,
		structuredContent: result as unknown as Record<string, never>,
	};
}
