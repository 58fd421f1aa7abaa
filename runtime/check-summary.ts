// What `check` adds to the loader's diagnostics: warnings for a set-up that loads but cannot fully work (a default
// chain that ends up empty, every rule dropped; an error when no call at all can be served), and the one-line
// summary `1 error, 2 warnings · search: exa · fetch: direct`.

import type { Diagnostic } from "../engine/config-types.ts";
import type { Capability } from "../engine/request-types.ts";
import { providerType } from "../providers/registry.ts";
import type { LoadedConfig } from "../schema/load.ts";

/** The chain a capability gets when no rule matches: the configured one, else every provider able to do it. */
export function defaultChain(loaded: LoadedConfig, capability: Capability): string[] {
	const { config } = loaded;
	const given = capability === "search" ? config.search : config.fetch;
	return given ?? config.providers.filter((p) => providerType(p.type)?.[capability]).map((p) => p.name);
}

const CHAIN_FIX: Record<Capability, string> = {
	search: 'add a provider whose type can search (exa, tavily, brave, deepseek, …) and list it in "search"',
	fetch: 'add the keyless direct: { type: "direct" } (or another fetching provider) and list it in "fetch"',
};

/** Warnings about a usable file whose default chains or rules came out empty. */
export function setupWarnings(loaded: LoadedConfig): Diagnostic[] {
	if (!loaded.exists || !loaded.usable) return [];
	const at = { file: loaded.file, line: 1, col: 1 };
	const out: Diagnostic[] = [];
	for (const capability of ["search", "fetch"] as const) {
		if (defaultChain(loaded, capability).length > 0) continue;
		out.push({
			severity: "warning",
			...at,
			path: `/${capability}`,
			message: `the default ${capability} chain is empty: no ${capability} call can be served unless a rule matches`,
			fix: CHAIN_FIX[capability],
		});
	}
	// Nothing at all can be served: the file loads, but using it would switch every call off.
	if (out.length === 2 && !loaded.config.rules.some((r) => r.search?.length || r.fetch?.length)) {
		out.push({
			severity: "error",
			...at,
			path: "",
			message: "no call can be served with this file: it names no provider that any chain or rule uses",
			fix: 'check the key names above (e.g. "providers"), or delete the file to run on zero-config',
		});
	}
	const ruleProblems = loaded.diagnostics.some((d) => d.path.startsWith("/rules"));
	if (loaded.config.rules.length === 0 && ruleProblems) {
		out.push({
			severity: "warning",
			...at,
			path: "/rules",
			message: "every rule was dropped: no site rule applies",
			fix: "fix the rule problems reported above",
		});
	}
	return out;
}

function count(n: number, noun: string): string {
	return `${n} ${noun}${n === 1 ? "" : "s"}`;
}

/** `1 error, 2 warnings · search: exa, deepseek · fetch: direct` */
export function checkSummary(loaded: LoadedConfig, diagnostics: readonly Diagnostic[]): string {
	const errors = diagnostics.filter((d) => d.severity === "error").length;
	const problems = `${count(errors, "error")}, ${count(diagnostics.length - errors, "warning")}`;
	// A named file that is missing runs nothing (the other commands stop on it): the error above says so.
	if (!loaded.exists && !loaded.usable) return problems;
	if (!loaded.exists) return `${problems} · no config file: zero-config applies`;
	if (!loaded.usable) return `${problems} · the file is not usable: zero-config applies`;
	const chain = (capability: Capability) => defaultChain(loaded, capability).join(", ") || "(empty)";
	return `${problems} · search: ${chain("search")} · fetch: ${chain("fetch")}`;
}
