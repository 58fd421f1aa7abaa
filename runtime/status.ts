// The whole set-up at a glance, for `/web-access` and `pi-web-access status`: config file and diagnostics,
// providers with type, capabilities, credential status, health and key pools, chains and rules. Never a key.

import type { Diagnostic, ProviderConfig, Rule } from "../engine/config-types.ts";
import type { Capability, Extraction } from "../engine/request-types.ts";
import { formatBytes, thousands } from "../engine/thousands.ts";
import type { CooldownState, ExecutorStateSnapshot, KeyState } from "../executor/index.ts";
import { formatUsd, type SpendReport } from "../executor/spend.ts";
import type { SharedCacheSize, StoreHealth } from "../executor/store/contract.ts";
import { maskProxyUrl, proxyFor, proxyForHost, proxySettings } from "../providers/http/proxy.ts";
import { providerType } from "../providers/registry.ts";
import { formatDiagnostic } from "../schema/load.ts";
import { schemaReference } from "../schema/schema-ref.ts";
import { type BrowserStatus, browserStatus, browserText } from "./browser-status.ts";
import { type CredentialStatus, credentialStatus, type PoolStatus } from "./credentials.ts";
import type { Setup } from "./setup.ts";
import { type SourceStatus, sourceLines, sourceStatus } from "./source-status.ts";
import { type SpendStatus, spendLines, spendStatus } from "./spend-status.ts";
import { starterFile } from "./starter-file.ts";
import { type StateFileStatus, stateFileLine } from "./state-file.ts";

export interface ProviderStatus {
	name: string;
	type: string;
	capabilities: Capability[];
	extraction?: Extraction;
	credentials: CredentialStatus;
	health: { state: "healthy" } | ({ state: "cooling" } & Pick<CooldownState, "untilMs" | "reason">);
	proxy: ProxyStatus;
	/** Set for a `browser` provider: its executable (or why there is none), driver and live state. */
	browser?: BrowserStatus;
}

/** Which proxy a provider's requests use; `url` is masked (credentials are never shown). */
export type ProxyStatus =
	| { via: "proxy"; url: string; source: string; noProxy?: string; tunnel?: "checked-address" }
	| { via: "direct"; reason?: string }
	| { via: "invalid"; source: string; problem: string };

export interface StatusReport {
	file: string;
	exists: boolean;
	loaded: boolean;
	zeroConfig: boolean;
	/** Set when the file cannot be used and zero-config runs instead. */
	notice?: string;
	/**
	 * Set when the file on disk cannot be used now but an earlier good load of it still runs (a live reload kept
	 * it): the file's current problems.
	 */
	brokenOnDisk?: Diagnostic[];
	diagnostics: Diagnostic[];
	providers: ProviderStatus[];
	search: string[];
	fetch: string[];
	/** The rules as configured, without their position and policy (`file`: where a layered rule came from). */
	rules: Array<Omit<Rule, "index" | "policy">>;
	/** Exhausted or rate-limited keys by label (fingerprints only identify them). */
	keys: Array<Pick<KeyState, "label" | "state" | "untilMs" | "refused">>;
	/** The project file: loaded, ignored (not trusted, and why) or unusable; absent when no directory was given. */
	project?: { file: string; state: string; reason: string };
	/** Spend today (UTC) and in this session, per provider, with prices and budgets. */
	spend: SpendStatus;
	/** With zero-config: the derived config as a file to start from. */
	startingFile?: string;
	/** The state file, and whether it could be read and written; absent when nothing persists. */
	stateFile?: StateFileStatus;
	/** The source readers: each source's origin, switch and, where it takes a token, the credential it sends. */
	sources: SourceStatus[];
}

/** `store: local (~/.pi/agent) ok` or degraded with why and the fix. */
const STORE_SCOPES: Record<string, string> = {
	memory: "this process only",
	redis: "shared by every machine using it",
};

export function storeLine(store: StoreHealth): string {
	const where = store.location ? ` (${store.location})` : "";
	const scope = ` · ${STORE_SCOPES[store.kind] ?? "shared by every process of this machine"}`;
	const sum = (entries: Array<{ usd: number }>) => formatUsd(entries.reduce((usd, entry) => usd + entry.usd, 0));
	const spend = store.spend ? ` · today: this machine ${sum(store.spend.machine)} · team ${sum(store.spend.team)}` : "";
	const cache = store.cache ? ` · ${cacheLine(store.cache)}` : "";
	return `state store: ${store.kind}${where}, ${store.state}${scope}${spend}${cache}${store.detail ? ` · ${store.detail}` : ""}`;
}

/** `team cache: 12 results, 48 KB of 64 MB` (entries and bytes against the byte cap). */
function cacheLine(cache: SharedCacheSize): string {
	const results = cache.entries === 1 ? "1 result" : `${thousands(cache.entries)} results`;
	return `team cache: ${results}, ${formatBytes(cache.bytes)} of ${formatBytes(cache.maxBytes)}`;
}

export interface KeyUses {
	provider: string;
	label: string;
	uses: number;
}

export function statusReport(
	setup: Setup,
	snapshot: ExecutorStateSnapshot,
	nowMs = Date.now(),
	uses: KeyUses[] = [],
	session?: SpendReport,
	stateFile?: StateFileStatus,
): StatusReport {
	const { config } = setup.table;
	const providers = config.providers.map((p): ProviderStatus => {
		const entry = providerType(p.type);
		const cooling = snapshot.cooldowns.find((c) => c.provider === p.name && c.untilMs > nowMs);
		const credentials = credentialStatus(p, setup.deps);
		const mine = uses.filter((u) => u.provider === p.name);
		if (credentials.pool) {
			credentials.pool = credentials.pool.map((k) => ({
				...k,
				uses: mine.find((u) => u.label === k.label)?.uses ?? 0,
			}));
		} else if (mine.length > 0) {
			credentials.uses = mine.reduce((sum, u) => sum + u.uses, 0);
		}
		return {
			name: p.name,
			type: p.type,
			capabilities: (["search", "fetch"] as const).filter((c) => entry?.[c]),
			...(entry?.extraction && entry.fetch ? { extraction: entry.extraction } : {}),
			credentials,
			health: cooling ? { state: "cooling", untilMs: cooling.untilMs, reason: cooling.reason } : { state: "healthy" },
			proxy: proxyStatus(p, config.proxy, setup.deps.env),
			...(p.type === "browser" ? { browser: browserStatus(p, setup.deps.env) } : {}),
		};
	});
	const chain = (capability: Capability) =>
		(capability === "search" ? config.search : config.fetch) ??
		providers.filter((p) => p.capabilities.includes(capability)).map((p) => p.name);
	return {
		file: setup.loaded.file,
		exists: setup.loaded.exists,
		loaded: setup.loaded.usable,
		zeroConfig: setup.zeroConfig,
		...(setup.notice ? { notice: setup.notice } : {}),
		diagnostics: setup.loaded.diagnostics,
		...(setup.project && setup.project.state !== "absent"
			? { project: { file: setup.project.file, state: setup.project.state, reason: setup.project.reason } }
			: {}),
		providers,
		search: chain("search"),
		fetch: chain("fetch"),
		rules: config.rules.map(({ index: _index, policy: _policy, ...rule }) => rule),
		keys: snapshot.keys.map((k) => ({
			label: k.label,
			state: k.state,
			...(k.untilMs ? { untilMs: k.untilMs } : {}),
			...(k.refused ? { refused: k.refused } : {}),
		})),
		spend: spendStatus(config, snapshot.spend, session, nowMs),
		...(setup.zeroConfig && !setup.loaded.exists ? { startingFile: startingFile(setup) } : {}),
		...(stateFile ? { stateFile } : {}),
		sources: sourceStatus(setup),
	};
}

function startingFile(setup: Setup): string {
	const file = setup.loaded.file;
	const { ref } = schemaReference({ configFile: file, env: setup.deps.env });
	return starterFile(setup.table.config, setup.deps, ref, file);
}

/**
 * The route of the provider's base URL when the config sets one; otherwise of an https request (the backends'
 * default endpoints are all https), with NO_PROXY shown since it depends on the host.
 */
function proxyStatus(
	provider: ProviderConfig,
	top: string | undefined,
	env: Record<string, string | undefined>,
): ProxyStatus {
	const settings = proxySettings(provider.proxy, top, env, provider.name);
	const target = provider.baseUrl;
	const decided = target
		? proxyFor(target, settings)
		: proxyForHost("https:", "", 443, { ...settings, noProxy: undefined });
	if (decided.via !== "proxy") return decided;
	return {
		via: "proxy",
		url: maskProxyUrl(decided.proxy.url),
		source: decided.proxy.source,
		...(!target && settings.noProxy ? { noProxy: settings.noProxy.value } : {}),
		...(provider.type === "direct" || provider.type === "browser" ? { tunnel: "checked-address" as const } : {}),
	};
}

function proxyText(p: ProxyStatus): string {
	if (p.via === "invalid") return `proxy in ${p.source} unusable: ${p.problem}`;
	if (p.via === "direct") return `no proxy${p.reason ? ` (${p.reason})` : ""}`;
	const bypass = p.noProxy ? `; NO_PROXY ${p.noProxy}` : "";
	const tunnel = p.tunnel ? "; CONNECT to the checked address" : "";
	return `proxy ${p.url} (${p.source}${bypass}${tunnel})`;
}

function credentialText(c: CredentialStatus): string {
	const base = c.state === "missing" || c.state === "error" ? `${c.state}: ${c.reason ?? ""}` : c.state;
	const from = c.source ? ` (${c.source})` : "";
	const key = (k: PoolStatus) => `${k.label}${k.billing ? `/${k.billing}` : ""}=${k.state} (${k.uses ?? 0} uses)`;
	// A missing pool's reason already says each key's state.
	const shown = c.pool && c.pool.length > 0 && c.state !== "missing";
	const pool = shown ? ` · pool: ${c.pool!.map(key).join(", ")}` : "";
	const uses = c.uses !== undefined ? ` · ${c.uses} uses` : "";
	return `${base}${from}${pool}${uses}`;
}

/** Who reads the status: a person at the CLI, or in pi (where `pi install` puts no `pi-web-access` on PATH). */
export type StatusReader = "cli" | "pi";

const INIT_HINT: Record<StatusReader, string> = {
	cli: "run `pi-web-access init` (or `/web-access init` in pi)",
	pi: "run `/web-access init`",
};

export function formatStatus(report: StatusReport, nowMs = Date.now(), reader: StatusReader = "cli"): string {
	const lines: string[] = [];
	const state = !report.exists
		? "not found — zero-config from what pi knows"
		: !report.loaded
			? "NOT usable — running on zero-config until it is fixed"
			: report.brokenOnDisk
				? "loaded; the file on disk is broken now: running on the last good config"
				: "loaded";
	lines.push(`config: ${report.file} (${state})`);
	if (report.notice) lines.push(`  ${report.notice}`);
	for (const d of report.brokenOnDisk ?? []) lines.push(`  ${formatDiagnostic(d)}`);
	if (report.project) {
		const { file, state, reason } = report.project;
		lines.push(`project config: ${file} (${state === "loaded" ? "loaded" : `ignored: ${state}`}; ${reason})`);
	}
	for (const d of report.diagnostics) lines.push(`  ${formatDiagnostic(d)}`);
	lines.push("providers:");
	if (report.providers.length === 0) lines.push("  (none)");
	// The proxy column only when some provider has a proxy setting; otherwise one line says there is none.
	const proxied = report.providers.some((p) => p.proxy.via !== "direct" || p.proxy.reason !== undefined);
	for (const p of report.providers) {
		const health =
			p.health.state === "cooling"
				? ` · cooling down ${Math.ceil((p.health.untilMs - nowMs) / 1000)} s (${p.health.reason})`
				: "";
		const extraction = p.extraction === "model" ? " · fetch text is model-written (slow)" : "";
		const proxy = proxied ? ` · ${proxyText(p.proxy)}` : "";
		const browser = p.browser ? ` · ${browserText(p.browser, nowMs)}` : "";
		lines.push(
			`  ${p.name} (${p.type}; ${p.capabilities.join(", ")}): ${credentialText(p.credentials)}${health}${extraction}${proxy}${browser}`,
		);
	}
	if (!proxied && report.providers.length > 0)
		lines.push("  proxy: none (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY and proxy unset)");
	for (const k of report.keys) {
		const left = k.untilMs ? ` (${Math.max(0, Math.ceil((k.untilMs - nowMs) / 1000))} s left)` : "";
		lines.push(`  key ${k.label}: ${k.refused ? "refused by the backend: check or replace it" : k.state}${left}`);
	}
	lines.push(...spendLines(report.spend));
	const stateLine = report.stateFile ? stateFileLine(report.stateFile) : undefined;
	if (stateLine) lines.push(stateLine);
	lines.push(`search chain: ${report.search.join(" → ") || "(empty)"}`);
	lines.push(`fetch chain: ${report.fetch.join(" → ") || "(empty)"}`);
	lines.push(...sourceLines(report.sources));
	if (report.rules.length === 0) lines.push("rules: (none)");
	else lines.push("rules:");
	for (const r of report.rules) {
		const when = [
			r.sites ? `sites ${r.sites.join(", ")}` : "",
			r.queryScript ? `script ${r.queryScript.join("/")}` : "",
			r.fileTypes ? `files .${r.fileTypes.join(", .")}` : "",
			r.recency ? `recency ${r.recency.join("/")}` : "",
		].filter(Boolean);
		const chains = [
			r.search ? `search → ${r.search.join(", ")}` : "",
			r.fetch ? `fetch → ${r.fetch.join(", ")}` : "",
		].filter(Boolean);
		lines.push(`  ${r.name}: ${when.join(" & ")}: ${chains.join("; ")}${r.file ? ` (from ${r.file})` : ""}`);
	}
	if (report.startingFile) {
		lines.push(`To customise, ${INIT_HINT[reader]}: it writes this to ${report.file}:`, report.startingFile.trimEnd());
	}
	return lines.join("\n");
}
