// The browser fetcher: renders the page in the shared local browser (render.ts), every request it makes through
// the fetch guard, then hands the rendered DOM to the direct fetcher's extractor (the same worker, formats, windows,
// references and metadata). Keyless; taken after direct when direct finds a JS shell, or first when a rule says so.

import { WebAccessError } from "../../engine/errors.ts";
import type { ProviderDefinition } from "../contract.ts";
import { convertPage } from "../direct/convert.ts";
import type { HostLookup } from "../direct/guard.ts";
import { classifyDirect } from "../direct/provider.ts";
import { type Converter, sharedConverter } from "../direct/worker-pool.ts";
import { noNativeFilters } from "../params/filters.ts";
import { numberOption, stringOption } from "../params/options.ts";
import { definitionFacts } from "../type-facts.ts";
import type { SharedBrowser } from "./driver.ts";
import facts from "./facts.ts";
import { findBrowser } from "./find.ts";
import { profilePath } from "./profile.ts";
import { render } from "./render.ts";
import { sharedBrowser } from "./shared.ts";

/** Injectable pieces: tests answer DNS themselves and may use a browser of their own. */
export interface BrowserDependencies {
	lookup?: HostLookup;
	converter?: Converter;
	browser?: SharedBrowser;
	env?: Record<string, string | undefined>;
}

export function createBrowserProvider(dependencies: BrowserDependencies = {}): ProviderDefinition {
	return {
		...definitionFacts(facts),
		perSite: true,
		native: noNativeFilters(0),
		async fetch(request, call) {
			const { options } = call.config;
			const found = findBrowser(options.executablePath, dependencies.env ?? process.env);
			if (!found.path) {
				throw new WebAccessError(found.missing ?? "no browser", { kind: "server", code: "browser-launch" });
			}
			const browser = dependencies.browser ?? sharedBrowser();
			const maxPages = numberOption(options, "maxPages");
			const idleMs = numberOption(options, "idleMs");
			if (maxPages !== undefined) browser.maxPages = Math.max(1, Math.floor(maxPages));
			if (idleMs !== undefined) browser.idleMs = Math.max(1000, idleMs);
			const lease = await browser.acquire(found.path, call.signal);
			const userAgent = stringOption(options, "userAgent");
			const profile = stringOption(options, "profile");
			const rendered = await render({
				url: request.url,
				provider: call.config.name,
				lease,
				signal: call.signal,
				timeoutMs: call.timeoutMs,
				...(call.fetchGuard ? { guard: call.fetchGuard } : {}),
				...(call.proxy ? { proxy: call.proxy } : {}),
				...(dependencies.lookup ? { lookup: dependencies.lookup } : {}),
				...numbers(options),
				...(userAgent ? { userAgent } : {}),
				...(profile ? { profile: profilePath(profile, dependencies.env ?? process.env) } : {}),
			});
			const converter = dependencies.converter ?? sharedConverter();
			let result: Awaited<ReturnType<typeof convertPage>>;
			try {
				result = await convertPage(rendered.page, call.config.name, {
					converter,
					rendered: true,
					signal: call.signal,
					deadlineMs: Math.min(call.timeoutMs, converter.stats().settings.deadlineMs),
					...(request.format ? { format: request.format === "markdown" ? undefined : request.format } : {}),
					...(request.links ? { links: request.links } : {}),
				});
			} catch (error) {
				// Rendered and still without text: not a page that needs JavaScript any more, an empty one; or, while its
				// document was still arriving, one the server did not send in time (a stall, as direct's timeout says).
				if (error instanceof WebAccessError && error.code === "needs-javascript") {
					const host = new URL(rendered.page.finalUrl).host;
					throw rendered.unfinished
						? new WebAccessError(`the page's document did not finish arriving in time (${host})`, {
								kind: "timeout",
								code: "timeout",
								provider: call.config.name,
							})
						: new WebAccessError(`the page has no text after rendering (${host})`, {
								kind: "bad-request",
								code: "empty-render",
								provider: call.config.name,
							});
				}
				throw error;
			}
			const warnings = [...rendered.warnings, ...(result.warnings ?? [])];
			if (rendered.stats.refused > 0) {
				warnings.push(`${rendered.stats.refused} of the page's requests were refused by the fetch guard`);
			}
			return { ...result, ...(warnings.length > 0 ? { warnings } : {}) };
		},
		classify: classifyDirect,
	};
}

function numbers(options: Record<string, unknown>) {
	const out: { settleMs?: number; maxBytes?: number; maxDomNodes?: number; maxMemoryMb?: number } = {};
	for (const key of ["settleMs", "maxBytes", "maxDomNodes", "maxMemoryMb"] as const) {
		const value = numberOption(options, key);
		if (value !== undefined && value >= 0) out[key] = value;
	}
	return out;
}

export default createBrowserProvider();
