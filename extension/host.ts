// The extension's live state, loaded on first need (not at pi start-up): the set-up from the config file,
// the executor with persisted health, a watcher that reloads on edits (a broken edit keeps the last good
// config), and the pi bridge that always reads the latest context.

import { type FSWatcher, watch } from "node:fs";
import { basename, dirname, join } from "node:path";
import { readStoredCredential } from "@earendil-works/pi-coding-agent";
import type { Diagnostic } from "../engine/config-types.ts";
import { explain } from "../engine/explain.ts";
import { plan } from "../engine/plan.ts";
import { fetchRequest, searchRequest } from "../engine/requests.ts";
import { agentDir, CONFIG_FILE_NAMES, chooseConfigFile } from "../runtime/files.ts";
import { initConfigFile } from "../runtime/init.ts";
import { KeyResolver } from "../runtime/key-expressions.ts";
import { type CurrentModel, type RegistryLike, registryBridge } from "../runtime/pi-bridge.ts";
import { projectTrust } from "../runtime/project-trust.ts";
import { readerRoutes } from "../runtime/reader-routes.ts";
import { createServices, type Services } from "../runtime/services.ts";
import { createSetup, formatDiagnostic, type Setup, unusableReason } from "../runtime/setup.ts";
import { formatStatus, statusReport, storeLine } from "../runtime/status.ts";
import { storeIn } from "../runtime/team-store.ts";

/** The parts of pi's context the host reads; kept narrow so tests can pass a plain object. */
export interface PiContextLike {
	modelRegistry?: RegistryLike;
	model?: { provider: string; id: string; api: string; baseUrl?: string } | undefined;
	/** The session's working directory: its `.pi/pi-web-access.json` is layered when pi trusts the project. */
	cwd?: string;
	isProjectTrusted?: () => boolean;
}

export interface HostOptions {
	env?: Record<string, string | undefined>;
	/** Called with each reload's outcome (diagnostics, or why the last good config was kept). */
	onReload?: (message: string, level: "info" | "warning" | "error") => void;
	/** pi's context at creation, so the first set-up already has the project layer. */
	context?: PiContextLike;
}

export interface Host {
	services: Services;
	setup(): Setup;
	/** Latest pi context (model, registry) for credentials and the `model` type. */
	useContext(ctx: PiContextLike): void;
	reload(): { kept: boolean; diagnostics: Diagnostic[] };
	statusText(): string;
	explainText(subject: string): string;
	/** `/web-access init [--force]`: writes the starter file; the watcher then loads it. */
	init(force: boolean): { written: boolean; message: string };
	watch(): void;
	close(): void;
}

export function createHost(options: HostOptions = {}): Host {
	const env = options.env ?? process.env;
	const dir = agentDir(env);
	let context: PiContextLike | undefined = options.context;
	const pi = registryBridge({
		registry: () => context?.modelRegistry,
		readStored: (id) => readStoredCredential(id, join(dir, "auth.json")),
		currentModel(): CurrentModel | undefined {
			const model = context?.model;
			if (!model) return undefined;
			const { provider, id, api, baseUrl } = model;
			return { provider, id, api, ...(baseUrl ? { baseUrl } : {}) };
		},
	});
	const keys = new KeyResolver({ env });
	/** The project to layer, from pi's context: its directory and pi's trust decision for it. */
	const project = () => {
		let cwd: string | undefined;
		try {
			cwd = context?.cwd;
		} catch {
			cwd = undefined; // a context from an ended session
		}
		const ask = context?.isProjectTrusted ? () => context?.isProjectTrusted?.() === true : null;
		return cwd ? { project: { cwd, trust: projectTrust({ cwd, agentDir: dir, env, pi: ask }) } } : {};
	};
	const projectKey = (p: ReturnType<typeof project>) => JSON.stringify(p.project ?? null);
	let current = createSetup({ env, pi, keys, ...project() });
	let layered = projectKey(project());
	const persist = current.table.config.state?.persist !== false;
	const services = createServices(current, persist ? { store: storeIn(env, current.table.config) } : {});
	let watcher: FSWatcher | undefined;
	/** The project file's directory, watched once the project is trusted. */
	let projectWatcher: FSWatcher | undefined;
	let timer: NodeJS.Timeout | undefined;
	/** The file's problems while it is broken on disk and its last good load still runs. */
	let brokenOnDisk: Diagnostic[] | undefined;

	const host: Host = {
		services,
		setup: () => current,
		useContext(ctx) {
			context = ctx;
			// A new working directory or trust decision (pi's /trust, a resumed session) changes the project layer.
			if (projectKey(project()) !== layered) host.reload();
		},
		reload() {
			const scope = project();
			layered = projectKey(scope);
			const next = createSetup({ env, pi, keys, ...scope });
			const errors = next.loaded.diagnostics.filter((d) => d.severity === "error");
			if (next.loaded.exists && !next.loaded.usable) {
				// With a good load of the file running, it stays; without one, zero-config runs (never nothing).
				const good = current.loaded.exists && current.loaded.usable;
				if (!good) current = next;
				else brokenOnDisk = errors;
				if (!good) services.use(next);
				const kept = good
					? `${unusableReason(next.loaded)}: keeping the last good config until it is fixed`
					: next.notice;
				options.onReload?.(`pi-web-access: ${kept}\n${errors.map(formatDiagnostic).join("\n")}`, "error");
				return { kept: good, diagnostics: next.loaded.diagnostics };
			}
			brokenOnDisk = undefined;
			current = next;
			services.use(next);
			const problems = next.loaded.diagnostics.map(formatDiagnostic);
			options.onReload?.(
				problems.length > 0
					? `pi-web-access reloaded with problems:\n${problems.join("\n")}`
					: "pi-web-access: config reloaded",
				errors.length > 0 ? "warning" : "info",
			);
			return { kept: false, diagnostics: next.loaded.diagnostics };
		},
		statusText() {
			const { executor } = services;
			const report = statusReport(current, executor.snapshot(), Date.now(), executor.keyUses(), executor.spend());
			return `${formatStatus(brokenOnDisk ? { ...report, brokenOnDisk } : report, Date.now(), "pi")}\n${storeLine(executor.store())}`;
		},
		explainText(subject) {
			const trimmed = subject.trim();
			const request = /^https?:\/\//i.test(trimmed)
				? fetchRequest({ url: trimmed })
				: searchRequest({ query: trimmed });
			const planned = plan(current.table, request, current.context);
			return explain(planned, readerRoutes(current, planned));
		},
		init(force) {
			const { file } = chooseConfigFile({ env });
			const hints = { forceHint: "`/web-access init --force`", checkHint: "`/web-access` shows" };
			const outcome = initConfigFile({ file, force, deps: current.deps, ...hints });
			return { written: outcome.written, message: outcome.message };
		},
		watch() {
			// Directories are watched, so creating or replacing a file (editors rename) is seen too.
			const watchFile = (file: string, onError: () => void): FSWatcher | undefined => {
				try {
					const made = watch(dirname(file), { persistent: false }, (_event, name) => {
						// Any candidate name counts: creating pi-web-access.jsonc beside a missing .json changes the choice.
						const candidate = (CONFIG_FILE_NAMES as readonly string[]).includes(name ?? "");
						if (name !== null && name !== basename(file) && !candidate) return;
						clearTimeout(timer);
						timer = setTimeout(() => host.reload(), 150);
					});
					made.on("error", onError);
					return made;
				} catch {
					return undefined; // no directory yet: /web-access reload still works
				}
			};
			watcher ??= watchFile(current.loaded.file, () => host.close());
			const layer = current.project;
			if (layer && layer.state !== "untrusted") {
				projectWatcher ??= watchFile(layer.file, () => {
					projectWatcher?.close();
					projectWatcher = undefined;
				});
			}
		},
		close() {
			// A team store sends what is in flight (bounded by its timeout) and closes its connection.
			void services.executor.drain();
			clearTimeout(timer);
			watcher?.close();
			watcher = undefined;
			projectWatcher?.close();
			projectWatcher = undefined;
		},
	};
	return host;
}
