// A markdown page's HTML comments on lines of their own (`<!-- markdownlint-disable -->`, a table of contents'
// markers, an editor's note): left out of what the model reads, as a rendered page leaves them out. Pure, one pass over
// the lines; a comment inside a code fence is the code's text and stays, and so does one that never closes.

/** A code fence's opening or closing line: its run of backticks or tildes. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A fence closes with a run of its own character at least as long as the one that opened it. */
export function closesFence(marker: string | undefined, fence: string): boolean {
	return marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length;
}
const OPENS = /^ {0,3}<!--/;

/** `text` without the HTML comments that start a line outside code fences (each up to the line that closes it). */
export function withoutHtmlComments(text: string): string {
	if (!text.includes("<!--")) return text;
	const lines = text.split("\n");
	const kept: string[] = [];
	let fence = "";
	// A comment kept (text follows its end, or it never ends) is kept whole: no line inside it is looked at again, so
	// each line is scanned once, however many comments open before one closes.
	let keptUntil = -1;
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		const marker = FENCE.exec(line)?.[1];
		if (fence !== "") {
			if (closesFence(marker, fence)) fence = "";
			kept.push(line);
			continue;
		}
		if (i <= keptUntil || marker !== undefined || !OPENS.test(line)) {
			if (i > keptUntil && marker !== undefined) fence = marker;
			kept.push(line);
			continue;
		}
		const close = closing(lines, i);
		if (!close.alone) {
			keptUntil = close.line;
			kept.push(line);
			continue;
		}
		i = close.line;
		// The blank line that set the comment apart goes with it: no run of blank lines is left behind.
		if ((kept.length === 0 || kept.at(-1)!.trim() === "") && lines[i + 1]?.trim() === "") i++;
	}
	return kept.join("\n");
}

/**
 * The line that closes the comment opened on line `from` (the last line when none does), and whether the comment
 * stands alone there: closed, with nothing after it on that line.
 */
function closing(lines: readonly string[], from: number): { line: number; alone: boolean } {
	for (let i = from; i < lines.length; i++) {
		const end = lines[i]!.indexOf("-->", i === from ? lines[i]!.indexOf("<!--") + 4 : 0);
		if (end >= 0) return { line: i, alone: lines[i]!.slice(end + 3).trim() === "" };
	}
	return { line: lines.length - 1, alone: false };
}
