// Turns the JSON response fixtures of the Responses and Messages APIs into the SSE transcripts the providers stream,
// so the non-streamed fixtures can be replayed through the real streaming path. Also small SSE builders.

type Json = Record<string, unknown>;

/** `event: <name>\ndata: <json>\n\n` for each pair. */
export function sse(events: Array<[string, unknown]>): string {
	return events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

/** A Responses stream: created, one output_item.done per item, completed with the whole response. */
export function responsesSse(response: Json): string {
	const output = Array.isArray(response.output) ? response.output : [];
	const events: Array<[string, unknown]> = [
		["response.created", { type: "response.created", response: { ...response, status: "in_progress", output: [] } }],
	];
	output.forEach((item, index) => {
		events.push(["response.output_item.done", { type: "response.output_item.done", output_index: index, item }]);
	});
	events.push(["response.completed", { type: "response.completed", response }]);
	return sse(events);
}

/** A Messages stream: text arrives as text_delta, tool input as input_json_delta, tool results whole. */
export function messagesSse(message: Json): string {
	const blocks = (Array.isArray(message.content) ? message.content : []) as Json[];
	const events: Array<[string, unknown]> = [
		["message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null } }],
	];
	blocks.forEach((block, index) => {
		if (block.type === "text") {
			const start = { type: "text", text: "", citations: block.citations === null ? null : [] };
			events.push(["content_block_start", { type: "content_block_start", index, content_block: start }]);
			for (const citation of Array.isArray(block.citations) ? block.citations : []) {
				const delta = { type: "citations_delta", citation };
				events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
			}
			const delta = { type: "text_delta", text: block.text };
			events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
		} else if (block.type === "server_tool_use") {
			const start = { ...block, input: {} };
			events.push(["content_block_start", { type: "content_block_start", index, content_block: start }]);
			const delta = { type: "input_json_delta", partial_json: JSON.stringify(block.input) };
			events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
		} else {
			events.push(["content_block_start", { type: "content_block_start", index, content_block: block }]);
		}
		events.push(["content_block_stop", { type: "content_block_stop", index }]);
	});
	const delta = { stop_reason: message.stop_reason ?? "end_turn", stop_sequence: null };
	events.push(["message_delta", { type: "message_delta", delta, usage: message.usage }]);
	events.push(["message_stop", { type: "message_stop" }]);
	return sse(events);
}

/** The text cut inside its `cut`-th event's data line (a stream that stops mid-event). */
export function cutMidEvent(text: string, cut: number): string {
	let at = -1;
	for (let i = 0; i <= cut; i++) at = text.indexOf("data: ", at + 1);
	return text.slice(0, at + 20);
}

/** The text with its last `drop` events removed (ends cleanly between events). */
export function dropLastEvents(text: string, drop: number): string {
	const events = text.split("\n\n").filter((part) => part.trim() !== "");
	return `${events.slice(0, events.length - drop).join("\n\n")}\n\n`;
}
