// One-way layers: engine/ is pure. It imports nothing from providers/, extension/, cli/, executor/, runtime/,
// no node:fs, no network modules, no undici, no pi.

import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf } from "./helpers/import-graph.ts";

const root = join(import.meta.dirname, "..");
const FORBIDDEN = [
	/^\.\.\/(providers|extension|cli|executor|runtime|schema)\//,
	/^(node:)?(fs|fs\/promises|net|http|https|http2|dns|tls|dgram|child_process|worker_threads)$/,
	/^undici/,
	/^@earendil-works\//,
];

describe("layers", () => {
	const files = readdirSync(join(root, "engine")).filter((f) => f.endsWith(".ts"));

	it("finds the engine's files and their imports (the scan itself works)", () => {
		expect(files.length).toBeGreaterThan(5);
		expect(importsOf(`import { a } from "../providers/x.ts";\nconst m = await import("node:fs");`)).toEqual([
			"../providers/x.ts",
			"node:fs",
		]);
	});

	it("reaches tldts through require, never an import: an import of CommonJS has Node lex its 220 KB for export names", () => {
		const importers = files.filter((file) =>
			/^import (?!type )[^;]*from "tldts"/m.test(readFileSync(join(root, "engine", file), "utf8")),
		);
		expect(importers).toEqual([]);
		expect(readFileSync(join(root, "engine", "site-normalize.ts"), "utf8")).toContain(
			'createRequire(import.meta.url)("tldts")',
		);
	});

	for (const file of files) {
		it(`engine/${file} imports nothing outside the pure layer`, () => {
			const bad = importsOf(readFileSync(join(root, "engine", file), "utf8")).filter((spec) =>
				FORBIDDEN.some((re) => re.test(spec)),
			);
			expect(bad).toEqual([]);
		});
	}
});
