// What the tool factories (pi-web-access/index.ts) are given and what a running call (extension/run-tool.ts) uses:
// its own file, so the factory and the lazily loaded call module do not import each other.

import type { Host, PiContextLike } from "./host.ts";
import type * as Rendering from "./render.ts";
import type { ToolDetails } from "./render.ts";

/** The tool factories' injectable dependencies. */
export interface ToolDeps {
	/** The live host (loaded lazily on first use). */
	host(ctx: PiContextLike): Promise<Host>;
	/** pi's truncateHead (or a stand-in in tests); loaded lazily from pi when absent. */
	truncate?: (text: string, options: { maxBytes: number; maxLines: number }) => { content: string; truncated: boolean };
	/** Registered tool names (config `tools.*.name`), so descriptions name the right tool. */
	names: { search: string; fetch: string };
	/**
	 * The TUI's renderers (render.ts), loaded at a TUI session's start (pi-web-access/index.ts). Until then it throws, and
	 * pi draws the call with its own fallback; absent, the tools always leave drawing to pi.
	 */
	rendering?: () => typeof Rendering;
}

/** pi's onUpdate for a running tool call: partial content and details while the call runs. */
export type Progress =
	| ((update: { content: Array<{ type: "text"; text: string }>; details: ToolDetails }) => void)
	| undefined;
