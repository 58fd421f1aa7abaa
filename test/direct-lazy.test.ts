// Importing the direct provider must not load its heavy modules (htmlparser2 and the conversion pipeline,
// unpdf, iconv-lite): pi loads provider modules at start-up. A child node process records every module it loads
// through a module.registerHooks load hook, imports the definition, then (as a control proving the hook sees these
// modules) runs a conversion, a GBK decode and a PDF parse.

import { execFile } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");
const HEAVY = ["htmlparser2", "unpdf", "iconv-lite"];

const CHILD = `
import { registerHooks } from "node:module";
const loaded = [];
registerHooks({ load(url, context, nextLoad) { loaded.push(url); return nextLoad(url, context); } });
const root = process.env.DIRECT_ROOT;
const definition = (await import(root + "/providers/direct/provider.ts")).default;
const afterImport = [...loaded];
const { htmlToMarkdown } = await import(root + "/providers/direct/html-to-markdown.ts");
const { decodeBody } = await import(root + "/providers/direct/charset.ts");
const { pdfToText } = await import(root + "/providers/direct/pdf.ts");
await htmlToMarkdown("<p>hello</p>", "https://example.com/");
await decodeBody(new Uint8Array([0xc4, 0xe3]), "text/plain; charset=gbk", false);
await pdfToText(new Uint8Array([37, 80, 68, 70])).catch(() => {});
process.stdout.write(JSON.stringify({ type: definition.type, afterImport, afterUse: loaded }));
`;

function runChild(): Promise<{ type: string; afterImport: string[]; afterUse: string[] }> {
	return new Promise((resolve, reject) => {
		execFile(
			process.execPath,
			["--input-type=module", "--no-warnings", "-e", CHILD],
			{ cwd: ROOT, env: { ...process.env, DIRECT_ROOT: pathToFileURL(ROOT).href }, timeout: 60_000 },
			(error, stdout, stderr) => {
				if (error) reject(new Error(`child failed: ${error.message}\n${stderr}`));
				else resolve(JSON.parse(stdout));
			},
		);
	});
}

const heavyIn = (urls: string[]) =>
	HEAVY.filter((name) => urls.some((url) => url.includes(`/node_modules/${name}/`))).sort();

describe("lazy loading", () => {
	it("imports providers/direct/provider.ts without loading any heavy module; they load on first use", async () => {
		const { type, afterImport, afterUse } = await runChild();
		expect(type).toBe("direct");
		expect(afterImport.some((url) => url.endsWith("/providers/direct/provider.ts"))).toBe(true);
		expect(heavyIn(afterImport)).toEqual([]);
		// Control: the same hook does see them once they are used.
		expect(heavyIn(afterUse)).toEqual(["htmlparser2", "iconv-lite", "unpdf"]);
		expect(afterImport.some((url) => url.endsWith("/providers/direct/extract-page.ts"))).toBe(false);
		expect(afterUse.some((url) => url.endsWith("/providers/direct/extract-page.ts"))).toBe(true);
	});
});
