// Turns response bytes into text: a BOM, then the Content-Type charset, then (for HTML/XML) a <meta charset>,
// http-equiv or XML declaration near the top, then UTF-8. Only encodings a browser decodes (the WHATWG Encoding
// Standard's labels) are used; non-UTF ones (GBK, Shift_JIS, …) go through iconv-lite, imported only when needed.

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

/** Labels the WHATWG Encoding Standard maps to its replacement encoding: browsers show no text of such a page. */
const REPLACEMENT_LABELS = new Set([
	"csiso2022kr",
	"hz-gb-2312",
	"iso-2022-cn",
	"iso-2022-cn-ext",
	"iso-2022-kr",
	"replacement",
]);

/**
 * The WHATWG name of a label browsers decode with (`latin1` → `windows-1252`), or undefined for one they do not
 * know (UTF-7, base64, hex, UTF-32, most code pages: iconv-lite decodes them, and a page could hide markup in them)
 * or map to the replacement encoding. Node's TextDecoder resolves labels as the standard lists them.
 */
function browserEncoding(label: string): string | undefined {
	if (REPLACEMENT_LABELS.has(label)) return undefined;
	try {
		return new TextDecoder(label).encoding;
	} catch {
		return undefined;
	}
}

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
	const encoding = browserEncoding(label);
	if (encoding === undefined) {
		return {
			text: new TextDecoder("utf-8").decode(bytes),
			charset: "utf-8",
			warning: `charset "${label}" is not one browsers decode (WHATWG Encoding Standard): decoded as UTF-8`,
		};
	}
	if (encoding === "utf-8") return { text: new TextDecoder("utf-8").decode(bytes), charset: "utf-8" };
	if (encoding === "utf-16le" || encoding === "utf-16be")
		return { text: new TextDecoder(encoding).decode(bytes), charset: encoding };
	const iconv = (await import("iconv-lite")).default;
	const name = LABEL_ALIASES[label] ?? LABEL_ALIASES[encoding] ?? encoding;
	// A browser encoding iconv-lite lacks (ISO-2022-JP, x-mac-cyrillic): Node's own WHATWG decoder has it.
	if (!iconv.encodingExists(name)) return { text: new TextDecoder(encoding).decode(bytes), charset: encoding };
	return { text: iconv.decode(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length), name), charset: name };
}
