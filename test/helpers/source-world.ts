// A loopback world for the source readers' tests: an API server answering recorded fixtures
// (test/fixtures/sources/<source>/), a page server standing in for the public site, and the settings that point a
// source's origin and hosts at them, so the direct provider reads through the real seam.

import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SourceConfig } from "../../engine/config-types.ts";
import type { CallContext } from "../../providers/contract.ts";
import type { SourceReader, SourceSettings } from "../../providers/sources/contract.ts";
import { readSource } from "../../providers/sources/read.ts";
import { sourceSettings } from "../../providers/sources/settings.ts";
import { callContext, send, startServer, type TestServer } from "../direct-helpers.ts";

export const SOURCE_FIXTURES = join(import.meta.dirname, "..", "fixtures", "sources");

export const fixture = (source: string, name: string): string =>
	readFileSync(join(SOURCE_FIXTURES, source, name), "utf8");

export const json = (body: string, status = 200, headers: Record<string, string> = {}) =>
	send(body, { "content-type": "application/json; charset=utf-8", ...headers }, status);

export interface SourceWorld {
	api: TestServer;
	page: TestServer;
	/** Authorization headers each server received, by path. */
	auth: { api: string[]; page: string[] };
	/** Settings of `source` with its origin on the API server and its host the page server. */
	settings(source: string, own?: SourceConfig, resolveToken?: SourceSettings["resolveToken"]): SourceSettings;
	call(source: string, own?: SourceConfig, resolveToken?: SourceSettings["resolveToken"]): CallContext;
	close(): Promise<void>;
}

const ORIGIN_OPTION: Record<string, "apiUrl" | "registryUrl" | "url"> = {
	npm: "registryUrl",
	pypi: "url",
	go: "url",
	docsrs: "url",
};

export async function startSourceWorld(): Promise<SourceWorld> {
	const [api, page] = await Promise.all([startServer(), startServer()]);
	const auth = { api: [] as string[], page: [] as string[] };
	const world: SourceWorld = {
		api,
		page,
		auth,
		settings(source, own = {}, resolveToken) {
			const option = ORIGIN_OPTION[source] ?? "apiUrl";
			const config: SourceConfig = { [option]: api.origin, hosts: [`127.0.0.1:${page.port}`], ...own };
			return sourceSettings({ [source]: config }, resolveToken);
		},
		call(source, own, resolveToken) {
			return { ...callContext(), sources: world.settings(source, own, resolveToken) };
		},
		close: async () => {
			await Promise.all([api.close(), page.close()]);
		},
	};
	return world;
}

/** What the direct provider's first step makes of `url`: the reader's result, or why the page is read instead. */
export function readThrough(url: string, call: CallContext) {
	const fetch = { provider: "direct", signal: new AbortController().signal, userAgent: "test", guard: call.fetchGuard };
	return readSource(url, call, { fetch });
}

/** Each of `parts` is in `text`, in this order. */
export function expectInOrder(text: string, parts: readonly string[]): void {
	const at = parts.map((part) => text.indexOf(part));
	expect(
		at.every((position) => position >= 0),
		`all of ${JSON.stringify(parts)} present`,
	).toBe(true);
	expect([...at].sort((a, b) => a - b)).toEqual(at);
}

/** Wraps a handler so the Authorization header it received is recorded (`-` when none). */
export function recordAuth(list: string[], handler: (req: IncomingMessage, res: ServerResponse) => void) {
	return (req: IncomingMessage, res: ServerResponse) => {
		list.push(req.headers.authorization ?? "-");
		handler(req, res);
	};
}

/** One test per row: a reader's match of a URL is the parts given (undefined: the reader does not serve the URL). */
export function describeMatches(
	title: string,
	rows: ReadonlyArray<readonly [SourceReader, string, Record<string, string> | undefined]>,
): void {
	describe(title, () => {
		for (const [reader, url, expected] of rows) {
			it(`${reader.name}: ${url}`, () => expect(reader.match(new URL(url))).toEqual(expected));
		}
	});
}
