// Reads the model-oriented `output` text of the Codex standalone search (`web.run`): result and page blocks,
// their metadata (Published / Crawled ages, Content type, Total lines) and the `L<n>:` numbered page lines,
// turned into plain text. Pure: sub2api-search.ts does the I/O and paging.

/** One numbered line of an opened page; `page` is set for PDFs (`L12@P3:`). */
export interface CodexLine {
	text: string;
	page?: number;
}

/** One block of `output`: a search result, an opened page, or an `Internal Error` block. */
export interface CodexBlock {
	title: string;
	url?: string;
	/** The block's reference id, e.g. `turn0search0`, `turn1view0`. */
	ref?: string;
	/** Relative ages as the backend wrote them ("3 days ago", "today"). */
	published?: string;
	crawled?: string;
	contentType?: string;
	totalLines?: number;
	/** Text after the metadata on the marker line: a search snippet or a failure message. */
	text: string;
	/** Numbered lines of a page block, by line number. */
	lines: Map<number, CodexLine>;
}

const BLOCK_MARKER = /\ue200cite\ue202(turn\d+[a-z]+\d+)\ue201/g;
const CITATION = /\ue200cite\ue202([^\ue201]*)\ue201/g;
const SEPARATOR = /-{20,}\s*$/;
const NUMBERED = /^L(\d+)(?:@P(\d+))?: ?/;
const DAY_MS = 86_400_000;
const UNIT_DAYS: Record<string, number> = { minute: 0, hour: 0, day: 1, week: 7, month: 30, year: 365 };

/** Texts that start an HTTP-200 failure reply: the call's arguments were refused. */
export const ARGUMENT_FAILURES = [
	"Found no tool response",
	"Error parsing function call",
	"Invalid to send empty calls",
] as const;

/** Texts that start an HTTP-200 failure reply: the ref or URL could not be resolved (for a URL: not indexed). */
export const UNRESOLVED_FAILURES = ["Internal Error (", "Unable to resolve open call"] as const;

/** What kind of HTTP-200 failure `output` is as a whole, with its message; undefined for a real answer. */
export function inBandFailure(output: string): { kind: "arguments" | "unresolved"; text: string } | undefined {
	const trimmed = output.trimStart();
	const arguments_ = ARGUMENT_FAILURES.some((prefix) => trimmed.startsWith(prefix));
	if (!arguments_ && !UNRESOLVED_FAILURES.some((prefix) => trimmed.startsWith(prefix))) return undefined;
	const blocks = parseCodexOutput(trimmed);
	const detail = blocks.find((block) => block.text !== "")?.text ?? trimmed.split("\n")[0] ?? "";
	return { kind: arguments_ ? "arguments" : "unresolved", text: oneLine(detail) };
}

/** Splits `output` into blocks on the `turnNkindM` citation markers (the dashed separators are unreliable). */
export function parseCodexOutput(output: string): CodexBlock[] {
	const text = output.replace(/\r\n?/g, "\n").replace(/([^\n])(\ue200cite\ue202turn\d+[a-z]+\d+\ue201)/g, "$1\n$2");
	const lines = text.split("\n");
	const markerAt: number[] = [];
	lines.forEach((line, index) => {
		BLOCK_MARKER.lastIndex = 0;
		const match = BLOCK_MARKER.exec(line);
		if (match?.index === 0) markerAt.push(index);
	});
	return markerAt.map((index, i) => {
		const headerIndex = headerLine(lines, index);
		const next = markerAt[i + 1];
		const end = next === undefined ? lines.length : headerLine(lines, next);
		return parseBlock(lines[headerIndex] ?? "", lines[index] ?? "", lines.slice(index + 1, end));
	});
}

function headerLine(lines: string[], markerIndex: number): number {
	let index = markerIndex - 1;
	while (index > 0 && (lines[index] ?? "").trim() === "") index--;
	return index;
}

function parseBlock(header: string, marker: string, body: string[]): CodexBlock {
	const heading = header.replace(/^-{20,}/, "").trim();
	const titled = /^(.*?)\s*\((https?:\/\/\S+|)\)$/.exec(heading);
	const block: CodexBlock = {
		title: (titled ? titled[1] : heading) ?? "",
		text: "",
		lines: new Map(),
	};
	if (titled?.[2]) block.url = titled[2];
	const ref = /^\ue200cite\ue202([^\ue201]+)\ue201/.exec(marker);
	if (ref) block.ref = ref[1];
	block.text = readMetadata(block, marker.replace(/^\ue200cite\ue202[^\ue201]+\ue201\s*/, ""));
	readLines(block, body);
	return block;
}

/** Consumes `Published:`, `Crawled:`, … fields at the start of the marker line; returns what follows them. */
function readMetadata(block: CodexBlock, rest: string): string {
	let text = rest.replace(/^\[wordlim: \d+\]\s*/, "");
	for (;;) {
		const source = /^Source: \w+\(.*?\)(?:;\s*|$)/.exec(text);
		const field = source ? undefined : /^(Published|Crawled|Content type|Total lines): ([^;]*)(?:;\s*|$)/.exec(text);
		const match = source ?? field;
		if (!match) break;
		text = text.slice(match[0].length);
		const value = field?.[2]?.trim() ?? "";
		if (field?.[1] === "Published") block.published = value;
		else if (field?.[1] === "Crawled") block.crawled = value;
		else if (field?.[1] === "Content type") block.contentType = value;
		else if (field?.[1] === "Total lines" && /^\d+$/.test(value)) block.totalLines = Number(value);
	}
	return text.replace(SEPARATOR, "").trim();
}

/** Numbered lines; blank lines merged onto one physical line (`L0: … L1: `) are split again by line number. */
function readLines(block: CodexBlock, body: string[]): void {
	let current: number | undefined;
	for (const physical of body) {
		const start = NUMBERED.exec(physical);
		if (!start) {
			if (current === undefined) continue;
			const line = block.lines.get(current);
			if (line && !/^-{20,}\s*$/.test(physical)) line.text += `\n${physical}`;
			continue;
		}
		let number = Number(start[1]);
		let page = start[2] === undefined ? undefined : Number(start[2]);
		let rest = physical.slice(start[0].length);
		for (;;) {
			const merged = new RegExp(`\\s?L${number + 1}(?:@P(\\d+))?: ?`).exec(rest);
			const text = merged ? rest.slice(0, merged.index) : rest;
			block.lines.set(number, page === undefined ? { text } : { text, page });
			current = number;
			if (!merged) break;
			number++;
			page = merged[1] === undefined ? page : Number(merged[1]);
			rest = rest.slice(merged.index + merged[0].length);
		}
	}
	const last = current === undefined ? undefined : block.lines.get(current);
	if (last) last.text = last.text.replace(/\n?-{20,}\s*$/, "");
}

/** Plain text of a citation-marked string: numbered links keep their label, reference markers go. */
export function stripCitations(text: string): string {
	return text
		.replace(CITATION, (_marker, inner: string) => {
			const parts = inner.split("\u2020");
			return parts.length > 1 ? (parts[1] ?? "") : "";
		})
		.replace(/[\ue200-\ue2ff]/g, "");
}

/** Lines from `first` while they are consecutive. */
export function contiguousLines(lines: Map<number, CodexLine>, first = 0): CodexLine[] {
	const out: CodexLine[] = [];
	for (let n = first; lines.has(n); n++) out.push(lines.get(n)!);
	return out;
}

/** What several `open` windows of one page tell: the text from the first line on, as far as lines are consecutive. */
export interface KnownPage {
	text: string;
	/** First line number seen (0 unless the backend skipped the top). */
	start: number;
	/** Line number after the last consecutive one: where the next `open` should start. */
	next: number;
	/** Every line up to `Total lines` is known (or the total is unknown, so nothing more can be asked for). */
	complete: boolean;
}

export function knownPage(blocks: CodexBlock[]): KnownPage {
	const lines = new Map<number, CodexLine>();
	for (const block of blocks) for (const [n, line] of block.lines) if (!lines.has(n)) lines.set(n, line);
	const start = lines.size === 0 ? 0 : Math.min(...lines.keys());
	const known = contiguousLines(lines, start);
	const total = blocks.find((block) => block.totalLines !== undefined)?.totalLines;
	const next = start + known.length;
	return { text: pageText(known), start, next, complete: total === undefined || next >= total };
}

/** The page as plain text; PDF lines get a `## Page N` heading where a new page starts. */
export function pageText(lines: CodexLine[]): string {
	const zeroBased = lines.some((line) => line.page === 0);
	const out: string[] = [];
	let page: number | undefined;
	for (const line of lines) {
		if (line.page !== undefined && line.page !== page) {
			page = line.page;
			if (out.length > 0) out.push("");
			out.push(`## Page ${zeroBased ? page + 1 : page}`, "");
		}
		out.push(stripCitations(line.text).replace(/\s+$/, ""));
	}
	return out.join("\n");
}

/** `YYYY-MM-DD` for a relative age like "3 days ago", "last month", "today"; undefined when not understood. */
export function relativeAgeToDate(age: string, now: Date): string | undefined {
	const text = age.trim().toLowerCase();
	let days: number | undefined;
	if (text === "today" || text === "just now") days = 0;
	else if (text === "yesterday") days = 1;
	else {
		const last = /^last (day|week|month|year)$/.exec(text);
		const ago = /^(\d+(?:\.\d+)?|an?|one) (minute|hour|day|week|month|year)s? ago$/.exec(text);
		if (last) days = UNIT_DAYS[last[1]!];
		else if (ago) {
			const count = /^\d/.test(ago[1]!) ? Number(ago[1]) : 1;
			days = Math.round(count * (UNIT_DAYS[ago[2]!] ?? 0));
		}
	}
	if (days === undefined) return undefined;
	return new Date(now.getTime() - days * DAY_MS).toISOString().slice(0, 10);
}

function oneLine(text: string): string {
	const flat = stripCitations(text).replace(/\s+/g, " ").trim();
	return flat.length > 160 ? `${flat.slice(0, 159)}…` : flat;
}
