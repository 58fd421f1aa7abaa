// Stock labels inside an article's own container (providers/direct/extract-labels.ts): a block whose whole text is a
// site's stock phrase goes, in the page's language, and the link teasers after a related-reading label go with it;
// the same words inside a sentence, and the article's own headings and lists, stay.

import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "../providers/direct/html-to-markdown.ts";

const para = (seed: string) =>
	`<p>${seed} ${"The council met on Tuesday evening and talked about the harbour wall, its cost and its repair. ".repeat(4)}</p>`;

const page = (inner: string) =>
	`<html><head><title>Harbour wall</title></head><body><nav><a href="/">Home</a> <a href="/n">News</a></nav>
<div class="post"><h1>Harbour wall</h1><p>5 min read</p>${para("First.")}<figure><img src="/w.jpg" alt="The wall"><p>Foto: Jan Kowalski</p></figure>
${para("Second.")}<h2>What the engineers found</h2>${para("Third.")}<ul><li>Cracks in the north arm;</li><li>loose stones at the steps.</li></ul>
<p>Related work by the engineers is listed in the appendix of the council's report, which anyone may read.</p>
${inner}</div><footer>© Gazette</footer></body></html>`;

/** The page with each line as a paragraph of the article, then `after` and a closing paragraph it keeps, as markdown. */
async function withLines(lines: readonly string[], after = ""): Promise<string> {
	const html = page(`${lines.map((line) => `<p>${line}</p>`).join("")}${after}${para("Closing.")}`);
	const { markdown } = await htmlToMarkdown(html, "https://gazette.example/wall");
	expect(markdown).toContain("Closing.");
	return markdown;
}

describe("stock labels in the article's container", () => {
	it("drops a related-reading heading inside the article with the teasers after it, in English and German", async () => {
		for (const heading of ["Related articles", "Mehr zum Thema", "Das könnte Sie auch interessieren:"]) {
			// Teasers with a line of text each: not link lists, yet mostly links.
			const html = page(
				`<h3>${heading}</h3><p><a href="/a">Pier reopens after storm</a> and divers check</p>
<p><a href="/b">Ferry fares rise in spring</a> for the islands</p>${para("Closing.")}`,
			);
			const { markdown } = await htmlToMarkdown(html, "https://gazette.example/wall");
			expect(markdown, heading).not.toContain(heading);
			for (const teaser of ["Pier reopens", "Ferry fares"]) expect(markdown).not.toContain(teaser);
			expect(markdown).toContain("Closing.");
		}
	});

	it("drops author-box, comment, date, reading-time and credit labels but keeps the article's headings, lists and sentences", async () => {
		const html = page(
			`<p>Last modified: 2024-05-03</p><h3>Über den Autor</h3>${para("Bio.")}<h3>3 Kommentare</h3><p>Leave a comment</p>`,
		);
		const { markdown } = await htmlToMarkdown(html, "https://gazette.example/wall");
		for (const label of [
			"Über den Autor",
			"3 Kommentare",
			"Leave a comment",
			"Last modified",
			"5 min read",
			"Foto: Jan Kowalski",
		]) {
			expect(markdown, label).not.toContain(label);
		}
		expect(markdown).toContain("## What the engineers found");
		expect(markdown).toContain("- Cracks in the north arm;");
		expect(markdown).toContain("Related work by the engineers is listed in the appendix");
	});

	it("drops related-reading labels of Spanish, Portuguese, French, Dutch and English with the teasers after them", async () => {
		for (const heading of ["Lee también...", "Lea también:", "Leia também", "Voir aussi", "Lees ook", "Also read"]) {
			const html = page(
				`<p><strong>${heading}</strong></p><p><a href="/a">Pier reopens after storm</a> Lunes 02 Mayo</p>${para("Closing.")}`,
			);
			const { markdown } = await htmlToMarkdown(html, "https://gazette.example/wall");
			expect(markdown, heading).not.toContain(heading.replace(/[.:]+$/, ""));
			expect(markdown, heading).not.toContain("Pier reopens");
			expect(markdown).toContain("Closing.");
		}
	});

	it("drops rating, embed, back-link, next-article, disclosure, newsletter, contact, credit and date-only lines; keeps a dated sentence and a table's date", async () => {
		const lines = [
			"Valora esta noticia",
			"Externer Inhalt",
			"Zurück zur Listenansicht",
			"Back to news",
			"Anzeige, enthält Affiliate Links",
			"Join Harbour Gazette Newsletters",
			"Suscríbete a nuestro boletín",
			"Abonnez-vous à notre newsletter",
			"Jan Kowalski/WENN.com",
			"(Credit: Jan Kowalski / Gazette)",
			"Beitragsbild: Titelseite vom 2.4.2019, Ausriss.",
			"Aktualisiert am 17.01.2021.",
			"Vorschau auf den nächsten Artikel",
			"Next article",
			"(Noch keine Bewertungen)",
			"Alle Angaben ohne Gewähr",
			"Pressekontakt:",
			"Möchten Sie den Artikel teilen?",
			"23.10.2018",
			"3:59 PM",
			"2024-05-03, 14:20 Uhr",
			"asked Feb 6, 2014 at 20:37",
			"Crédits photos : Bestimage",
		];
		const markdown = await withLines(
			lines,
			"<p>On 24.10.2018 the wall was closed.</p><table><tr><th>Repair</th><th>Date</th></tr><tr><td>Steps</td><td>19.05.2007</td></tr></table>",
		);
		for (const line of lines) expect(markdown, line).not.toContain(line.slice(0, 14));
		expect(markdown).toContain("On 24.10.2018 the wall was closed.");
		expect(markdown, "a table's date cell").toContain("19.05.2007");
	});

	it("drops a table of contents' title with the list of links under it", async () => {
		for (const heading of ["Inhaltsverzeichnis", "Table of contents", "Índice", "Sommaire"]) {
			const html = page(
				`<div class="toc"><p>${heading}</p><nav><ul><li><a href="#pier">Pier reopens after storm</a></li><li><a href="#fares">Ferry fares rise</a></li></ul></nav></div>${para("Closing.")}`,
			);
			const { markdown } = await htmlToMarkdown(html, "https://gazette.example/wall");
			expect(markdown, heading).not.toContain(heading);
			expect(markdown, heading).not.toContain("Pier reopens");
			expect(markdown).toContain("- Cracks in the north arm;");
			expect(markdown).toContain("Closing.");
		}
	});
});
