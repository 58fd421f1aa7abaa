// The browser's `profile` option on real Chromium: cookies and site storage kept between calls only when the user
// names a profile file, written owner-only; a profile that cannot be used (not JSON, not a storage state, a FIFO)
// never blocks or fails the render: it goes on without it and says so.

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SharedBrowser } from "../providers/browser/driver.ts";
import { profilePath } from "../providers/browser/profile.ts";
import { createBrowserProvider } from "../providers/browser/provider.ts";
import { startServer, type TestServer } from "./direct-helpers.ts";
import { browserCall, fetchRequest, requireBrowser } from "./helpers/browser-world.ts";

const SENTENCE =
	"The ferry timetable lists every crossing of the sound, the tides it waits for and the harbours where it calls.";
const dir = mkdtempSync(join(tmpdir(), "pwa-browser-profile-"));
const browser = new SharedBrowser();
const provider = createBrowserProvider({ browser });
let site: TestServer;
/** The Cookie header of each request, in order. */
const cookies: string[] = [];

/** A page whose script writes a cookie and localStorage, then shows what it found before it wrote them. */
const PAGE = `<!doctype html><html><head><title>Ferry</title></head><body><div id="root"></div><script>
const seen = "cookie=[" + document.cookie + "] storage=[" + (localStorage.getItem("berth") ?? "") + "]";
document.cookie = "berth=seven; max-age=3600"; localStorage.setItem("berth", "seven");
document.getElementById("root").innerHTML = "<article><h1>Ferry</h1><p>${SENTENCE} The page found " + seen + ".</p></article>";
</script></body></html>`;

beforeAll(async () => {
	requireBrowser();
	site = await startServer();
	site.route("/ferry", (req, res) => {
		cookies.push(req.headers.cookie ?? "");
		res.writeHead(200, { "content-type": "text/html", "set-cookie": "ticket=return; Max-Age=3600; Path=/" }).end(PAGE);
	});
});

afterAll(async () => {
	await browser.close();
	await site.close();
});

const fetchFerry = (options: Record<string, unknown>) =>
	provider.fetch!(fetchRequest(`${site.origin}/ferry`), browserCall(options));

describe("a browser profile", () => {
	it("keeps cookies and site storage between calls in the file it names, readable by its owner only", async () => {
		const profile = join(dir, "kept", "profile.json");
		cookies.length = 0;
		const first = await fetchFerry({ profile });
		// The answer's own Set-Cookie is there at once; what the script wrote is not yet.
		expect(first.content).toContain("The page found cookie=[ticket=return] storage=[]");
		expect(statSync(profile).mode & 0o777).toBe(0o600);
		const second = await fetchFerry({ profile });
		expect(second.content).toMatch(/The page found cookie=\[[^\]]*berth=seven[^\]]*\] storage=\[seven\]/);
		expect(cookies[0]).toBe("");
		expect(cookies[1]).toContain("ticket=return");
		expect(cookies[1]).toContain("berth=seven");
		const saved = JSON.parse(readFileSync(profile, "utf8"));
		expect(saved.cookies.map((c: { name: string }) => c.name).sort()).toEqual(["berth", "ticket"]);
		// Without the option, the next call starts with nothing of the profile's.
		expect((await fetchFerry({})).content).toContain("The page found cookie=[ticket=return] storage=[]");
		expect(cookies[2]).toBe("");
	});

	it("renders without a profile that is not JSON or not a storage state, says so, and leaves the file as it was", async () => {
		for (const [name, text] of [
			["garbled.json", "{ not json"],
			["other.json", JSON.stringify({ cookies: "none" })],
		] as const) {
			const profile = join(dir, name);
			writeFileSync(profile, text);
			const result = await fetchFerry({ profile });
			expect(result.content).toContain(SENTENCE);
			expect(result.warnings?.join("\n")).toContain(`the browser profile ${profile}`);
			expect(readFileSync(profile, "utf8")).toBe(text);
		}
	});

	it("does not block on a FIFO put in the profile's place", async () => {
		const fifo = join(dir, "fifo.json");
		execFileSync("mkfifo", [fifo]);
		const result = await fetchFerry({ profile: fifo });
		expect(result.content).toContain(SENTENCE);
		expect(result.warnings?.join("\n")).toContain("is not a regular file");
		expect(existsSync(fifo) && statSync(fifo).isFIFO()).toBe(true);
	});

	it("reads ~/ as the user's home", () => {
		expect(profilePath("~/p.json", { HOME: "/home/u" })).toBe("/home/u/p.json");
		expect(profilePath("/abs/p.json", { HOME: "/home/u" })).toBe("/abs/p.json");
	});
});
