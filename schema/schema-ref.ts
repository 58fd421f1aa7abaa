// The `$schema` reference a config file should carry so an editor finds the schema on this machine: the installed
// package's copy (pi puts npm packages under <agentDir>/npm/node_modules), else this checkout's, else the published URL.

import { existsSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { agentDir } from "./paths.ts";

export const PACKAGE_NAME = "pi-web-access-router";
/** Where the schema sits inside the package, in the sources and in the published tarball alike. */
export const SCHEMA_PACKAGE_PATH = "schema/pi-web-access.schema.json";

export interface SchemaReference {
	/** The value for `"$schema"`: a path relative to the config file, or a URL. */
	ref: string;
	source: "installed" | "checkout" | "published";
}

/** The published copy of a version's schema (unpkg serves any file of an npm package at a version). */
export function publishedSchemaUrl(version: string): string {
	return `https://unpkg.com/${PACKAGE_NAME}@${version}/${SCHEMA_PACKAGE_PATH}`;
}

/** This package's root: the nearest folder up from this module whose package.json is ours (sources or dist/). */
export function packageRoot(from: string = dirname(fileURLToPath(import.meta.url))): { dir: string; version: string } {
	for (let dir = from, depth = 0; depth < 6; dir = dirname(dir), depth++) {
		try {
			const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
				name?: string;
				version?: string;
			};
			if (manifest.name === PACKAGE_NAME) return { dir, version: manifest.version ?? "latest" };
		} catch {
			// no package.json here: keep walking up
		}
		if (dirname(dir) === dir) break;
	}
	throw new Error(`cannot find ${PACKAGE_NAME}'s package.json above ${from}`);
}

/** How `configFile` reaches `target`: a relative path with forward slashes, or a file URL across drives. */
function relativeRef(configFile: string, target: string): string {
	const path = relative(dirname(configFile), target);
	if (isAbsolute(path)) return pathToFileURL(target).href;
	return path.split(sep).join("/");
}

export interface SchemaReferenceOptions {
	/** The config file the reference goes into (relative paths start from its folder). */
	configFile: string;
	env?: Record<string, string | undefined>;
	/** This package's root and version (default: found from this module). */
	root?: { dir: string; version: string };
}

/** Picks the first reference that resolves here, in the order the README documents. */
export function schemaReference(options: SchemaReferenceOptions): SchemaReference {
	const root = options.root ?? packageRoot();
	const installed = join(agentDir(options.env), "npm", "node_modules", PACKAGE_NAME, SCHEMA_PACKAGE_PATH);
	if (existsSync(installed)) return { ref: relativeRef(options.configFile, installed), source: "installed" };
	// A git checkout stays where it is; a package run from npx's cache or a temp folder does not.
	const own = join(root.dir, SCHEMA_PACKAGE_PATH);
	if (existsSync(join(root.dir, ".git")) && existsSync(own)) {
		return { ref: relativeRef(options.configFile, own), source: "checkout" };
	}
	return { ref: publishedSchemaUrl(root.version), source: "published" };
}
