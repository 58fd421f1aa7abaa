// Loopback fakes for end-to-end and extension tests: a backend that records each request (and whether the client
// hung up before the answer was finished), Exa /search answers, and an OpenAI-compatible chat model that streams
// a tool call first and text once the tool result is in the history.

import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Json = Record<string, unknown>;

/** Resolves when `check` returns something other than undefined; rejects after `timeoutMs` saying what it waited for. */
export async function waitFor<T>(what: string, check: () => T | undefined, timeoutMs = 60_000): Promise<T> {
	const started = Date.now();
	for (;;) {
		const value = check();
		if (value !== undefined) return value;
		if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
		await new Promise((done) => setTimeout(done, 20));
	}
}

// ---------------------------------------------------------------------------------------------
// A recording backend (stands in for Exa and the chat API)
// ---------------------------------------------------------------------------------------------

export interface BackendRequest {
	method: string;
	path: string;
	headers: Record<string, string>;
	text: string;
	/** The parsed JSON body, or undefined. */
	json: Json | undefined;
	/** True once the client closed the connection before the answer was finished. */
	closedEarly: boolean;
}

/** What to answer: a JSON body, an SSE transcript, or nothing at all (stall until the client hangs up). */
export type Reply = { status?: number; headers?: Record<string, string>; json?: unknown; sse?: string } | "stall";

export interface Backend {
	url: string;
	requests: BackendRequest[];
	/** Decides each answer; replaceable between tests. */
	reply: (request: BackendRequest, index: number) => Reply;
	clear(): void;
	close(): Promise<void>;
}

export async function startBackend(reply: Backend["reply"]): Promise<Backend> {
	const requests: BackendRequest[] = [];
	const backend: Backend = {
		url: "",
		requests,
		reply,
		clear: () => {
			requests.length = 0;
		},
		close: () => {
			server.closeAllConnections();
			return new Promise((done) => server.close(() => done()));
		},
	};
	const server = createServer((req: IncomingMessage, res: ServerResponse) => {
		const chunks: Buffer[] = [];
		req.on("data", (chunk: Buffer) => chunks.push(chunk));
		req.on("end", () => {
			const text = Buffer.concat(chunks).toString("utf8");
			let json: Json | undefined;
			try {
				json = JSON.parse(text) as Json;
			} catch {
				json = undefined;
			}
			const record: BackendRequest = {
				method: req.method ?? "",
				path: req.url ?? "",
				headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
				text,
				json,
				closedEarly: false,
			};
			const index = requests.push(record) - 1;
			res.on("close", () => {
				if (!res.writableFinished) record.closedEarly = true;
			});
			const answer = backend.reply(record, index);
			if (answer === "stall") return;
			const body = answer.sse ?? JSON.stringify(answer.json ?? {});
			const type = answer.sse !== undefined ? "text/event-stream" : "application/json";
			res.writeHead(answer.status ?? 200, { "content-type": type, ...answer.headers });
			res.end(body);
		});
	});
	await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
	backend.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return backend;
}

/** An Exa /search answer with `count` results on example.org. */
export function exaResults(count: number, label = "result"): Json {
	return {
		requestId: "fake",
		results: Array.from({ length: count }, (_, i) => ({
			id: `https://docs.example.org/${label}/${i + 1}`,
			url: `https://docs.example.org/${label}/${i + 1}`,
			title: `${label} number ${i + 1}`,
			publishedDate: "2025-06-12T00:00:00.000Z",
			highlights: [`highlight of ${label} ${i + 1}`],
			score: 0.5,
		})),
	};
}

// ---------------------------------------------------------------------------------------------
// The fake model (OpenAI chat completions, streamed)
// ---------------------------------------------------------------------------------------------

export interface ChatScript {
	/** The tool call the model makes on a request without a tool result; undefined: answer with text. */
	toolCall?: { name: string; arguments: Json };
	/** The final text once a tool result is in the history. */
	text?: string;
}

function chunk(delta: Json, finish: string | null): string {
	const data = { id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model: "fake-model" };
	return `data: ${JSON.stringify({ ...data, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** A chat completions SSE transcript: a tool call, or text; then usage and [DONE]. */
export function chatSse(answer: { toolCall?: ChatScript["toolCall"]; text?: string }): string {
	let out = "";
	if (answer.toolCall) {
		const call = {
			index: 0,
			id: "call_fake_1",
			type: "function",
			function: { name: answer.toolCall.name, arguments: JSON.stringify(answer.toolCall.arguments) },
		};
		out += chunk({ role: "assistant", tool_calls: [call] }, null);
		out += chunk({}, "tool_calls");
	} else {
		out += chunk({ role: "assistant", content: answer.text ?? "done" }, null);
		out += chunk({}, "stop");
	}
	const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
	out += `data: ${JSON.stringify({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model: "fake-model", choices: [], usage })}\n\n`;
	return `${out}data: [DONE]\n\n`;
}

/** The chat server's reply: tool call first, text once the history holds a `role: "tool"` message. */
export function chatReply(script: ChatScript): Backend["reply"] {
	return (request) => {
		const messages = (request.json?.messages ?? []) as Array<{ role?: string }>;
		const hasToolResult = messages.some((m) => m.role === "tool");
		if (script.toolCall && !hasToolResult) return { sse: chatSse({ toolCall: script.toolCall }) };
		return { sse: chatSse({ text: script.text ?? "done" }) };
	};
}

/** The text of the `role: "tool"` messages of a recorded chat request. */
export function toolMessages(request: BackendRequest): string[] {
	const messages = (request.json?.messages ?? []) as Array<{ role?: string; content?: unknown }>;
	return messages
		.filter((m) => m.role === "tool")
		.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/** Tool names offered in a recorded chat request. */
export function offeredTools(request: BackendRequest): string[] {
	const tools = (request.json?.tools ?? []) as Array<{ function?: { name?: string } }>;
	return tools.map((t) => t.function?.name ?? "");
}

/** The system prompt of a recorded chat request. */
export function systemPrompt(request: BackendRequest): string {
	const messages = (request.json?.messages ?? []) as Array<{ role?: string; content?: unknown }>;
	const system = messages.find((m) => m.role === "system" || m.role === "developer");
	return typeof system?.content === "string" ? system.content : JSON.stringify(system?.content ?? "");
}
