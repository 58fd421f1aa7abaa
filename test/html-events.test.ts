// providers/direct/html-events.ts reads a page's events from htmlparser2's Tokenizer under its Parser's HTML rules:
// the same events in the same order as the Parser (the oracle here) on the cases its rules cover and on tag soup.

import fc from "fast-check";
import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { HtmlEvents } from "../providers/direct/html-events.ts";

/**
 * The Parser's events, as the tree builder took them before (all attributes), bar one difference on purpose: an
 * ignored nested `<form>`'s attributes, which the Parser hands on as if they were the element's opened before it.
 */
function parserEvents(html: string): string[] {
	const events: string[] = [];
	const parser: Parser = new Parser(
		{
			onopentagname: (name) => events.push(`open ${name}`),
			onattribute: (name, value) => {
				if ((parser as unknown as { tagname: string }).tagname !== "") events.push(`attr ${name}=${value}`);
			},
			onclosetag: (name) => events.push(`close ${name}`),
			ontext: (text) => events.push(`text ${text}`),
		},
		{ decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
	);
	parser.write(html);
	parser.end();
	return events;
}

/** HtmlEvents' events, every attribute wanted; a text piece's source range must be the piece. */
function ourEvents(html: string, wanted: (name: string) => boolean = () => true): string[] {
	const events: string[] = [];
	new HtmlEvents(html, {
		open: (name) => events.push(`open ${name}`),
		wants: wanted,
		attribute: (name, value) => events.push(`attr ${name}=${value}`),
		close: (name) => events.push(`close ${name}`),
		text: (text, source, start, end) => {
			if (source.slice(start, end) !== text) throw new Error(`text ${text} not at ${start}-${end}`);
			events.push(`text ${text}`);
		},
	}).run();
	return events;
}

const CASES = [
	["implied ends of paragraphs, list items, cells and headings", "<p>a<p>b<div>c</div><ul><li>1<li>2</ul><h2>x<h3>y"],
	["a table's rows and sections", "<table><thead><tr><th>a<th>b<tbody><tr><td>1<td>2<tfoot><tr><td>3</table>"],
	["void elements and a stray </br> and </p>", "<div>a<br>b</br><img src=x>c</p><hr>d<input value=1></div>"],
	[
		"a nested form is ignored with its attributes",
		'<form id=a><span class=c><form id=b class="evil">x</form></span></form>',
	],
	["SVG: self-closing tags, camel-cased names, CDATA as text", '<svg><path d="M0"/><clipPath/><![CDATA[c]]></svg>'],
	["MathML and an integration point", "<math><mi>x<mo>+</mo></mi></math><p>after"],
	["an image tag is an img outside SVG", "<image src=a><svg><image href=b /></svg>"],
	["entities in text and in attribute values", '<a title="A &amp; B&#x41;">x &lt; y &copy; &unknown; &#160;z</a>'],
	["upper-case tags and attributes", '<DIV CLASS="X"><P ID=y>T</P></DIV>'],
	["unclosed elements close at the end, innermost first", "<main><section><article><span>open"],
	["a close tag of an element not open", "<div>a</span>b</div></section>"],
	["raw text of scripts, styles and titles", "<title>a<b></title><script>if (a<b) x()</script><style>p>a{}</style>"],
	["comments, a doctype and a processing instruction", "<!DOCTYPE html><!-- c --><?xml x?><p>t</p>"],
	["a title inside SVG", "<svg><title>t<b>x</b></title><desc>d</desc></svg><title>u</title>"],
] as const;

describe("HtmlEvents", () => {
	it.each(CASES)("gives the Parser's events: %s", (_name, html) => {
		expect(ourEvents(html)).toEqual(parserEvents(html));
	});

	it("gives the Parser's events on tag soup", () => {
		const tags = ["p", "div", "li", "ul", "td", "tr", "table", "a", "form", "svg", "math", "mi", "br", "img", "title"];
		const piece = fc.oneof(
			fc.constantFrom(...tags).map((tag) => `<${tag}>`),
			fc.constantFrom(...tags).map((tag) => `</${tag}>`),
			fc.constantFrom(...tags).map((tag) => `<${tag} class="c &amp; d"/>`),
			fc.constantFrom("text", " ", "&amp;", "&#x3c;", "<![CDATA[x]]>", "<!-- c -->", "<IMAGE>", "<clippath>"),
		);
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
				const html = pieces.join("");
				expect(ourEvents(html)).toEqual(parserEvents(html));
			}),
			{ numRuns: 300 },
		);
	});

	it("reads no value of an attribute that is not wanted", () => {
		const events = ourEvents('<a href="x" data-big="&amp;y" class=c>t</a>', (name) => name !== "data-big");
		expect(events).toEqual(["open a", "attr href=x", "attr class=c", "text t", "close a"]);
	});

	it("stops where a handler stops it, closing nothing", () => {
		const events: string[] = [];
		const reader: HtmlEvents = new HtmlEvents("<a><b><c>x</c></b></a>", {
			open: (name) => {
				events.push(`open ${name}`);
				if (name === "b") reader.stop();
			},
			wants: () => false,
			attribute() {},
			close: (name) => events.push(`close ${name}`),
			text() {},
		});
		reader.run();
		expect(events).toEqual(["open a", "open b"]);
	});
});
