// The SSE parser: line-end variants, multi-line data, comments, event/id fields, chunk boundaries anywhere,
// and a stream that ends inside an event.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSseParser, type SseEvent } from "../providers/http/sse.ts";
import { fixture } from "./contract/provider-contract.ts";

function parseAll(chunks: string[]): { events: SseEvent[]; truncated: boolean } {
	const parser = createSseParser();
	const events = chunks.flatMap((chunk) => parser.push(chunk));
	const end = parser.end();
	return { events: [...events, ...end.events], truncated: end.truncated };
}

describe("createSseParser", () => {
	it.each([
		["LF", "data: a\n\ndata: b\n\n"],
		["CRLF", "data: a\r\n\r\ndata: b\r\n\r\n"],
		["CR", "data: a\r\rdata: b\r\r"],
	])("splits events on %s line ends", (_name, text) => {
		expect(parseAll([text])).toEqual({ events: [{ data: "a" }, { data: "b" }], truncated: false });
	});

	it("joins multi-line data with newlines and keeps event and id", () => {
		const text = "event: delta\nid: 7\ndata: first\ndata:second\ndata:  indented\n\n";
		expect(parseAll([text]).events).toEqual([{ event: "delta", id: "7", data: "first\nsecond\n indented" }]);
	});

	it("ignores comments and unknown fields, and drops events without data", () => {
		const text = ": keep-alive\nretry: 100\nfoo: bar\n\nevent: ping\n\n:comment\ndata: x\n\n";
		expect(parseAll([text]).events).toEqual([{ data: "x" }]);
	});

	it("keeps the last id for later events and resets the event name", () => {
		const text = "id: 1\nevent: a\ndata: x\n\ndata: y\n\n";
		expect(parseAll([text]).events).toEqual([
			{ event: "a", id: "1", data: "x" },
			{ id: "1", data: "y" },
		]);
	});

	it("does not count a CRLF split across two chunks as two line ends", () => {
		expect(parseAll(["data: a\r", "\n\r", "\ndata: b\r\n\r\n"]).events).toEqual([{ data: "a" }, { data: "b" }]);
	});

	it("strips a leading byte-order mark", () => {
		expect(parseAll(["\ufeffdata: a\n\n"]).events).toEqual([{ data: "a" }]);
	});

	it("dispatches `data:` with an empty value as an empty event", () => {
		expect(parseAll(["data:\n\n"]).events).toEqual([{ data: "" }]);
	});

	it("reports a stream cut mid-event as truncated and keeps the complete events", () => {
		expect(parseAll(['data: a\n\ndata: {"par'])).toEqual({ events: [{ data: "a" }], truncated: true });
		expect(parseAll(["data: a\n\nevent: b\ndata: c\n"])).toEqual({ events: [{ data: "a" }], truncated: true });
	});

	it("does not call a stream that ends after a blank line or on a comment truncated", () => {
		expect(parseAll(["data: a\n\n: bye"]).truncated).toBe(false);
		expect(parseAll(["data: a\r\n\r\n"]).truncated).toBe(false);
	});

	it("parses the CRLF-delimited gemini fixture into one event per data line", () => {
		const text = fixture("gemini/stream.sse");
		const { events, truncated } = parseAll([text]);
		expect(truncated).toBe(false);
		expect(events.length).toBe(text.split("\r\n").filter((line) => line.startsWith("data:")).length);
		for (const event of events) expect(() => JSON.parse(event.data)).not.toThrow();
	});

	it("gives the same events however the stream is cut into chunks", () => {
		const line = fc.constantFrom("\n", "\r\n", "\r");
		const field = fc.oneof(
			fc.string({ unit: fc.constantFrom("a", "b", " ", ":", "{", "é") }).map((v) => `data: ${v}`),
			fc.constantFrom("event: x", "id: 3", ": comment", "data:", "retry: 5"),
		);
		const eventText = fc
			.tuple(fc.array(field, { minLength: 1, maxLength: 4 }), line)
			.map(([fields, end]) => fields.map((f) => f + end).join("") + end);
		fc.assert(
			fc.property(fc.array(eventText, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 8 }), (events, cuts) => {
				const text = events.join("");
				const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
				const chunks: string[] = [];
				let last = 0;
				for (const point of points) {
					chunks.push(text.slice(last, point));
					last = point;
				}
				chunks.push(text.slice(last));
				expect(parseAll(chunks)).toEqual(parseAll([text]));
			}),
		);
	});
});
