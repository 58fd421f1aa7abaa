// direct decodes a page only with an encoding a browser would use (the WHATWG Encoding Standard's labels): UTF-7,
// base64, hex, UTF-32 and code pages no browser knows are refused, and so are the labels the standard maps to its
// replacement encoding (ISO-2022-KR, HZ); the bytes are read as UTF-8 instead, with a warning. A page cannot smuggle
// markup or text past what a browser would show by declaring an encoding only a converter library knows.

import { describe, expect, it } from "vitest";
import { decodeBody } from "../providers/direct/charset.ts";

const bytes = (text: string) => new Uint8Array(Buffer.from(text, "latin1"));

describe("charsets no browser uses", () => {
	it.each([
		["utf-7", "+ADw-script+AD4-alert(1)+ADw-/script+AD4-"],
		["UTF-7", "+ADw-b+AD4-bold"],
		["base64", "PHNjcmlwdD4="],
		["hex", "3c7363726970743e"],
		["utf-32", "abcd"],
		["cp437", "plain \u0080"],
		["iso-2022-kr", "\u001b$)Cplain"],
		["hz-gb-2312", "~{<:Ky2;S{#,~}"],
		["replacement", "text"],
	])("%s is refused: the bytes are read as UTF-8, with a warning", async (label, body) => {
		const decoded = await decodeBody(bytes(body), `text/html; charset=${label}`, true);
		expect(decoded.charset).toBe("utf-8");
		expect(decoded.text).toBe(new TextDecoder().decode(bytes(body)));
		expect(decoded.warning).toBe(
			`charset "${label.toLowerCase()}" is not one browsers decode (WHATWG Encoding Standard): decoded as UTF-8`,
		);
	});

	it("a <meta> declaration of UTF-7 is refused the same way", async () => {
		const page = '<html><head><meta charset="utf-7"></head><body>+ADw-i+AD4-x</body></html>';
		const decoded = await decodeBody(bytes(page), "text/html", true);
		expect(decoded.text).toContain("+ADw-i+AD4-x");
		expect(decoded.warning).toMatch(/charset "utf-7" is not one browsers decode/);
	});

	it.each([
		["latin1", "caf\u00e9", "café"],
		["windows-1251", "\u00cf\u00f0\u00e8", "При"],
		["koi8-r", "\u00f0\u00d2\u00c9", "При"],
		["ibm866", "\u008f\u00e0\u00a8", "При"],
	])("keeps the browsers' own label %s", async (label, raw, text) => {
		const decoded = await decodeBody(bytes(raw), `text/plain; charset=${label}`, false);
		expect(decoded.text).toBe(text);
		expect(decoded.warning).toBeUndefined();
	});
});

describe("browser encodings iconv-lite lacks", () => {
	it("decodes ISO-2022-JP with the standard's decoder instead of reading it as UTF-8", async () => {
		const jis = bytes("\u001b$B$3$s$K$A$O\u001b(B");
		const decoded = await decodeBody(jis, "text/plain; charset=iso-2022-jp", false);
		expect(decoded).toEqual({ text: "こんにちは", charset: "iso-2022-jp" });
	});
});
