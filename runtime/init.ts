// `init`: writes the commented starter file (runtime/starter-file.ts) to the config path, never over an existing
// file unless forced. Shared by `pi-web-access init` and `/web-access init`; the only command that writes a config.

import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type SchemaReference, schemaReference } from "../schema/schema-ref.ts";
import type { CredentialDeps } from "./credentials.ts";
import { starterFile } from "./starter-file.ts";
import { deriveZeroConfig } from "./zero-config.ts";

export interface InitOptions {
	/** The config path (`chooseConfigFile`): an existing candidate is refused without `force`. */
	file: string;
	force: boolean;
	deps: CredentialDeps;
	/** How to run init again with force, for the refusal message. */
	forceHint: string;
}

export type InitOutcome =
	| { written: true; file: string; text: string; schema: SchemaReference; message: string }
	| { written: false; file: string; message: string };

export function initConfigFile(options: InitOptions): InitOutcome {
	const { file, deps } = options;
	const schema = schemaReference({ configFile: file, env: deps.env });
	const config = deriveZeroConfig(deps);
	const text = starterFile(config, deps, schema.ref, file);
	try {
		mkdirSync(dirname(file), { recursive: true });
		// "wx" fails if the file exists, without a window between a check and the write.
		writeFileSync(file, text, { flag: options.force ? "w" : "wx" });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const message =
			code === "EEXIST"
				? `${file} already exists and was not changed; ${options.forceHint} replaces it`
				: `cannot write ${file} (${code ?? (error as Error).message})`;
		return { written: false, file, message };
	}
	const providers = config.providers.map((p) => p.name).join(", ");
	const message = [
		`wrote ${file} (providers: ${providers}; $schema: ${schema.ref})`,
		'next: add providers and keys ("apiKey": "$NAME"), reorder the search/fetch chains, add site rules;',
		"then `pi-web-access check` reports problems as file:line:col (pi reloads the file when it changes).",
	].join("\n");
	return { written: true, file, text, schema, message };
}
