// VS Code's own JSON language service (vscode-json-languageservice) run on config text as an editor would: the
// document's `$schema` resolved relative to its URI, schemas served from disk (and the published URL mapped to the
// repository's file after checking package and version), no network. Positions are 1-based like our diagnostics.

import { readFileSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";
import { getLanguageService, type LanguageService } from "vscode-json-languageservice";
import { TextDocument } from "vscode-languageserver-textdocument";
import { PACKAGE_NAME, packageRoot, SCHEMA_PACKAGE_PATH } from "../../schema/schema-ref.ts";

export const REPO_SCHEMA = fileURLToPath(new URL("../../schema/pi-web-access.schema.json", import.meta.url));

/** What a schema URI maps to: a file on disk, or the published URL of this package's schema at this version. */
export function schemaFileFor(uri: string): string {
	if (uri.startsWith("file:")) return fileURLToPath(uri);
	const published = /^https:\/\/(?:unpkg\.com|cdn\.jsdelivr\.net\/npm)\/([^@/]+)@([^/]+)\/(.+)$/.exec(uri);
	const { version } = packageRoot();
	if (published && published[1] === PACKAGE_NAME && published[2] === version && published[3] === SCHEMA_PACKAGE_PATH) {
		return REPO_SCHEMA;
	}
	throw new Error(`no network in tests: ${uri} is not this package's published schema at ${version}`);
}

export interface EditorRun {
	service: LanguageService;
	/** Every schema URI the service asked for. */
	requested: string[];
}

/** A language service as VS Code sets one up for a JSON-with-comments file. */
export function editor(): EditorRun {
	const requested: string[] = [];
	const service = getLanguageService({
		schemaRequestService: async (uri) => {
			requested.push(uri);
			return readFileSync(schemaFileFor(uri), "utf8");
		},
		workspaceContext: { resolveRelativePath: (relative, resource) => new URL(relative, resource).href },
	});
	service.configure({ allowComments: true, validate: true });
	return { service, requested };
}

export interface Found {
	line: number;
	col: number;
	message: string;
}

const at = (doc: TextDocument, offset: number) => {
	const p = doc.positionAt(offset);
	return { line: p.line + 1, col: p.character + 1 };
};

/** A document for `text` at `file` (absolute path); `|` marks the cursor and is removed. */
export function open(file: string, text: string): { doc: TextDocument; cursor: number } {
	const cursor = text.indexOf("|");
	const clean = cursor >= 0 ? text.slice(0, cursor) + text.slice(cursor + 1) : text;
	return { doc: TextDocument.create(pathToFileURL(file).href, "jsonc", 1, clean), cursor };
}

/** Diagnostics as VS Code's jsonc mode shows them: comments fine, trailing commas and JSON5 syntax reported. */
export async function diagnose(run: EditorRun, file: string, text: string): Promise<Found[]> {
	const { doc } = open(file, text);
	const json = run.service.parseJSONDocument(doc);
	const found = await run.service.doValidation(doc, json, { comments: "ignore", trailingCommas: "error" });
	return found.map((d) => ({
		...at(doc, doc.offsetAt(d.range.start)),
		message: typeof d.message === "string" ? d.message : d.message.value,
	}));
}

export async function complete(run: EditorRun, file: string, text: string): Promise<string[]> {
	const { doc, cursor } = open(file, text);
	const list = await run.service.doComplete(doc, doc.positionAt(cursor), run.service.parseJSONDocument(doc));
	return (list?.items ?? []).map((item) => item.label);
}

export async function hover(run: EditorRun, file: string, text: string): Promise<string> {
	const { doc, cursor } = open(file, text);
	const result = await run.service.doHover(doc, doc.positionAt(cursor), run.service.parseJSONDocument(doc));
	const contents = result?.contents;
	const parts = Array.isArray(contents) ? contents : contents ? [contents] : [];
	return parts.map((p) => (typeof p === "string" ? p : p.value)).join("\n");
}
