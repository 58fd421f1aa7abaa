// `init`: writes the commented starter file (runtime/starter-file.ts) to the config path, never over an existing
// file unless forced. Shared by `pi-web-access init` and `/web-access init`; the only command that writes a config.
// It writes a regular file only: a FIFO, device or folder is refused, and so is a symbolic link, named with its
// target: written through, a planted link would let `init --force` replace any file it points at.

import {
	closeSync,
	constants,
	fstatSync,
	ftruncateSync,
	lstatSync,
	mkdirSync,
	openSync,
	readlinkSync,
	realpathSync,
	writeFileSync,
	writeSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import { kindOf } from "../providers/read-bounded.ts";
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
	/** What shows the file's problems, for the message after writing it (`/web-access` in pi). */
	checkHint: string;
}

export type InitOutcome =
	| { written: true; file: string; text: string; schema: SchemaReference; message: string }
	| { written: false; file: string; message: string };

export function initConfigFile(options: InitOptions): InitOutcome {
	const { file, deps } = options;
	const schema = schemaReference({ configFile: file, env: deps.env });
	const config = deriveZeroConfig(deps);
	const text = starterFile(config, deps, schema.ref, file);
	const refused = notAFile(file);
	if (refused !== undefined) return { written: false, file, message: refused };
	try {
		mkdirSync(dirname(file), { recursive: true });
		// "wx" fails if the file exists, without a window between a check and the write.
		if (options.force) replaceFile(file, text);
		else writeFileSync(file, text, { flag: "wx" });
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
		`then ${options.checkHint} problems as file:line:col (pi reloads the file when it changes).`,
	].join("\n");
	return { written: true, file, text, schema, message };
}

/** Why `file` is not a path init writes to (a link, a FIFO, a device, a folder); undefined when it is absent or a file. */
function notAFile(file: string): string | undefined {
	let stats: ReturnType<typeof lstatSync>;
	try {
		stats = lstatSync(file);
	} catch {
		return undefined; // absent (or unreachable: the write says why)
	}
	if (stats.isSymbolicLink()) {
		const target = linkTarget(file);
		return `${file} is a symbolic link to ${target}; init does not write through a link: to replace ${target}, run init with --config ${target}, or remove the link first`;
	}
	const kind = kindOf(stats);
	return kind === undefined
		? undefined
		: `${file} is ${kind}, not a regular file; init writes only a regular file: remove it, or choose another path with --config`;
}

/** Where a link leads: its real path, or for a dangling link what it names. */
function linkTarget(link: string): string {
	try {
		return realpathSync(link);
	} catch {
		return resolve(dirname(link), readlinkSync(link));
	}
}

/**
 * Replaces a regular file's text. O_NOFOLLOW and O_NONBLOCK: a link or FIFO swapped in after notAFile()'s check
 * fails the open at once (ELOOP, ENXIO) instead of being followed or waited on; the type is checked again on the
 * open descriptor before anything is truncated.
 */
function replaceFile(file: string, text: string): void {
	const flags = constants.O_WRONLY | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
	const fd = openSync(file, flags, 0o644);
	try {
		if (!fstatSync(fd).isFile()) throw Object.assign(new Error("not a regular file"), { code: "ENOTREG" });
		ftruncateSync(fd);
		const bytes = Buffer.from(text);
		for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
	} finally {
		closeSync(fd);
	}
}
