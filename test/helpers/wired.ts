// The real stack for reliability tests: a config object written to a temp file and loaded by createSetup (loader,
// schema, routing table, credentials), planned by plan() and run by createServices (real executor, real providers).
// Only pi itself is stood in for, through the narrow PiBridge interface the extension and CLI also implement.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plan } from "../../engine/plan.ts";
import { type FetchInput, fetchRequest, type SearchInput, searchRequest } from "../../engine/requests.ts";
import type { FetchResult, SearchResult } from "../../engine/result-types.ts";
import type { StateStore } from "../../executor/store/contract.ts";
import type { CurrentModel } from "../../providers/contract.ts";
import type { PiBridge } from "../../runtime/pi-bridge.ts";
import { createServices, type Services } from "../../runtime/services.ts";
import { createSetup, type Setup } from "../../runtime/setup.ts";

export interface Wired {
	setup: Setup;
	services: Services;
	search(input: SearchInput, options?: RunOptions): Promise<SearchResult>;
	fetch(input: FetchInput, options?: RunOptions): Promise<FetchResult>;
}

export interface RunOptions {
	signal?: AbortSignal;
	onProgress?: (line: string) => void;
}

/** A pi that knows every provider id and answers each with the key `pi-key-<id>-0451`. */
export function fakePi(currentModel?: CurrentModel): PiBridge {
	return {
		authStatus: () => ({ configured: true }),
		providerAuth: async (id) => ({ apiKey: piKey(id) }),
		storedKey: () => undefined,
		currentModel: () => currentModel,
	};
}

export function piKey(id: string): string {
	return `pi-key-${id}-0451`;
}

/** Loads `config` through the real loader; a config error fails the test at once instead of being dropped. */
export function wire(config: Record<string, unknown>, options: { pi?: PiBridge; store?: StateStore } = {}): Wired {
	// The loader reads the file once, in createSetup; nothing reads it again, so it is removed at once.
	const directory = mkdtempSync(join(tmpdir(), "pi-web-access-wired-"));
	const file = join(directory, "pi-web-access.json");
	let setup: Setup;
	try {
		writeFileSync(file, JSON.stringify(config, null, "\t"));
		setup = createSetup({ configFile: file, env: {}, ...(options.pi ? { pi: options.pi } : {}) });
	} finally {
		rmSync(directory, { recursive: true, force: true });
	}
	const errors = setup.loaded.diagnostics.filter((d) => d.severity === "error");
	if (errors.length > 0)
		throw new Error(`test config rejected: ${errors.map((d) => `${d.path} ${d.message}`).join("; ")}`);
	const services = createServices(setup, options.store ? { store: options.store } : {});
	return {
		setup,
		services,
		search: (input, run = {}) =>
			services.run(plan(setup.table, searchRequest(input), setup.context), run) as Promise<SearchResult>,
		fetch: (input, run = {}) =>
			services.run(plan(setup.table, fetchRequest(input), setup.context), run) as Promise<FetchResult>,
	};
}
