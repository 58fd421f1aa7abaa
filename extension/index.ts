// pi-web-access for pi: registers web_search and web_fetch and the /web-access command. Start-up stays cheap:
// the config, executor and providers load on first use (or at session_start), never in this factory.

import { readFileSync } from "node:fs";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import JSON5 from "json5";
import { configPath } from "../schema/paths.ts";
import { COMMAND_HELP, handleCommand } from "./command.ts";
import type { Host, PiContextLike } from "./host.ts";
import { createWebFetchTool, createWebSearchTool, type ToolDeps } from "./tools.ts";

interface ToolSetting {
	name: string;
	enabled: boolean;
}

const TOOL_NAME = /^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$/;

/** Reads only `tools` from the config (names must be known before pi starts); any problem → defaults. */
export function toolSettings(env: Record<string, string | undefined> = process.env): {
	search: ToolSetting;
	fetch: ToolSetting;
} {
	const settings = { search: { name: "web_search", enabled: true }, fetch: { name: "web_fetch", enabled: true } };
	try {
		const parsed = JSON5.parse(readFileSync(configPath({ env }), "utf8")) as {
			tools?: Record<string, { name?: unknown; enabled?: unknown }>;
		};
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

	const host = async (ctx: PiContextLike): Promise<Host> => {
		hostPromise ??= import("./host.ts").then((m) =>
			m.createHost({ onReload: (message, level) => notify(message, level), context: ctx }),
		);
		hostPromise.catch(() => {
			hostPromise = undefined;
		});
		const h = await hostPromise;
		h.useContext(ctx);
		return h;
	};
	const remember = (ctx: UiContext) => {
		if (ctx.ui?.notify) notify = (message, level) => ctx.ui?.notify?.(message, level);
	};

	const deps: ToolDeps = { host, names: { search: settings.search.name, fetch: settings.fetch.name } };
	if (settings.search.enabled) pi.registerTool(createWebSearchTool(deps));
	if (settings.fetch.enabled) pi.registerTool(createWebFetchTool(deps));

	pi.registerCommand("web-access", {
		description: `pi-web-access: status, routing and credentials (never keys). ${COMMAND_HELP}`,
		handler: async (args, ctx) => {
			remember(ctx as UiContext);
			const say: Notify = (message, level) => (ctx as UiContext).ui?.notify?.(message, level);
			try {
				await handleCommand(args ?? "", await host(ctx as PiContextLike), say);
			} catch (error) {
				say(`web-access: ${(error as Error).message}`, "error");
			}
		},
	});

	pi.on("session_start", async (_event, ctx) => {
		remember(ctx as UiContext);
		try {
			const h = await host(ctx as PiContextLike);
			h.watch();
			const { loaded } = h.setup();
			if (loaded.diagnostics.length > 0) {
				const lines = loaded.diagnostics.map((d) => `${d.file}:${d.line}:${d.col}: ${d.severity}: ${d.message}`);
				const level = loaded.diagnostics.some((d) => d.severity === "error") ? "error" : "warning";
				notify(`pi-web-access config problems (the rest works):\n${lines.join("\n")}`, level);
			}
		} catch (error) {
			notify(`pi-web-access could not start: ${(error as Error).message}`, "error");
		}
	});

	pi.on("session_shutdown", async () => {
		if (!hostPromise) return;
		try {
			(await hostPromise).close();
		} catch {
			// nothing to close
		}
	});
}
