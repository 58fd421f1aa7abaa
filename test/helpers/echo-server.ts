// A loopback backend (node:http on 127.0.0.1, port 0) that echoes the credentials it receives back in faults:
// a 401 naming the key, a 429, a 500 dumping the request headers, an HTML page, garbled JSON, an in-band error,
// or a real success from the provider fixtures (also with the key in its titles and snippets). Each echo carries the
// key, a 12-character piece of it from a chosen offset, its base64 and its URL encoding. Mode and type ride in the
// path: `<url>/<mode>/<type>/…`.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fixture, fixtureJson } from "../contract/provider-contract.ts";
import { messagesSse } from "./model-sse.ts";

export const ECHO_MODES = [
	"401-echo",
	"429",
	"500-headers",
	"html-echo",
	"garbled-json",
	"inband-echo",
	"success",
	"success-echo",
] as const;
export type EchoMode = (typeof ECHO_MODES)[number];

export interface EchoServer {
	url: string;
	/** The base URL a provider of `type` uses to get `mode` answers. */
	base(mode: EchoMode, type: string): string;
	/** Characters put before every echoed key, so echoes land anywhere in a message (200-char cuts!). */
	pad: number;
	/** Where the echoed 12-character piece of a key starts (from its end when negative); see echoPiece. */
	pieceAt: number;
	/** Requests answered, and those that carried a credential. */
	counts: { requests: number; withCredential: number };
	close(): Promise<void>;
}

type Reply = { status: number; type: string; body: string; headers?: Record<string, string> };

const CREDENTIAL_HEADER = /auth|key|token|secret/i;

/** Every credential the request carried: key-ish header values (bare and as sent) and key-ish query values. */
function credentials(req: IncomingMessage, url: URL): string[] {
	const found: string[] = [];
	for (const [name, value] of Object.entries(req.headers)) {
		if (!CREDENTIAL_HEADER.test(name) || typeof value !== "string") continue;
		found.push(value.replace(/^(bearer|basic|token)\s+/i, ""));
	}
	for (const [name, value] of url.searchParams) if (/key|token/i.test(name)) found.push(value);
	return found;
}

const MESSAGES_TYPES = new Set(["anthropic", "sub2api-claude"]);
const GROK_TYPES = new Set(["xai", "sub2api-grok"]);

/** A provider's normal answer for this request, from the shared fixtures. */
function success(type: string, path: string, body: string, stream: boolean): Reply {
	const json = (file: string): Reply => ({ status: 200, type: "application/json", body: fixture(file) });
	const sse = (text: string): Reply => ({ status: 200, type: "text/event-stream", body: text });
	const isFetch = /web_fetch|url_context|"open"|\/contents|\/extract|\/fetch|\/https?:\//.test(`${path} ${body}`);
	if (MESSAGES_TYPES.has(type) || path.endsWith("/messages")) {
		if (isFetch) {
			const message = fixtureJson("anthropic/response_web_fetch_success.json") as Record<string, unknown>;
			return stream ? sse(messagesSse(message)) : json("anthropic/response_web_fetch_success.json");
		}
		return stream
			? sse(fixture("anthropic/stream_web_search.sse"))
			: json("anthropic/response_web_search_success.json");
	}
	if (type === "gemini" || /generateContent/.test(path)) {
		return stream ? sse(fixture("gemini/stream.sse")) : json("gemini/response_success.json");
	}
	if (GROK_TYPES.has(type)) return stream ? sse(fixture("xai/stream.sse")) : json("xai/response_success.json");
	if (path.endsWith("/responses"))
		return stream ? sse(fixture("openai/stream.sse")) : json("openai/response_success.json");
	switch (type) {
		case "brave":
			return json("brave/search_success.json");
		case "deepseek":
			return json(isFetch ? "deepseek/fetch_success.json" : "deepseek/search_success.json");
		case "doubao":
			return json("doubao/web_search_success.json");
		case "doubao-global":
			return json("doubao/global_search_success.json");
		case "exa":
			return json(isFetch ? "exa/contents_success_partial.json" : "exa/search_success.json");
		case "jina":
			return json(isFetch ? "jina/reader_success.json" : "jina/search_success.json");
		case "ollama":
			return json(isFetch ? "ollama/web_fetch_success.json" : "ollama/web_search_success.json");
		case "searxng":
			return json("searxng/search_success.json");
		case "sub2api-search":
			return json(isFetch ? "sub2api-search/open_response.json" : "sub2api-search/search_response.json");
		case "tavily":
			return json(isFetch ? "tavily/extract_success.json" : "tavily/search_success.json");
		default:
			return {
				status: 200,
				type: "text/html; charset=utf-8",
				body: `<!doctype html><html><head><title>A page</title></head><body><main><h1>A page</h1>${"<p>Plain words about widgets and gadgets.</p>".repeat(20)}</main></body></html>`,
			};
	}
}

/** The backend's error carrying `message`, in the shape each family reports errors inside a 200. */
function inBand(type: string, message: string, stream: boolean): Reply {
	const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
	if (stream && MESSAGES_TYPES.has(type)) {
		return {
			status: 200,
			type: "text/event-stream",
			body: event("error", { type: "error", error: { type: "authentication_error", message } }),
		};
	}
	if (stream && type === "gemini") {
		return {
			status: 200,
			type: "text/event-stream",
			body: `data: ${JSON.stringify({ error: { code: 401, message, status: "UNAUTHENTICATED" } })}\r\n\r\n`,
		};
	}
	if (stream) {
		const failed = {
			type: "response.failed",
			response: { status: "failed", error: { code: "invalid_api_key", message } },
		};
		return {
			status: 200,
			type: "text/event-stream",
			body: event("error", { type: "error", code: "invalid_api_key", message }) + event("response.failed", failed),
		};
	}
	const body = {
		code: 401,
		message,
		error: { message, code: "invalid_api_key" },
		ResponseMetadata: { Error: { Code: "InvalidAuthorization", CodeN: 700901, Message: message } },
		Result: null,
		answer: { text: message },
		results: [],
	};
	return { status: 200, type: "application/json", body: JSON.stringify(body) };
}

/** The 12-character piece of `key` that the backend echoes: from `at` characters in (from the end when negative). */
export function echoPiece(key: string, at: number): string {
	const start = at >= 0 ? at : key.length - 12 + at;
	return start < 0 || start + 12 > key.length ? "" : key.slice(start, start + 12);
}

/** How a careless backend repeats a credential: whole, a piece from the middle, base64, URL-encoded. */
function echoForms(credential: string, pieceAt: number): string {
	const forms = [credential, echoPiece(credential, pieceAt), Buffer.from(credential).toString("base64")];
	return [...forms, encodeURIComponent(credential)].join(" / ");
}

const ECHO_FIELDS = /^(title|snippet|text|content|summary|description|answer|markdown|highlights|Snippet|Title)$/;

/** A success body with ` <echo>` appended to every text field (JSON, or each JSON `data:` line of a stream). */
function withEcho(answer: Reply, echoed: string): Reply {
	const walk = (value: unknown, name: string): unknown => {
		if (typeof value === "string") return ECHO_FIELDS.test(name) ? `${value} ${echoed}` : value;
		if (Array.isArray(value)) return value.map((item) => walk(item, name));
		if (value === null || typeof value !== "object") return value;
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, key)]));
	};
	const rewrite = (text: string): string => {
		try {
			return JSON.stringify(walk(JSON.parse(text), ""));
		} catch {
			return text;
		}
	};
	if (answer.type.includes("json")) return { ...answer, body: rewrite(answer.body) };
	if (!answer.type.includes("event-stream")) return answer;
	const lines = answer.body.split(/(\r?\n)/);
	return {
		...answer,
		body: lines.map((line) => (line.startsWith("data: ") ? `data: ${rewrite(line.slice(6))}` : line)).join(""),
	};
}

function reply(mode: EchoMode, type: string, req: IncomingMessage, url: URL, body: string, echo: EchoServer): Reply {
	const { pad } = echo;
	const echoed = credentials(req, url)
		.map((credential) => echoForms(credential, echo.pieceAt))
		.join(" ");
	const lead = ".".repeat(pad);
	const message = `${lead}invalid API key ${echoed} for ${url.pathname}${url.search}`;
	const stream = /event-stream/.test(req.headers.accept ?? "") || /alt=sse/.test(url.search);
	switch (mode) {
		case "401-echo":
			return {
				status: 401,
				type: "application/json",
				body: JSON.stringify({ error: { message, type: "invalid_request_error" }, detail: message }),
			};
		case "429":
			return {
				status: 429,
				type: "application/json",
				headers: { "retry-after": "1" },
				body: JSON.stringify({ error: { message: `${lead}rate limit exceeded for key ${echoed}` } }),
			};
		case "500-headers": {
			const dump = Object.entries(req.headers).map(([name, value]) => `${name}: ${String(value)}`);
			return { status: 500, type: "text/plain", body: `${lead}upstream failed for\n${req.url}\n${dump.join("\n")}` };
		}
		case "html-echo":
			return {
				status: 200,
				type: "text/html",
				body: `<!doctype html><html><body><h1>Sign in</h1><p>${lead}The key ${echoed} is not valid.</p></body></html>`,
			};
		case "garbled-json":
			return {
				status: 200,
				type: "application/json",
				body: `{"results": [{"title": "${lead}${echoed}", "url": "https://docs.exa`,
			};
		case "inband-echo":
			return inBand(type, message, stream);
		case "success":
			return success(type, url.pathname, body, stream);
		case "success-echo":
			return withEcho(success(type, url.pathname, body, stream), echoed);
	}
}

export async function startEchoServer(): Promise<EchoServer> {
	const counts = { requests: 0, withCredential: 0 };
	const echo: EchoServer = {
		url: "",
		base: (mode, type) => `${echo.url}/${mode}/${type}`,
		pad: 0,
		pieceAt: 1,
		counts,
		close: () => {
			server.closeAllConnections();
			return new Promise((done) => server.close(() => done()));
		},
	};
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const url = new URL(req.url ?? "/", "http://127.0.0.1");
			const [, mode = "", type = ""] = url.pathname.split("/");
			counts.requests++;
			if (credentials(req, url).length > 0) counts.withCredential++;
			const known = (ECHO_MODES as readonly string[]).includes(mode);
			const answer = known
				? reply(mode as EchoMode, type, req, url, Buffer.concat(chunks).toString("utf8"), echo)
				: { status: 404, type: "text/plain", body: "echo-server: unknown mode" };
			res.writeHead(answer.status, {
				"content-type": answer.type,
				"content-length": String(Buffer.byteLength(answer.body)),
				...answer.headers,
			});
			res.end(answer.body);
		});
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	echo.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return echo;
}
