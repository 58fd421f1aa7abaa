// Child process: loads the extension as pi's bundled CLI does (pi's own jiti and its virtual modules for pi's
// packages, a fresh jiti with moduleCache off), runs the factory against a recording ExtensionAPI and prints one JSON
// line: the repository files jiti read, in order, what the factory registered and the bytes the load and the factory
// allocated. Usage: node <this> <entry.ts>

import fs from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { GCProfiler, getHeapStatistics } from "node:v8";

const CHUNKS = join(import.meta.dirname, "../../node_modules/@earendil-works/pi-coding-agent/dist/bundle/chunks");
const REPO = join(import.meta.dirname, "../..");

/** A chunk of pi's bundle by the start of its name (the rest is a content hash). */
function chunk(prefix: string): string {
	const name = fs.readdirSync(CHUNKS).find((file) => file.startsWith(prefix));
	if (!name) throw new Error(`pi's bundle has no ${prefix}* chunk in ${CHUNKS}`);
	return join(CHUNKS, name);
}

const { VIRTUAL_MODULES } = (await import(chunk("virtual-modules-"))) as { VIRTUAL_MODULES: Record<string, unknown> };
const { createJiti } = (await import(chunk("jiti-static-loader-"))) as {
	createJiti(from: string, options: object): { import(id: string, options: object): Promise<unknown> };
};

// jiti reads each module's source with fs.readFileSync, and so does a module that reads a data file (by path or
// file URL): the files read are the modules loaded and the data they read.
const read: string[] = [];
const readFileSync = fs.readFileSync;
fs.readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
	const file = path instanceof URL ? fileURLToPath(path) : path;
	if (typeof file === "string" && file.startsWith(`${REPO}/`) && !file.includes("/node_modules/"))
		read.push(file.slice(REPO.length + 1));
	return (readFileSync as (...args: unknown[]) => unknown)(path, ...rest);
}) as typeof fs.readFileSync;

const calls: Record<string, string[]> = {};
const pi = new Proxy(
	{},
	{
		get: (_target, method) => (name: unknown) => {
			const label = typeof name === "string" ? name : String((name as { name?: unknown })?.name ?? "?");
			calls[String(method)] = [...(calls[String(method)] ?? []), label];
		},
	},
);
// The options pi's loader passes in its bundled CLI (core/extensions/loader.js, usesEmbeddedModules).
const jiti = createJiti(chunk("jiti-static-loader-"), {
	moduleCache: false,
	virtualModules: VIRTUAL_MODULES,
	tryNative: false,
});
// The heap used before and after, with no collection between (pi-loader.ts gives a young generation none needs to
// run in; a run in which one ran reports no figure).
const collections = new GCProfiler();
collections.start();
const usedBefore = getHeapStatistics().used_heap_size;
const factory = (await jiti.import(process.argv[2] ?? "", { default: true })) as (api: unknown) => void;
factory(pi);
const allocated = getHeapStatistics().used_heap_size - usedBefore;
const collected = (collections.stop()?.statistics.length ?? 0) > 0;
fs.readFileSync = readFileSync;
process.stdout.write(`${JSON.stringify({ loaded: read, calls, allocated: collected ? null : allocated })}\n`);
