// The whole repository's import graph: no cycles, and one-way layers. runtime/ is the composition root that
// extension/ and cli/ go through; providers/, executor/ and schema/ never reach up into it.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { findCycles, importEdges, importsOf, type LayerRule, layerViolations } from "./helpers/import-graph.ts";

const root = join(import.meta.dirname, "..");
const FOLDERS = ["engine", "schema", "executor", "providers", "runtime", "extension", "pi-web-access", "cli"];
const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
	peerDependencies: Record<string, string>;
};
/** pi's own packages (peerDependencies): what the host provides to the extension and the CLI. */
const piPackage = (spec: string) =>
	Object.keys(manifest.peerDependencies).some((name) => spec === name || spec.startsWith(`${name}/`));

const RULES: LayerRule[] = [
	{ layer: "engine", allowed: [] },
	{ layer: "extension", allowed: ["runtime", "engine"], packages: piPackage },
	// pi's entry, the extension's one start-up module: the rest of extension/ is loaded from it on first use.
	{ layer: "pi-web-access", allowed: ["extension", "runtime", "engine"], packages: piPackage },
	{ layer: "cli", allowed: ["runtime", "engine"], packages: piPackage },
	{ layer: "providers", forbidden: ["runtime", "extension", "cli", "executor", "schema"] },
	{ layer: "executor", forbidden: ["runtime", "extension", "cli", "schema"] },
	// schema/ publishes the executor's defaults in the config schema, so it may read executor/ (never the reverse).
	{ layer: "schema", forbidden: ["runtime", "extension", "cli"] },
	{ layer: "runtime", forbidden: ["extension", "cli"] },
];

function sourceFiles(): Map<string, string> {
	const files = new Map<string, string>();
	for (const folder of FOLDERS) {
		for (const entry of readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })) {
			if (!entry.endsWith(".ts") || entry.endsWith(".d.ts")) continue;
			const path = `${folder}/${entry.split("\\").join("/")}`;
			files.set(path, readFileSync(join(root, path), "utf8"));
		}
	}
	return files;
}

describe("the scanner (a synthetic graph, so a broken scan cannot pass silently)", () => {
	const synthetic = new Map([
		[
			"cli/main.ts",
			'import type { A } from "./run.ts";\nimport { b } from "../executor/b.ts";\n// from "../schema/cited.ts"\n',
		],
		["cli/run.ts", 'export { c } from "./status.ts";\nimport "node:fs";\nimport x from "left-pad";\n'],
		["cli/status.ts", 'const m = await import("./main.ts");\nimport { y } from "@earendil-works/pi-tui";\n'],
		["executor/b.ts", 'import {\n\tz,\n} from "../runtime/z.ts";\nimport { own } from "./own.ts";\n'],
		["executor/own.ts", 'import { b } from "./own.ts";\n'],
		["runtime/z.ts", 'import type { E } from "../engine/e.ts";\n'],
		["engine/e.ts", "export type E = 1;\n"],
	]);
	const edges = importEdges(synthetic);

	it("reads static, type-only, re-export, side-effect, multi-line and dynamic imports, and skips comments", () => {
		expect(importsOf(synthetic.get("cli/main.ts")!)).toEqual(["./run.ts", "../executor/b.ts"]);
		expect(importsOf(synthetic.get("cli/run.ts")!)).toEqual(["./status.ts", "node:fs", "left-pad"]);
		expect(importsOf(synthetic.get("cli/status.ts")!)).toEqual(["./main.ts", "@earendil-works/pi-tui"]);
		expect(edges.find((e) => e.from === "executor/b.ts")?.to).toBe("runtime/z.ts");
	});

	it("finds every cycle and prints it as a path back to its start", () => {
		expect(findCycles(edges)).toEqual([
			["executor/own.ts", "executor/own.ts"],
			["cli/main.ts", "cli/run.ts", "cli/status.ts", "cli/main.ts"],
		]);
	});

	it("flags imports around the composition root and packages pi does not provide", () => {
		expect(layerViolations(edges, RULES)).toEqual([
			"cli/main.ts → ../executor/b.ts",
			"cli/run.ts → left-pad",
			"executor/b.ts → ../runtime/z.ts",
		]);
	});
});

describe("the repository's imports", () => {
	const files = sourceFiles();
	const edges = importEdges(files);

	it("finds the source files and their imports", () => {
		expect(files.size).toBeGreaterThan(100);
		expect(edges.filter((e) => e.to !== undefined).length).toBeGreaterThan(300);
	});

	it("resolves every relative import to a source file", () => {
		const dangling = edges.filter((e) => e.to?.endsWith(".ts") && !files.has(e.to)).map((e) => `${e.from} → ${e.spec}`);
		expect(dangling).toEqual([]);
	});

	it("has no import cycle", () => {
		expect(findCycles(edges).map((cycle) => cycle.join(" → "))).toEqual([]);
	});

	it("keeps the layers one-way: extension/ and cli/ go through runtime/, nothing below reaches up", () => {
		expect(layerViolations(edges, RULES)).toEqual([]);
	});
});
