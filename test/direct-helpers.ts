// Shared by the direct provider's tests: a route-based node:http server on a loopback address, a call context with
// the guard opened for loopback, shortcuts for fetching through the definition, and a hand-made PDF.

import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import type { Config } from "../engine/config-types.ts";
import { isWebAccessError, type WebAccessError } from "../engine/errors.ts";
import type { FetchRequest } from "../engine/request-types.ts";
import type { CallContext, ProviderFetchResult } from "../providers/contract.ts";
import directDefault from "../providers/direct/provider.ts";

export const PAGES = join(import.meta.dirname, "fixtures", "pages");
export const page = (name: string) => readFileSync(join(PAGES, name));

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface TestServer {
	origin: string;
	port: number;
	hits: string[];
	route(path: string, handler: Handler): void;
	close(): Promise<void>;
}

export async function startServer(host = "127.0.0.1"): Promise<TestServer> {
	const routes = new Map<string, Handler>();
	const hits: string[] = [];
	const server: Server = createServer((req, res) => {
		hits.push(req.url ?? "");
		const handler = routes.get(new URL(req.url ?? "/", "http://x").pathname);
		if (handler) handler(req, res);
		else res.writeHead(404, { "content-type": "text/plain" }).end("not found");
	});
	await new Promise<void>((resolve) => server.listen(0, host, resolve));
	const { port } = server.address() as AddressInfo;
	return {
		origin: `http://${host}:${port}`,
		port,
		hits,
		route: (path, handler) => routes.set(path, handler),
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

export const send =
	(
		body: string | Buffer,
		headers: Record<string, string> = { "content-type": "text/html; charset=utf-8" },
		status = 200,
	) =>
	(_req: IncomingMessage, res: ServerResponse) =>
		res.writeHead(status, headers).end(body);

export const redirect = (location: string, status = 302) => send("", { location }, status);

export const LOOPBACK: Config["fetchGuard"] = { allowedRanges: ["127.0.0.0/8"] };

export function callContext(
	options: Record<string, unknown> = {},
	fetchGuard = LOOPBACK,
	signal?: AbortSignal,
): CallContext {
	return {
		config: { name: "direct", type: "direct", options },
		signal: signal ?? new AbortController().signal,
		timeoutMs: 20_000,
		onProgress: () => {},
		fetchGuard,
	};
}

export const request = (url: string): FetchRequest => ({ kind: "fetch", url, offset: 0, maxChars: 20_000 });

export async function fetchWith(
	url: string,
	call: CallContext = callContext(),
	provider = directDefault,
): Promise<ProviderFetchResult> {
	return provider.fetch!(request(url), call);
}

export async function failureOf(promise: Promise<unknown>): Promise<WebAccessError> {
	const error = await promise.then(
		() => undefined,
		(e: unknown) => e,
	);
	if (!isWebAccessError(error)) throw new Error(`expected a WebAccessError, got ${String(error)}`);
	return error;
}

/** A minimal PDF with one line of Helvetica text per page and a /Title, with a correct xref table. */
export function makePdf(pages: string[], title: string): Buffer {
	const objects: string[] = [];
	const infoId = 4 + pages.length * 2;
	objects[1] = "<< /Type /Catalog /Pages 2 0 R >>";
	objects[2] = `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + i * 2} 0 R`).join(" ")}] /Count ${pages.length} >>`;
	objects[3] = "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>";
	for (const [i, text] of pages.entries()) {
		const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
		objects[4 + i * 2] =
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`;
		objects[5 + i * 2] = `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`;
	}
	objects[infoId] = `<< /Title (${title}) >>`;
	let out = "%PDF-1.4\n";
	const offsets: number[] = [];
	for (let id = 1; id < objects.length; id++) {
		offsets[id] = out.length;
		out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
	}
	const xref = out.length;
	const entries = offsets.slice(1).map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`);
	out += `xref\n0 ${objects.length}\n0000000000 65535 f \n${entries.join("")}`;
	out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info ${infoId} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, "latin1");
}
