// The direct provider's private-network guard end to end: redirects (each hop re-checked), a redirect from an
// allowed loopback server to a refused address, a private custom DNS answer, DNS pinning, refused schemes.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LookupAddress } from "../providers/direct/guard.ts";
import directDefault, { createDirectProvider } from "../providers/direct/provider.ts";
import {
	callContext,
	failureOf,
	fetchWith,
	page,
	redirect,
	send,
	startServer,
	type TestServer,
} from "./direct-helpers.ts";

let server: TestServer;

beforeAll(async () => {
	server = await startServer();
	server.route("/article", send(page("article.html")));
});

afterAll(() => server.close());

describe("redirects and the private-network guard", () => {
	it("follows up to 5 redirects and reports the final URL", async () => {
		for (let i = 1; i <= 5; i++)
			server.route(`/hop${i}`, redirect(i === 5 ? "/article" : `/hop${i + 1}`, 301 + (i % 2)));
		const result = await fetchWith(`${server.origin}/hop1`);
		expect(result.finalUrl).toBe(`${server.origin}/article`);
		expect(result.content).toContain("## How the mechanism works");
		server.route("/hop0", redirect("/hop1"));
		const error = await failureOf(fetchWith(`${server.origin}/hop0`));
		expect([error.kind, error.code]).toEqual(["bad-request", "too-many-redirects"]);
	});

	it("refuses a redirect from an allowed loopback server to a refused address, before connecting", async () => {
		const other = await startServer("127.0.0.2");
		try {
			other.route("/", send("secret admin page", { "content-type": "text/plain" }));
			server.route("/to-other", redirect(`${other.origin}/`));
			const narrow = callContext({}, { allowedRanges: ["127.0.0.1/32"] });
			const error = await failureOf(fetchWith(`${server.origin}/to-other`, narrow));
			expect(error.kind).toBe("guard");
			expect(error.message).toBe(
				'refused 127.0.0.2 (loopback) for 127.0.0.2: add "127.0.0.0/8" (or a narrower range) to fetchGuard.allowRanges, or set fetchGuard.allowPrivate',
			);
			expect(other.hits).toEqual([]);
			expect(directDefault.classify(error)).toMatchObject({ errorClass: "bad-request", reason: error.message });
			// The same redirect with the whole loopback range allowed does arrive: the refusal was the guard's.
			expect((await fetchWith(`${server.origin}/to-other`)).content).toBe("secret admin page");
		} finally {
			await other.close();
		}
	});

	it("refuses loopback by default and says which setting would allow it", async () => {
		const before = server.hits.length;
		const error = await failureOf(fetchWith(`${server.origin}/article`, { ...callContext(), fetchGuard: undefined }));
		expect(error.message).toBe(
			'refused 127.0.0.1 (loopback) for 127.0.0.1: add "127.0.0.0/8" (or a narrower range) to fetchGuard.allowRanges, or set fetchGuard.allowPrivate',
		);
		expect(server.hits.length).toBe(before);
		const localhost = await failureOf(fetchWith(`http://localhost:${server.port}/article`, callContext({}, {})));
		expect(localhost.message).toMatch(
			/^refused (127\.0\.0\.1|::1) \(loopback\) for localhost: add "(127\.0\.0\.0\/8|::1\/128)" .* fetchGuard\.allowRanges/,
		);
		const open = await fetchWith(`${server.origin}/article`, callContext({}, { allowPrivate: true }));
		expect(open.content).toContain("## How the mechanism works");
	});

	it("refuses a host whose custom DNS answer is private", async () => {
		const provider = createDirectProvider({ lookup: async () => [{ address: "10.0.0.1", family: 4 }] });
		const error = await failureOf(fetchWith("http://evil.test/", callContext({}, {}), provider));
		expect(error.message).toContain(
			'refused 10.0.0.1 (private) for evil.test: add "10.0.0.0/8" (or a narrower range) to fetchGuard.allowRanges, or set fetchGuard.allowPrivate',
		);
		expect(provider.classify(error).errorClass).toBe("bad-request");
	});

	it("connects to the address the guard checked, with no second DNS lookup", async () => {
		const asked: string[] = [];
		const lookup = async (hostname: string): Promise<LookupAddress[]> => {
			asked.push(hostname);
			return [{ address: "127.0.0.1", family: 4 }];
		};
		let host: string | undefined;
		server.route("/pinned", (req, res) => {
			host = req.headers.host;
			send("pinned answer", { "content-type": "text/plain" })(req, res);
		});
		const provider = createDirectProvider({ lookup });
		const call = callContext({}, { allowedRanges: ["127.0.0.1/32"] });
		const result = await fetchWith(`http://pinned.test:${server.port}/pinned`, call, provider);
		expect(result.content).toBe("pinned answer");
		expect(host).toBe(`pinned.test:${server.port}`);
		expect(asked).toEqual(["pinned.test"]);
	});

	it("refuses schemes other than http and https", async () => {
		for (const url of ["file:///etc/passwd", "ftp://example.com/x"]) {
			const error = await failureOf(fetchWith(url));
			expect([error.kind, error.code]).toEqual(["bad-request", "unsupported-scheme"]);
		}
	});
});
