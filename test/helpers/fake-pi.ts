// The extension loaded as pi loads it, without pi: a fake ExtensionAPI collects tools, commands and event handlers,
// and a fake ctx records notifications. Plus a sandbox for extension tests: a temp config file (found through
// PI_WEB_ACCESS_CONFIG), two loopback fake Exa backends and distinctive random keys.

import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionAPI, ToolDefinition } from "@earendil-works/pi-coding-agent";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import piWebAccess from "../../pi-web-access/index.ts";
import { type Backend, exaResults, startBackend } from "../e2e/fakes.ts";

type Handler = (event: unknown, ctx: unknown) => Promise<void> | void;
type CommandOptions = { handler: (args: string, ctx: unknown) => Promise<void> };
type EntryRenderer = (
	entry: { data: unknown },
	options: unknown,
	theme: unknown,
) => { render(width: number): string[] };

export interface Note {
	message: string;
	level: string;
}
export interface Update {
	content: Array<{ text: string }>;
	details: { progress?: string[] };
}
export interface ToolOutput {
	content: Array<{ type: string; text: string }>;
	details: unknown;
	structuredContent: Record<string, unknown>;
}

/** Runs the extension's factory against a fake pi; `call`, `command` and `emit` drive it as pi would. */
export function loadExtension() {
	const tools = new Map<string, ToolDefinition>();
	const commands = new Map<string, CommandOptions>();
	const handlers = new Map<string, Handler[]>();
	const entryRenderers = new Map<string, EntryRenderer>();
	const pi = {
		registerEntryRenderer: (type: string, renderer: EntryRenderer) => entryRenderers.set(type, renderer),
		registerTool: (tool: ToolDefinition) => tools.set(tool.name, tool),
		registerCommand: (name: string, options: CommandOptions) => commands.set(name, options),
		on: (event: string, handler: Handler) => handlers.set(event, [...(handlers.get(event) ?? []), handler]),
	};
	piWebAccess(pi as unknown as ExtensionAPI);
	const notes: Note[] = [];
	// Like pi's TUI and rpc modes (docs/extensions.md: ctx.hasUI); print and json modes are tested with the real pi.
	const ctx = {
		hasUI: true,
		ui: { notify: (message: string, level: string) => notes.push({ message, level }) },
		modelRegistry: {
			getProvider: () => undefined,
			getProviderAuthStatus: () => ({ configured: false }),
			getProviderAuth: async () => undefined,
		},
		model: { provider: "fake", id: "fake-model", api: "openai-completions" },
	};
	const tool = (name: string) => {
		const found = tools.get(name);
		if (!found) throw new Error(`no tool ${name}; registered: ${[...tools.keys()].join(", ")}`);
		return found;
	};
	return {
		tools,
		commands,
		notes,
		tool,
		/** The renderer registered for a custom entry type (pi.registerEntryRenderer). */
		entryRenderer: (type: string) => entryRenderers.get(type),
		/** Emits a pi event; `context` adds to the ctx (e.g. `{ mode: "tui" }`). */
		async emit(event: string, context: Record<string, unknown> = {}) {
			for (const handler of handlers.get(event) ?? []) await handler({ type: event }, { ...ctx, ...context });
		},
		/** Runs a tool as pi would; resolves to its result. */
		async call(name: string, params: Record<string, unknown>, signal?: AbortSignal, updates: Update[] = []) {
			const execute = tool(name).execute as (...args: unknown[]) => Promise<ToolOutput>;
			return execute("call-1", params, signal, (u: Update) => updates.push(u), ctx);
		},
		/** Runs /web-access and returns everything it notified. */
		async command(args: string) {
			const from = notes.length;
			await commands.get("web-access")?.handler(args, ctx);
			return notes.slice(from);
		},
	};
}

export interface Sandbox {
	first: Backend;
	second: Backend;
	/** Distinctive random keys; two, because key state is shared by fingerprint across providers. */
	key: string;
	key2: string;
	/** Writes the config file (an object as JSON, a string as is) and returns its path. */
	writeConfig(config: unknown): string;
	/** A provider block for a fake Exa: loopback baseUrl, literal key. */
	exa(backend: Backend, extra?: Record<string, unknown>): Record<string, unknown>;
	/** Fails if the key, or any part of it longer than 4 characters, is in `text`. */
	expectNoKey(text: string): void;
}

/** Registers the hooks: backends per file; a fresh config dir, env and backend replies per test. */
export function useSandbox(): Sandbox {
	const saved = { ...process.env };
	let dir = "";
	const box = {
		key: `sk-${randomBytes(16).toString("hex")}`,
		key2: `sk-${randomBytes(16).toString("hex")}`,
		writeConfig(config: unknown) {
			const file = join(dir, "pi-web-access.json");
			writeFileSync(file, typeof config === "string" ? config : JSON.stringify(config, null, 2));
			return file;
		},
		exa: (backend: Backend, extra: Record<string, unknown> = {}) => ({
			type: "exa",
			baseUrl: backend.url,
			apiKey: box.key,
			...extra,
		}),
		expectNoKey(text: string) {
			for (let i = 0; i + 5 <= box.key.length; i++) expect(text).not.toContain(box.key.slice(i, i + 5));
		},
	} as unknown as Sandbox; // first and second are set in beforeAll
	beforeAll(async () => {
		box.first = await startBackend(() => ({ json: exaResults(3) }));
		box.second = await startBackend(() => ({ json: exaResults(2, "second") }));
	});
	afterAll(async () => {
		await box.first.close();
		await box.second.close();
	});
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), "pi-web-access-ext-"));
		process.env.PI_CODING_AGENT_DIR = dir;
		process.env.PI_WEB_ACCESS_CONFIG = join(dir, "pi-web-access.json");
		delete process.env.EXA_API_KEY;
		for (const backend of [box.first, box.second]) backend.clear();
		box.first.reply = () => ({ json: exaResults(3) });
		box.second.reply = () => ({ json: exaResults(2, "second") });
	});
	afterEach(() => {
		for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
		Object.assign(process.env, saved);
		rmSync(dir, { recursive: true, force: true });
	});
	return box;
}
