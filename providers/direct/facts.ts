// direct: the keyless fetcher, which fetches the page itself and extracts readable markdown (providers/direct/provider.ts).

import { createRequire } from "node:module";
import type { ProviderFacts } from "../type-facts.ts";

/** The package's version: package.json is two folders up from this file and three from the built `dist/`. */
function packageVersion(): string {
	const require = createRequire(import.meta.url);
	for (const candidate of ["../../package.json", "../../../package.json"]) {
		try {
			const found = require(candidate) as { name?: string; version?: string };
			if (found.name === "pi-web-access-router" && found.version) return found.version;
		} catch {
			// not at this depth
		}
	}
	return "0";
}

/** The User-Agent sent when the config sets none. */
export const DIRECT_USER_AGENT = `pi-web-access-router/${packageVersion()}`;

export default {
	type: "direct",
	summary: "Keyless: fetches the page itself and extracts readable markdown (private networks refused).",
	search: false,
	fetch: true,
	extraction: "verbatim",
	rawHtml: true,
	credentials: "none",
	cost: { basis: "free" },
	// The last fetch step without a config file: it needs nothing.
	zeroConfig: { order: 100, capabilities: ["fetch"] },
	options: {
		maxBytes: {
			type: "integer",
			minimum: 1024,
			default: 10485760,
			description:
				"Cap on a response after decompression, in bytes; longer pages are cut there. Default: 10485760 (10 MB).",
		},
		userAgent: {
			type: "string",
			description: `User-Agent header. Default: "${DIRECT_USER_AGENT}".`,
		},
	},
	defaults: { timeoutMs: 20_000 },
} satisfies ProviderFacts;
