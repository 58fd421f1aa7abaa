// pi-web-access for pi: registers web_search and web_fetch and the /web-access command. Start-up stays cheap: pi
// loads only the tool definitions and this factory (test/startup-modules.test.ts); the command's work, rendering,
// the config, executor and providers load on first use or in the background once pi is idle, never in this factory.

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { configPath } from "../runtime/files.ts";
import { COMMAND_HELP, REPORT_ENTRY_TYPE, type ReportEntry } from "./command-info.ts";
import type { Host, PiContextLike } from "./host.ts";
import type * as Rendering from "./render.ts";
import type { ToolDeps } from "./tool-deps.ts";
import { createWebFetchTool, createWebSearchTool } from "./tools.ts";

interface ToolSetting {
	name: string;
	enabled: boolean;
}

const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/**
 * How long after session_start the host starts loading in the background. pi has finished its own start-up by
 * then and is usually waiting on the model; a one-shot run that is over sooner never pays for the load (the
 * timer does not keep the process alive), and a tool call or command before it loads the host at once.
 */
export const WARM_DELAY_MS = 1000;

type ToolsSection = { tools?: Record<string, { name?: unknown; enabled?: unknown }> };

/** Reads only `tools` from the config (names must be known before pi starts); any problem → defaults. */
export function toolSettings(env: Record<string, string | undefined> = process.env): {
	search: ToolSetting;
	fetch: ToolSetting;
	/** The file exists but is not JSON5 at all: session_start reports it at once where there is no UI. */
	unparsable: boolean;
} {
	const settings = {
		search: { name: "web_search", enabled: true },
		fetch: { name: "web_fetch", enabled: true },
		unparsable: false,
	};
	try {
		const text = readFileSync(configPath({ env }), "utf8");
		let parsed: ToolsSection;
		try {
			parsed = JSON.parse(text) as ToolsSection;
		} catch {
			// JSON5 (comments, trailing commas) only when plain JSON fails: json5 is not loaded otherwise.
			const JSON5 = createRequire(import.meta.url)("json5") as { parse(text: string): unknown };
			try {
				parsed = JSON5.parse(text) as ToolsSection;
			} catch {
				settings.unparsable = true;
				return settings;
			}
		}
		for (const [key, slot] of [
			["web_search", settings.search],
			["web_fetch", settings.fetch],
		] as const) {
			const given = parsed?.tools?.[key];
			if (typeof given?.name === "string" && TOOL_NAME.test(given.name)) slot.name = given.name;
			if (given?.enabled === false) slot.enabled = false;
		}
	} catch {
		// No file, or a broken one: the full loader reports it at session_start.
	}
	return settings;
}

type Notify = (message: string, level: "info" | "warning" | "error") => void;
interface UiContext extends PiContextLike {
	ui?: { notify?: Notify };
}

export default function piWebAccess(pi: ExtensionAPI): void {
	const settings = toolSettings();
	let hostPromise: Promise<Host> | undefined;
	let notify: Notify = () => {};
	let warmTimer: NodeJS.Timeout | undefined;
	let reported = false;
	let rendering: typeof Rendering | undefined;
	let safe: ((text: string) => string) | undefined;

	let renderingLoad: Promise<void> | undefined;
	/** render.ts with pi-tui's Text, loaded once: a TUI session's start awaits it, so pi draws nothing of ours before it. */
	const loadRendering = () => {
		if (renderingLoad === undefined) {
			renderingLoad = import("./render.ts").then(async (module) => {
				await module.preloadRender();
				rendering = module;
			});
			// A load that failed is tried again by the next draw.
			renderingLoad.catch(() => {
				renderingLoad = undefined;
			});
		}
		return renderingLoad;
	};
	/** Before the load pi draws with its own fallback (it catches a renderer that throws); print and json never draw. */
	const loadedRendering = () => {
		if (rendering) return rendering;
		void loadRendering().catch(() => {});
		throw new Error("pi-web-access: rendering is not loaded yet");
	};
	const loadSafe = async () => {
		safe ??= (await import("../runtime/terminal-safe.ts")).terminalSafe;
	};
	/** Notices quote config and project files: terminal-safe on every outlet (the sanitiser loads with the host). */
	const tell: Notify = (message, level) => {
		if (safe) return notify(safe(message), level);
		// A sanitiser that cannot load (a broken install) loses the notice rather than show it unsanitised.
		void loadSafe().then(
			() => tell(message, level),
			() => {},
		);
	};

	/** The host's start-up diagnostics, once per session, as soon as the host is there (`/web-access` shows them). */
	const reportOnce = (h: Host, show: boolean, ctx: PiContextLike) => {
		if (reported) return;
		reported = true;
		h.watch();
		// Loaded with the host (it imports the config formatter), never by the factory.
		if (show) void import("./report-diagnostics.ts").then((m) => m.reportDiagnostics(h.setup(), ctx as UiContext));
	};
	const host = async (ctx: PiContextLike, report = true): Promise<Host> => {
		clearTimeout(warmTimer);
		hostPromise ??= Promise.all([import("./host.ts"), loadSafe()]).then(([m]) =>
			m.createHost({ onReload: tell, context: ctx }),
		);
		hostPromise.catch(() => {
			hostPromise = undefined;
		});
		const h = await hostPromise;
		h.useContext(ctx);
		reportOnce(h, report, ctx);
		return h;
	};
	const remember = (ctx: UiContext) => {
		// Print mode has no UI (ui.notify does nothing there): notices such as a reload's go to stderr.
		if ((ctx as { mode?: string }).mode === "print") notify = (message) => process.stderr.write(`${message}\n`);
		else if (ctx.ui?.notify) notify = (message, level) => ctx.ui?.notify?.(message, level);
	};

	const deps: ToolDeps = {
		host,
		names: { search: settings.search.name, fetch: settings.fetch.name },
		rendering: loadedRendering,
	};
	if (settings.search.enabled) pi.registerTool(createWebSearchTool(deps));
	if (settings.fetch.enabled) pi.registerTool(createWebFetchTool(deps));

	// Reports are session entries: drawn in the conversation, never part of the model's context.
	pi.registerEntryRenderer?.<ReportEntry>(REPORT_ENTRY_TYPE, (entry, _options, theme) =>
		loadedRendering().renderReport(entry.data, theme),
	);
	pi.registerCommand("web-access", {
		description: `pi-web-access: status, routing and credentials (never keys). ${COMMAND_HELP}`,
		handler: async (args, ctx) => {
			remember(ctx as UiContext);
			const { commandOutput, handleCommand } = await import("./command.ts");
			const append = pi.appendEntry ? (type: string, data: ReportEntry) => pi.appendEntry(type, data) : undefined;
			const say: Notify = commandOutput(ctx, append);
			try {
				await handleCommand(args ?? "", await host(ctx as PiContextLike, false), say);
			} catch (error) {
				say(`web-access: ${(error as Error).message}`, "error");
			}
		},
	});

	// session_start never waits for the host: it only schedules the background load (see WARM_DELAY_MS). The
	// first tool call or command awaits the same promise, so nothing is loaded twice.
	pi.on("session_start", async (_event, ctx) => {
		remember(ctx as UiContext);
		clearTimeout(warmTimer);
		const load = () => {
			host(ctx as PiContextLike).catch((error: unknown) =>
				tell(`pi-web-access could not start: ${(error as Error).message}`, "error"),
			);
		};
		// Without a UI (print, json) a file that does not even parse is reported now, before the run is over.
		if (settings.unparsable && !(ctx as { hasUI?: boolean }).hasUI) load();
		else {
			warmTimer = setTimeout(load, WARM_DELAY_MS);
			warmTimer.unref();
		}
		// pi draws the session (a resumed one's tool calls and reports) once session_start is over.
		if ((ctx as { mode?: string }).mode === "tui") await loadRendering().catch(() => {});
	});

	pi.on("session_shutdown", async () => {
		clearTimeout(warmTimer);
		if (!hostPromise) return;
		await import("../runtime/shutdown.ts").then((m) => m.shutdownRuntime()).catch(() => {});
		try {
			(await hostPromise).close();
		} catch {
			// nothing to close
		}
	});
}
