// Child process of the startup benchmark: imports the host packages pi always has loaded, then either our
// extension or an empty one, runs the factory against a recording fake ExtensionAPI and prints one JSON line.
// Usage: node bench/startup-child.ts extension|empty [--list] [--no-host]  (--list: every module loaded after the host;
// --no-host skips the host imports, so the smoke test stays fast).

import { registerHooks } from "node:module";

const mode = process.argv[2] === "empty" ? "empty" : "extension";
const list = process.argv.includes("--list");
const loaded: string[] = [];
let recording = false;
if (list) {
	registerHooks({
		load(url, context, nextLoad) {
			if (recording) loaded.push(url);
			return nextLoad(url, context);
		},
	});
}

const hostStarted = performance.now();
if (!process.argv.includes("--no-host")) {
	await import("@earendil-works/pi-coding-agent");
	await import("@earendil-works/pi-ai");
	await import("@earendil-works/pi-tui");
	await import("typebox");
}
const ourStarted = performance.now();
recording = true;

type Factory = (pi: unknown) => void;
const calls: Record<string, string[]> = {};
const record = (method: string, name: unknown) => {
	calls[method] ??= [];
	const label =
		typeof name === "string"
			? name
			: typeof (name as { name?: unknown })?.name === "string"
				? (name as { name: string }).name
				: "?";
	calls[method].push(label);
};
// Every method the factory calls is recorded; registerTool/registerCommand/on are the ones pi-web-access uses.
const pi = new Proxy({}, { get: (_target, method) => (name: unknown) => record(String(method), name) });

const factory: Factory =
	mode === "extension" ? ((await import("../pi-web-access/index.ts")).default as Factory) : (_pi: unknown) => {};
factory(pi);
const ourMs = performance.now() - ourStarted;
recording = false;

process.stdout.write(
	`${JSON.stringify({ mode, hostMs: performance.now() - hostStarted - ourMs, ourMs, calls, loaded: list ? loaded : undefined })}\n`,
);
