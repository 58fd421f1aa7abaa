// The direct provider's body handling end to end: the byte cap against a gzip bomb, content codings, legacy
// charsets (GBK, Shift_JIS, EUC-KR) and PDFs extracted per page.

import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from "node:zlib";
import iconv from "iconv-lite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callContext, failureOf, fetchWith, makePdf, send, startServer, type TestServer } from "./direct-helpers.ts";

let server: TestServer;

beforeAll(async () => {
	server = await startServer();
});

afterAll(() => server.close());

describe("response size, encodings and charsets", () => {
	it("stops a gzip bomb at maxBytes counted after decompression", async () => {
		const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, "a"));
		expect(bomb.length).toBeLessThan(200 * 1024);
		server.route("/bomb", send(bomb, { "content-type": "text/plain", "content-encoding": "gzip" }));
		const result = await fetchWith(`${server.origin}/bomb`, callContext({ maxBytes: 1024 * 1024 }));
		expect(result.content.length).toBe(1024 * 1024);
		expect(result.warnings).toEqual(["response is larger than 1 MB: content cut at the cap"]);
	});

	it.each([
		["gzip", gzipSync],
		["deflate", deflateSync],
		["deflate", deflateRawSync],
		["br", brotliCompressSync],
	] as const)("decodes %s bodies", async (coding, compress) => {
		server.route(
			`/enc-${compress.name}`,
			send(compress(Buffer.from("compressed text")), { "content-type": "text/plain", "content-encoding": coding }),
		);
		expect((await fetchWith(`${server.origin}/enc-${compress.name}`)).content).toBe("compressed text");
	});

	it("decodes GBK (from <meta charset>) and Shift_JIS (from Content-Type)", async () => {
		const gbk = iconv.encode(
			'<html><head><meta charset="gbk"><title>中文标题</title></head><body><article><p>这是一个用简体中文写的段落，用来测试编码。</p></article></body></html>',
			"gbk",
		);
		const sjis = iconv.encode(
			"<html><head><title>日本語のページ</title></head><body><p>これはシフトJISで書かれた段落です。</p></body></html>",
			"shift_jis",
		);
		const eucKr = iconv.encode(
			'<html><head><meta http-equiv="Content-Type" content="text/html; charset=euc-kr"><title>한국어</title></head><body><p>한국어 문단입니다.</p></body></html>',
			"euc-kr",
		);
		server.route("/gbk", send(gbk, { "content-type": "text/html" }));
		server.route("/sjis", send(sjis, { "content-type": "text/html; charset=Shift_JIS" }));
		server.route("/euc-kr", send(eucKr, { "content-type": "text/html" }));
		const zh = await fetchWith(`${server.origin}/gbk`);
		expect(zh.title).toBe("中文标题");
		expect(zh.content).toContain("这是一个用简体中文写的段落，用来测试编码。");
		const ja = await fetchWith(`${server.origin}/sjis`);
		expect(ja.title).toBe("日本語のページ");
		expect(ja.content).toContain("これはシフトJISで書かれた段落です。");
		expect((await fetchWith(`${server.origin}/euc-kr`)).content).toContain("한국어 문단입니다.");
	});
});

describe("PDFs", () => {
	const pdf = makePdf(["Hello from the first page", "Second page says goodbye"], "Two Pages");

	it("extracts text per page with page headings", async () => {
		server.route("/paper.pdf", send(pdf, { "content-type": "application/pdf" }));
		const result = await fetchWith(`${server.origin}/paper.pdf`);
		expect(result.content).toBe(
			"--- page 1 ---\nHello from the first page\n\n--- page 2 ---\nSecond page says goodbye",
		);
		expect(result.title).toBe("Two Pages");
	});

	it("recognises a PDF served as octet-stream, and fails a PDF cut by maxBytes", async () => {
		server.route("/download", send(pdf, { "content-type": "application/octet-stream" }));
		expect((await fetchWith(`${server.origin}/download`)).content).toContain("--- page 2 ---");
		const error = await failureOf(fetchWith(`${server.origin}/download`, callContext({ maxBytes: 200 })));
		expect([error.kind, error.code]).toEqual(["bad-request", "too-large"]);
	});

	it("fails an unreadable PDF as bad-request", async () => {
		server.route("/broken.pdf", send("%PDF-1.4 not really", { "content-type": "application/pdf" }));
		const error = await failureOf(fetchWith(`${server.origin}/broken.pdf`));
		expect([error.kind, error.code]).toEqual(["bad-request", "pdf-unreadable"]);
	});
});
