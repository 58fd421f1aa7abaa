// A plan context for engine tests: capabilities by name prefix, readiness from a set of "missing" providers.

import type { PlanContext } from "../../engine/request-types.ts";

/** Providers named `s…` only search, `f…` only fetch; everything else does both. */
export function testContext(missing: ReadonlySet<string> = new Set()): PlanContext {
	return {
		canServe: (provider, capability) =>
			capability === "search" ? !provider.name.startsWith("f") : !provider.name.startsWith("s"),
		readiness: (provider) =>
			missing.has(provider.name) ? { status: "skipped", reason: "no credentials" } : { status: "ready" },
	};
}
