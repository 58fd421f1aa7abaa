// The metadata line under a fetched page's title (runtime/page-header.ts): every field the page declares is said,
// once, and nothing the title line or the page's own address already says is said again.

import { describe, expect, it } from "vitest";
import { pageHeader } from "../runtime/page-header.ts";

const url = "https://www.gazette.example/news/tide-clock";

describe("the page's metadata line", () => {
	it("says authors, both dates, site name, language and another page's canonical URL", () => {
		expect(
			pageHeader({
				url,
				title: "Tide clock",
				authors: ["Ada Byron", "Carl Gauss"],
				publishedAt: "2024-03-01T09:00:00.000Z",
				modifiedAt: "2024-05-02T10:30:00.000Z",
				siteName: "Harbour Gazette",
				language: "en-GB",
				canonicalUrl: "https://www.gazette.example/archive/tide-clock",
			}),
		).toBe(
			"By Ada Byron, Carl Gauss · 2024-03-01, updated 2024-05-02 · Harbour Gazette · en-GB · canonical https://www.gazette.example/archive/tide-clock",
		);
	});

	it("says the day published alone, the day updated beside it, and an update on the same day not at all", () => {
		const publishedAt = "2024-03-01T09:00:00.000Z";
		expect(pageHeader({ url, publishedAt })).toBe("2024-03-01");
		expect(pageHeader({ url, publishedAt, modifiedAt: "2024-03-01T18:00:00.000Z" })).toBe("2024-03-01");
		expect(pageHeader({ url, publishedAt, modifiedAt: "2024-03-04" })).toBe("2024-03-01, updated 2024-03-04");
		expect(pageHeader({ url, modifiedAt: "2024-03-04" })).toBe("updated 2024-03-04");
	});

	it("leaves out a canonical URL that differs from the page's only by scheme, www, a trailing slash or parameters", () => {
		for (const canonicalUrl of [
			"http://www.gazette.example/news/tide-clock",
			"https://gazette.example/news/tide-clock/",
			"http://gazette.example/news/tide-clock",
		]) {
			expect(pageHeader({ url, canonicalUrl, language: "en" })).toBe("en");
		}
		// The page's address carries tracking or session parameters the canonical one leaves out.
		const tracked = `${url}/;jsessionid=51A2?utm_source=feed&id=7`;
		expect(pageHeader({ url: tracked, canonicalUrl: `${url}?id=7` })).toBeUndefined();
		expect(pageHeader({ url: tracked, canonicalUrl: `${url}?id=8` })).toBe(`canonical ${url}?id=8`);
		expect(pageHeader({ url, canonicalUrl: "https://www.gazette.example/news/tide-clock?page=2" })).toBe(
			"canonical https://www.gazette.example/news/tide-clock?page=2",
		);
	});

	it("leaves out a site name the title line already says or the host spells", () => {
		const published = "2024-03-01";
		expect(
			pageHeader({ url, title: "Tide clock | Harbour GAZETTE", siteName: "Harbour Gazette", publishedAt: published }),
		).toBe("2024-03-01");
		expect(pageHeader({ url, title: "Tide clock", siteName: "Gazette.example", publishedAt: published })).toBe(
			"2024-03-01",
		);
		expect(pageHeader({ url, title: "Tide clock", siteName: "Harbour Gazette" })).toBe("Harbour Gazette");
	});

	it("leaves out an author that is only the site's name or host, and keeps the people", () => {
		expect(
			pageHeader({ url, title: "Tide clock", siteName: "Gazette", authors: ["gazette.example", "Ada Byron"] }),
		).toBe("By Ada Byron");
		expect(pageHeader({ url, title: "Tide clock - Gazette", authors: ["Gazette"] })).toBeUndefined();
	});

	it("says a language whose region only repeats it as the language alone", () => {
		expect(pageHeader({ url, language: "de-DE" })).toBe("de");
		expect(pageHeader({ url, language: "fr-fr" })).toBe("fr");
		expect(pageHeader({ url, language: "de-AT" })).toBe("de-AT");
		expect(pageHeader({ url, language: "en-US" })).toBe("en-US");
	});
});
