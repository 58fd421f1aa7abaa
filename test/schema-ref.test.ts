// Every `$schema` reference we offer (schema/schema-ref.ts: installed package, checkout, published URL) resolves to
// the same schema: file references are followed from the config file and compared byte for byte, the URL is mapped
// to the package path and version it names. An editor engine follows each one too.

import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
	PACKAGE_NAME,
	packageRoot,
	publishedSchemaUrl,
	SCHEMA_PACKAGE_PATH,
	type SchemaReference,
	schemaReference,
} from "../schema/schema-ref.ts";
import { diagnose, editor, REPO_SCHEMA, schemaFileFor } from "./helpers/json-language.ts";

const shipped = readFileSync(REPO_SCHEMA, "utf8");
const { version } = packageRoot();

/** The file a reference names, followed as an editor does: relative to the config file's folder. */
function target(ref: SchemaReference, configFile: string): string {
	if (ref.source === "published") return schemaFileFor(ref.ref);
	if (ref.ref.startsWith("file:")) return fileURLToPath(ref.ref);
	return resolve(dirname(configFile), ref.ref);
}

function sandbox() {
	const home = mkdtempSync(join(tmpdir(), "pwa-schema-ref-"));
	const agent = join(home, "agent");
	mkdirSync(agent, { recursive: true });
	return { home, agent, env: { HOME: home, PI_CODING_AGENT_DIR: agent }, config: join(agent, "pi-web-access.json") };
}

async function editorFollows(ref: SchemaReference, configFile: string): Promise<void> {
	const run = editor();
	const text = `{\n\t"$schema": ${JSON.stringify(ref.ref)},\n\t"providers": { "d": { "type": "direct" } }\n}\n`;
	writeFileSync(configFile, text);
	expect(await diagnose(run, configFile, text)).toEqual([]);
	expect(run.requested).toHaveLength(1);
	expect(readFileSync(schemaFileFor(run.requested[0] as string), "utf8")).toBe(shipped);
}

describe("$schema references", () => {
	it("prefers the package pi installed under <agentDir>/npm/node_modules, as a path relative to the config", async () => {
		const box = sandbox();
		const installed = join(box.agent, "npm", "node_modules", PACKAGE_NAME, SCHEMA_PACKAGE_PATH);
		mkdirSync(dirname(installed), { recursive: true });
		copyFileSync(REPO_SCHEMA, installed);
		const ref = schemaReference({ configFile: box.config, env: box.env });
		expect(ref).toEqual({ ref: `npm/node_modules/${PACKAGE_NAME}/${SCHEMA_PACKAGE_PATH}`, source: "installed" });
		expect(readFileSync(target(ref, box.config), "utf8")).toBe(shipped);
		await editorFollows(ref, box.config);
	});

	it("else, run from a git checkout, this checkout's schema", async () => {
		const box = sandbox();
		const ref = schemaReference({ configFile: box.config, env: box.env });
		expect(ref.source).toBe("checkout");
		expect(ref.ref).toMatch(/^(\.\.\/)+.*schema\/pi-web-access\.schema\.json$/);
		expect(target(ref, box.config)).toBe(REPO_SCHEMA);
		await editorFollows(ref, box.config);
	});

	it("else the published file of this version, which maps to this package's schema path", async () => {
		const box = sandbox();
		const copy = mkdtempSync(join(tmpdir(), "pwa-not-a-checkout-")); // no .git: an npx cache, a tarball
		const ref = schemaReference({ configFile: box.config, env: box.env, root: { dir: copy, version } });
		expect(ref).toEqual({ ref: publishedSchemaUrl(version), source: "published" });
		expect(ref.ref).toBe(`https://unpkg.com/${PACKAGE_NAME}@${version}/${SCHEMA_PACKAGE_PATH}`);
		// The schema's own $id is that URL: the published file names itself.
		expect(JSON.parse(shipped).$id).toBe(ref.ref);
		expect(readFileSync(target(ref, box.config), "utf8")).toBe(shipped);
		await editorFollows(ref, box.config);
		expect(() => schemaFileFor(publishedSchemaUrl("0.0.0-other"))).toThrow(/not this package's published schema/);
	});

	it("the version and name come from package.json, which lists schema/ in what is published", () => {
		const manifest = JSON.parse(readFileSync(join(packageRoot().dir, "package.json"), "utf8"));
		expect(manifest.name).toBe(PACKAGE_NAME);
		expect(manifest.version).toBe(version);
		const published = (manifest.files as string[]).some((f) =>
			`${SCHEMA_PACKAGE_PATH}/`.startsWith(`${f.replace(/\/$/, "")}/`),
		);
		expect(published).toBe(true);
	});
});
