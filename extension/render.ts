// Compact TUI rendering: one line while running and when collapsed (`✓ 5 results · exa · 812 ms`,
// `✗ failed (rate-limit)`, `✗ fetch cancelled`), titles and URLs when expanded. pi-tui is imported only in TUI sessions
// (preloadRender at session_start): print, json and rpc modes never render, and never load it.

import type { Text } from "@earendil-works/pi-tui";
import type { FetchResult, SearchResult } from "../engine/result-types.ts";
import { thousands } from "../engine/thousands.ts";
import type { CallFailure } from "../runtime/failure.ts";
import { terminalSafe } from "../runtime/terminal-safe.ts";

let TextComponent: typeof Text | undefined;

/** Loads pi-tui's Text for rendering; pi has it loaded already in a TUI session, so this is quick. */
export async function preloadRender(): Promise<void> {
	TextComponent ??= (await import("@earendil-works/pi-tui")).Text;
}

/** What tool results carry in `details` (partial updates carry progress only). */
export interface ToolDetails {
	result?: SearchResult | FetchResult;
	/** Set on an error result: the same structure the model's structuredContent carries. */
	failure?: CallFailure;
	progress?: string[];
	outputTruncated?: boolean;
}

interface ThemeLike {
	fg(color: string, text: string): string;
	bold(text: string): string;
}

interface ResultLike {
	content: Array<{ type: string; text?: string }>;
	details?: ToolDetails;
}

interface Options {
	expanded?: boolean;
	isPartial?: boolean;
}

interface RenderContext {
	lastComponent?: unknown;
	isError?: boolean;
}

/** The last render's component again, else a new one; the host draws only after preloadRender (pi-web-access/index.ts). */
function text(context: RenderContext, value: string): Text {
	if (!TextComponent) throw new Error("pi-web-access: rendering before preloadRender");
	const last = context.lastComponent;
	const component = last instanceof TextComponent ? last : new TextComponent("", 0, 0);
	component.setText(value);
	return component;
}

/** Every value drawn comes from the model, a backend, a page or the config: terminal-safe before the theme's colours. */
const safe = terminalSafe;
const clip = (text: string, n: number) => {
	const s = safe(text);
	return s.length > n ? `${s.slice(0, n - 1)}…` : s;
};

export function renderSearchCall(
	args: { query?: string; domains?: string[] },
	theme: ThemeLike,
	context: RenderContext,
	name = "web_search",
) {
	const where = args.domains && args.domains.length > 0 ? theme.fg("dim", ` · ${safe(args.domains.join(", "))}`) : "";
	return text(
		context,
		`${theme.fg("toolTitle", theme.bold(`${name} `))}${theme.fg("accent", clip(args.query ?? "", 80))}${where}`,
	);
}

export function renderFetchCall(
	args: { url?: string; offset?: number },
	theme: ThemeLike,
	context: RenderContext,
	name = "web_fetch",
) {
	const offset = args.offset ? theme.fg("dim", ` @${args.offset}`) : "";
	return text(
		context,
		`${theme.fg("toolTitle", theme.bold(`${name} `))}${theme.fg("accent", clip(args.url ?? "", 100))}${offset}`,
	);
}

function partial(result: ResultLike, theme: ThemeLike, context: RenderContext) {
	const last = result.details?.progress?.at(-1) ?? result.content[0]?.text ?? "working…";
	return text(context, theme.fg("warning", `… ${clip(last, 120)}`));
}

function failure(result: ResultLike, theme: ThemeLike, context: RenderContext, expanded: boolean | undefined) {
	const message = safe(result.content.map((c) => c.text ?? "").join(" "));
	const kind = result.details?.failure?.kind;
	// Without a failure's structure it is pi's own result for an error the call threw (a cancelled call says
	// "fetch cancelled"): its message is the line.
	const said = message.split("\n")[0]?.trim();
	const collapsed = kind ? `✗ failed (${kind})` : `✗ ${said ? clip(said, 100) : "failed"}`;
	return text(context, theme.fg("error", expanded ? `✗ ${message}` : collapsed));
}

export function renderSearchResult(result: ResultLike, options: Options, theme: ThemeLike, context: RenderContext) {
	if (options.isPartial) return partial(result, theme, context);
	const r = result.details?.result as SearchResult | undefined;
	if (context.isError || !r) return failure(result, theme, context, options.expanded);
	const cached = r.cached ? " · cached" : "";
	let line = theme.fg("success", `✓ ${r.results.length} result${r.results.length === 1 ? "" : "s"}`);
	line += theme.fg("dim", ` · ${safe(r.provider)} · ${r.latencyMs} ms${cached}`);
	if (options.expanded) {
		for (const item of r.results)
			line += `\n  ${theme.fg("accent", clip(item.title || item.url, 100))}\n  ${theme.fg("dim", safe(item.url))}`;
		for (const w of r.warnings) line += `\n  ${theme.fg("warning", safe(w))}`;
	}
	return text(context, line);
}

/** A /web-access report in the conversation: a session entry (extension/command.ts), never the model's. */
export function renderReport(data: { text?: unknown; level?: unknown } | undefined, theme: ThemeLike) {
	const body = typeof data?.text === "string" ? data.text : "";
	const color = data?.level === "error" ? "error" : data?.level === "warning" ? "warning" : "text";
	return text({}, `${theme.fg("accent", theme.bold("web-access"))}\n${theme.fg(color, body)}`);
}

export function renderFetchResult(result: ResultLike, options: Options, theme: ThemeLike, context: RenderContext) {
	if (options.isPartial) return partial(result, theme, context);
	const r = result.details?.result as FetchResult | undefined;
	if (context.isError || !r) return failure(result, theme, context, options.expanded);
	const more = r.truncated && r.nextOffset !== undefined ? ` · more from ${r.nextOffset}` : "";
	let line = theme.fg("success", `✓ ${thousands(r.content.length)} chars`);
	line += theme.fg("dim", ` · ${safe(r.provider)} · ${r.latencyMs} ms${more}`);
	if (options.expanded) {
		if (r.title) line += `\n  ${theme.fg("accent", safe(r.title))}`;
		line += `\n  ${theme.fg("dim", safe(r.finalUrl ?? r.url))}`;
		for (const w of r.warnings) line += `\n  ${theme.fg("warning", safe(w))}`;
	}
	return text(context, line);
}
