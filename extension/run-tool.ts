// One tool call: validate arguments, plan, run the chain with progress and cancellation, and turn the result
// into capped model-facing markdown plus structuredContent in exactly the executor's shape. A failure is returned
// as an error result (isError) whose structuredContent says what kind it is and what to do next (runtime/failure.ts).

import { isWebAccessError, WebAccessError } from "../engine/errors.ts";
import { OUTPUT_DEFAULTS } from "../engine/limits.ts";
import { plan } from "../engine/plan.ts";
import type { Plan, WebRequest } from "../engine/request-types.ts";
import { type FetchInput, fetchRequest, RequestError, type SearchInput, searchRequest } from "../engine/requests.ts";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import { describeFailure, toolWording } from "../runtime/failure.ts";
import { modelText } from "../runtime/format.ts";
import { noUsableProviderMessage } from "../runtime/guidance.ts";
import type { Setup } from "../runtime/setup.ts";
import type { PiContextLike } from "./host.ts";
import type { ToolDetails } from "./render.ts";
import { configErrorNote } from "./report-diagnostics.ts";
import type { Progress, ToolDeps } from "./tool-deps.ts";

/** Arguments go to the shared validators as they came: a wrong type is reported there, never silently dropped. */
function toRequest(kind: "search" | "fetch", input: Record<string, unknown>): WebRequest {
	return kind === "fetch"
		? fetchRequest(input as unknown as FetchInput)
		: searchRequest(input as unknown as SearchInput);
}

/** Before any network: an unknown provider name, or a chain with nothing usable, fails with what to do. */
function checkPlan(thePlan: Plan, configured: string[], setup: Setup): void {
	const first = thePlan.steps[0];
	if (thePlan.source === "provider" && first?.reason === "not configured") {
		throw new WebAccessError(
			`provider "${first.provider}" is not configured; configured: ${configured.join(", ") || "(none)"} — see /web-access`,
			{ kind: "usage", code: "not-configured" },
		);
	}
	const none = noUsableProviderMessage(thePlan, setup, "/web-access (the user can run it)");
	if (none !== undefined) {
		throw new WebAccessError(`${none}${configErrorNote(setup)}`, {
			kind: "chain",
			code: "none-usable",
			attempts: thePlan.steps.map((s) => ({
				provider: s.provider,
				outcome: "skipped",
				reason: s.reason ?? "not ready",
			})),
		});
	}
}

/** The error result the model sees: the message, one line of next action, and the same as structuredContent. */
function failed(error: unknown, kind: "search" | "fetch", deps: ToolDeps, setup?: Setup, thePlan?: Plan) {
	const tool = kind === "search" ? deps.names.search : deps.names.fetch;
	const described = describeFailure(error, {
		...(setup ? { setup } : {}),
		...(thePlan ? { plan: thePlan } : {}),
		capability: kind,
		wording: toolWording(tool),
	});
	const { failure } = described;
	// A config with errors is named on the failure's first line (the last line stays the next action).
	const note = setup && !(isWebAccessError(error) && error.code === "none-usable") ? configErrorNote(setup) : "";
	const text = note ? described.text.replace(/\n|$/, `${note}\n`).replace(/\n$/, "") : described.text;
	return {
		content: [{ type: "text" as const, text: error instanceof RequestError ? `${tool}: ${text}` : text }],
		details: { failure } as ToolDetails,
		structuredContent: failure as unknown as Record<string, never>,
		isError: true,
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
		if (error instanceof RequestError) return failed(error, kind, deps);
		throw error;
	}
	const host = await deps.host(ctx);
	host.useContext(ctx);
	const setup = host.setup();
	const thePlan = plan(setup.table, request, setup.context);
	try {
		checkPlan(
			thePlan,
			setup.table.config.providers.map((p) => p.name),
			setup,
		);
	} catch (error) {
		return failed(error, kind, deps, setup, thePlan);
	}
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
		// A cancelled call ends the turn: pi does not call the model again, so there is nothing to advise.
		if ((isWebAccessError(error) && error.kind === "cancelled") || signal?.aborted)
			throw new Error(`${kind} cancelled`);
		return failed(error, kind, deps, setup, thePlan);
	}
	const maxChars = setup.table.config.output?.maxChars ?? OUTPUT_DEFAULTS.maxChars;
	const truncate = deps.truncate ?? (await import("@earendil-works/pi-coding-agent")).truncateHead;
	// The structured result is the window the model was shown, so its nextOffset matches the text.
	const shown = modelText(result, request, { maxChars, truncate, fetchTool: deps.names.fetch });
	return {
		content: [{ type: "text" as const, text: shown.text }],
		details: { result: shown.result, ...(shown.truncated ? { outputTruncated: true } : {}) } as ToolDetails,
		structuredContent: shown.result as unknown as Record<string, never>,
	};
}
