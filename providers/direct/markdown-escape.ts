// Line starts of the markdown renderer (providers/direct/markdown.ts): a paragraph's line that would read as a
// heading, a quote or a list item is escaped with a backslash; a line of its own is read without a regex.

/** What starts a line in `/m`. */
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/** A paragraph's line that would read as a heading, quote or list marker is escaped. */
export function escapeLineStarts(text: string): string {
	if (!LINE_BREAK.test(text)) return markerAtStart(text) ? `\\${text}` : text;
	return text.replace(/^(#{1,6} |>|[-+*] |\d+)([.)] )?/gm, (all, lead: string, dot?: string) =>
		dot || !/^\d/.test(lead) ? `\\${all}` : all,
	);
}

/**
 * What the pattern above escapes on a line of its own: `#` to `######` and a space, `>`, `-`/`+`/`*` and a space,
 * or digits and `.` or `)` and a space. Read without the regex: a table's cells and a list's numbers start with
 * digits, and most of them are no marker.
 */
function markerAtStart(text: string): boolean {
	const first = text.charCodeAt(0);
	if (first === 62) return true;
	if (first === 35) {
		let hashes = 1;
		while (text.charCodeAt(hashes) === 35) hashes++;
		return hashes <= 6 && text.charCodeAt(hashes) === 32;
	}
	if (first === 45 || first === 43 || first === 42) return text.charCodeAt(1) === 32;
	if (!isDigitCode(first)) return false;
	let end = 1;
	while (isDigitCode(text.charCodeAt(end))) end++;
	const after = text.charCodeAt(end);
	return (after === 46 || after === 41) && text.charCodeAt(end + 1) === 32;
}

function isDigitCode(code: number): boolean {
	return code >= 48 && code <= 57;
}
