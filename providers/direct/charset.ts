// Turns response bytes into text: a BOM, then the Content-Type charset, then (for HTML/XML) a <meta charset>,
// http-equiv or XML declaration near the top, then UTF-8. Non-UTF encodings (GBK, Shift_JIS, …) go through
// iconv-lite, imported only when a page needs it.

/** WHATWG maps these labels to supersets browsers actually decode with; iconv-lite names on the right. */
const LABEL_ALIASES: Readonly<Record<string, string>> = {
	"iso-8859-1": "windows-1252",
	"iso8859-1": "windows-1252",
	latin1: "windows-1252",
	"us-ascii": "windows-1252",
	ascii: "windows-1252",
	gb2312: "gbk",
	gb_2312: "gbk",
	"gb_2312-80": "gbk",
	"x-gbk": "gbk",
	chinese: "gbk",
	shift_jis: "cp932",
	"shift-jis": "cp932",
	sjis: "cp932",
	"x-sjis": "cp932",
	ms_kanji: "cp932",
	"euc-kr": "cp949",
	"ks_c_5601-1987": "cp949",
	korean: "cp949",
	big5: "big5hkscs",
	"x-x-big5": "big5hkscs",
};

const UTF8_LABELS = new Set(["utf-8", "utf8", "unicode-1-1-utf-8", "unicode11utf8", "x-unicode20utf8"]);

/** How far into an HTML/XML document a charset declaration is looked for. */
const PRESCAN_BYTES = 4096;

export interface DecodedBody {
	text: string;
	/** The encoding used (normalised label). */
	charset: string;
	/** Set when a declared charset was unknown and UTF-8 was used instead. */
	warning?: string;
}

/** The `charset` parameter of a Content-Type header, lower-cased, without quotes. */
export function contentTypeCharset(contentType: string | undefined): string | undefined {
	const match = contentType?.match(/;\s*charset\s*=\s*("?)([^";\s]+)\1/i);
	return match?.[2]?.toLowerCase();
}

function bomCharset(bytes: Uint8Array): string | undefined {
	if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
	if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
	if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
	return undefined;
}

/** `<meta charset>`, `<meta http-equiv content="…; charset=…">` or `<?xml encoding=…?>` in the first bytes. */
export function declaredCharset(bytes: Uint8Array): string | undefined {
	const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES)).toString("latin1");
	const meta = head.match(/<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([\w.:-]+)/i);
	const xml = head.match(/^\s*<\?xml\b[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i);
	const label = (meta?.[1] ?? xml?.[1])?.toLowerCase();
	// A document that can be read as ASCII to find its meta is not UTF-16; browsers read it as UTF-8.
	return label?.startsWith("utf-16") ? "utf-8" : label;
}

/** The charset to decode with, by the precedence above. */
export function detectCharset(contentType: string | undefined, bytes: Uint8Array, markup: boolean): string {
	return (
		bomCharset(bytes) ?? contentTypeCharset(contentType) ?? (markup ? declaredCharset(bytes) : undefined) ?? "utf-8"
	);
}

/** Decodes a body; invalid byte sequences become U+FFFD rather than failing the fetch. */
export async function decodeBody(
	bytes: Uint8Array,
	contentType: string | undefined,
	markup: boolean,
): Promise<DecodedBody> {
	const label = detectCharset(contentType, bytes, markup);
	if (UTF8_LABELS.has(label)) return { text: new TextDecoder("utf-8").decode(bytes), charset: "utf-8" };
	if (label === "utf-16le" || label === "utf-16be")
		return { text: new TextDecoder(label).decode(bytes), charset: label };
	const iconv = (await import("iconv-lite")).default;
	const name = LABEL_ALIASES[label] ?? label;
	if (!iconv.encodingExists(name)) {
		return {
			text: new TextDecoder("utf-8").decode(bytes),
			charset: "utf-8",
			warning: `unknown charset "${label}": decoded as UTF-8`,
		};
	}
	return { text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), name), charset: name };
}
