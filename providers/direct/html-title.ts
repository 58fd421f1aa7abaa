// The <title> of an HTML page that is handed back as HTML (format: "html"), where the converter does not run:
// a bounded scan of the document's start, the few entities a title carries decoded, whitespace folded.

export const HTML_TITLE_DEFAULTS = {
	/** The title is in the head: only this much of the document is scanned. */
	scanChars: 64 * 1024,
	/** Longer titles are cut. */
	maxChars: 300,
};

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

function decodeEntities(text: string): string {
	return text.replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (whole, name: string) => {
		const lower = name.toLowerCase();
		if (lower.startsWith("#")) {
			const code = lower.startsWith("#x") ? Number.parseInt(lower.slice(2), 16) : Number(lower.slice(1));
			return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
		}
		return NAMED[lower] ?? whole;
	});
}

/** The page's title, or undefined when its start has none. */
export function htmlTitle(html: string): string | undefined {
	const head = html.slice(0, HTML_TITLE_DEFAULTS.scanChars);
	const match = /<title(?:\s[^>]*)?>([^<]*)<\/title\s*>/i.exec(head);
	if (!match?.[1]) return undefined;
	const title = decodeEntities(match[1]).replace(/\s+/g, " ").trim();
	return title === "" ? undefined : title.slice(0, HTML_TITLE_DEFAULTS.maxChars);
}
