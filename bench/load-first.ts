// Child process of the load scenario (bench/load.ts): the first load + compile of a config file in a fresh process,
// as pi's host or the CLI does it at start. Prints one JSON line: the loader's module imports, then the first
// loadConfigText and compile (cold code, empty memos), wall and CPU (ms). Usage: node bench/load-first.ts <file>

import { readFileSync } from "node:fs";

const file = process.argv[2];
if (!file) throw new Error("usage: node bench/load-first.ts <config file>");
const text = readFileSync(file, "utf8");
const cpuMs = () => {
	const used = process.cpuUsage();
	return (used.user + used.system) / 1000;
};
const started = performance.now();
const cpuStarted = cpuMs();
const [{ loadConfigText }, { compile }] = await Promise.all([
	import("../schema/load.ts"),
	import("../engine/route.ts"),
]);
const imported = performance.now();
const cpuImported = cpuMs();
const loaded = loadConfigText(text, file);
const parsed = performance.now();
compile(loaded.config);
const done = performance.now();
process.stdout.write(
	`${JSON.stringify({
		importMs: imported - started,
		importCpuMs: cpuImported - cpuStarted,
		loadMs: parsed - imported,
		compileMs: done - parsed,
		firstMs: done - imported,
		firstCpuMs: cpuMs() - cpuImported,
		diagnostics: loaded.diagnostics.length,
	})}\n`,
);
