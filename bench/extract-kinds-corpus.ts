// The non-article dev set: listing, collection, forum, product, docs and service pages made up from a seed, each with
// realistic chrome (navigation, cookie banner, newsletter box, related list, footer) and annotated in the development
// corpus's format (annotations.json `{ file: { url, kind, with, without } }` + html/<file>.html.gz, gzip as there).
// `npx node bench/extract-kinds-corpus.ts` writes bench/fixtures/extract-kinds/; the bench reads the files.

import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { createRandom, pick } from "./stats.ts";

export type DevKind = "listing" | "collection" | "forum" | "product" | "documentation" | "service";

/** One made-up page: what a reader of its kind must see (`with`) and must not (`without`). */
export interface KindPage {
	name: string;
	kind: DevKind;
	url: string;
	html: string;
	with: string[];
	without: string[];
}

export const KINDS_DIR = join(import.meta.dirname, "fixtures", "extract-kinds");
export const KIND_LIST: DevKind[] = ["listing", "collection", "forum", "product", "documentation", "service"];
export const PAGES_PER_KIND = 5;

const NOUNS =
	"harbour ferry lantern orchard bakery library museum bridge market garden river valley meadow forest workshop studio station tower cellar mill".split(
		" ",
	);
const VERBS = "opens closes reports plans builds repairs welcomes visits counts shares prepares".split(" ");
const ADJS = "quiet busy old new small large bright early late careful local".split(" ");

type Random = () => number;

const words = (r: Random, n: number) =>
	Array.from({ length: n }, (_, i) => (i % 3 === 1 ? pick(r, VERBS) : i % 3 === 2 ? pick(r, ADJS) : pick(r, NOUNS)));
const cap = (s: string) => s.replace(/^./, (c) => c.toUpperCase());
/** A sentence with a serial number, so every snippet is unique on its page. */
const sentence = (r: Random, n: number, tag: string) =>
	`${cap(words(r, 6 + Math.floor(r() * 8)).join(" "))} ${tag}${n}.`;
const title = (r: Random, n: number) => `${cap(words(r, 3 + Math.floor(r() * 3)).join(" "))} no. ${n}`;

function chrome(r: Random, seed: number, site: string) {
	const menu = Array.from(
		{ length: 7 },
		(_, i) => `<li><a href="/section-${i}">${cap(pick(r, NOUNS))} guide ${i}</a></li>`,
	);
	const nav = `<header class="site-header"><a class="logo" href="/">${site}</a><nav class="main-nav"><ul>${menu.join("")}</ul></nav><form class="search"><input name="q"><button>Search</button></form></header>`;
	const cookie = `Cookies help us run ${site} ${seed}: we use them for statistics and to remember your choices.`;
	const newsletter = `Get the ${site} letter every Friday, sign up for news ${seed}.`;
	const relatedTitles = Array.from(
		{ length: 4 },
		(_, i) => `Also read about the ${pick(r, NOUNS)} story r${seed}x${i}`,
	);
	const related = `<aside class="related-posts"><h3>Related</h3><ul>${relatedTitles.map((t, i) => `<li><a href="/r/${i}">${t}</a></li>`).join("")}</ul></aside>`;
	const footerLine = `Copyright ${site} ${seed}, all rights reserved, imprint and privacy.`;
	const footer = `<footer class="site-footer"><ul><li><a href="/about">About us</a></li><li><a href="/privacy">Privacy</a></li><li><a href="/imprint">Imprint</a></li></ul><p>${footerLine}</p></footer>`;
	return {
		before: `${nav}<div class="cookie-banner" role="dialog"><p>${cookie}</p><button>Accept</button></div>`,
		after: `${related}<div class="newsletter-box"><p>${newsletter}</p><form><input type="email"></form></div>${footer}`,
		without: [cookie, newsletter, relatedTitles[0]!, footerLine, menu.length ? "guide 3" : ""].filter(Boolean),
	};
}

const page = (title: string, head: string, body: string) =>
	`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>${head}<script src="/app.js"></script></head><body>${body}</body></html>`;

function listing(r: Random, n: number, cards: boolean): Omit<KindPage, "name" | "kind" | "url"> {
	const c = chrome(r, n, cards ? "Gallery Hub" : "Town Notes");
	const heading = cards ? `Photo collections ${n}` : `Latest notes from the valley ${n}`;
	const items = Array.from({ length: 8 + Math.floor(r() * 6) }, (_, i) => ({
		title: title(r, n * 100 + i),
		text: cards ? `${pick(r, ADJS)} set ${n}-${i}` : sentence(r, n * 100 + i, "s"),
	}));
	// Variants by n: a feed of teasers, search results in a list, a changelog table; cards in a grid or a shop list.
	const shape = n % 3;
	const entries = items.map((item, i) => {
		const href = `/notes/${n}-${i}`;
		if (cards && shape === 1) {
			return `<li class="product-card"><a href="/p/${i}"><picture><img src="/p/${i}.webp" alt=""></picture></a><h2 class="card-title"><a href="/p/${i}">${item.title}</a></h2><span class="tagline">${item.text}</span></li>`;
		}
		if (cards) {
			return `<div class="card"><a href="/set/${i}"><img src="/img/${i}.jpg" alt=""><h3>${item.title}</h3></a><span class="count">${item.text}</span></div>`;
		}
		if (shape === 1) {
			return `<li class="result"><h3><a href="${href}">${item.title}</a></h3><span class="url">${href}</span><p class="snippet">${item.text}</p></li>`;
		}
		if (shape === 2) {
			return `<tr><td><a href="${href}">${item.title}</a></td><td>${item.text}</td><td>2025-0${1 + (i % 9)}-1${i % 10}</td></tr>`;
		}
		return `<article class="teaser"><h2><a href="${href}">${item.title}</a></h2><p class="summary">${item.text}</p><a class="more" href="${href}">Read more</a></article>`;
	});
	const list = cards
		? shape === 1
			? `<ul class="products">${entries.join("")}</ul>`
			: `<div class="grid">${entries.join("")}</div>`
		: shape === 1
			? `<ol class="results">${entries.join("")}</ol>`
			: shape === 2
				? `<table class="changelog"><thead><tr><th>Release</th><th>Notes</th><th>Date</th></tr></thead><tbody>${entries.join("")}</tbody></table>`
				: `<div class="feed">${entries.join("")}</div>`;
	const pager = `<nav class="pagination"><a href="?page=2">Next page</a></nav>`;
	const body = `${c.before}<main><h1>${heading}</h1>${list}${pager}</main>${c.after}`;
	const keep = items.flatMap((item) => [item.title, item.text]);
	return { html: page(heading, "", body), with: [heading, ...keep], without: [...c.without, "Next page"] };
}

function forum(r: Random, n: number): Omit<KindPage, "name" | "kind" | "url"> {
	const c = chrome(r, n, "Valley Forum");
	const heading = `Question about the ${pick(r, NOUNS)} repairs ${n}`;
	const users = ["alice", "bob", "carol", "dave", "erin"];
	const posts = Array.from({ length: 3 + Math.floor(r() * 4) }, (_, i) => ({
		user: `${pick(r, users)}${n}${i}`,
		at: new Date(Date.UTC(2025, 2, 1 + i, 10, n)).toISOString(),
		text: [sentence(r, n * 100 + i, "p"), sentence(r, n * 100 + i, "q")].join(" "),
	}));
	// Variants by n: posts named as posts, schema.org microdata (a posting and its comments), a Q&A page.
	const shape = n % 3;
	const html = posts
		.map((p, i) => {
			if (shape === 1) {
				const type = i === 0 ? "DiscussionForumPosting" : "Comment";
				return `<div class="entry" itemscope itemtype="https://schema.org/${type}"><div class="by"><span itemprop="author">${p.user}</span> wrote on <span itemprop="datePublished">${p.at.slice(0, 10)}</span></div><div itemprop="text"><p>${p.text}</p></div><a class="reply-link" href="#r">Reply</a></div>`;
			}
			if (shape === 2) {
				const role = i === 0 ? "question" : "answer";
				return `<div class="${role}" id="${role}-${i}"><div class="votes">${i * 3} votes</div><div class="s-prose"><p>${p.text}</p></div><div class="user-info"><a class="user-name" href="/u/${i}">${p.user}</a> <time datetime="${p.at}">asked ${p.at.slice(0, 10)}</time></div></div>`;
			}
			return `<div class="post" id="post-${i}"><div class="post-meta"><span class="username">${p.user}</span> <time datetime="${p.at}">${p.at.slice(0, 10)}</time></div><div class="post-body"><p>${p.text}</p></div><div class="post-actions"><a href="#quote">Quote</a> <a href="#like">Like</a></div></div>`;
		})
		.join("");
	const ld =
		shape === 2
			? `<script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", "@type": "QAPage", mainEntity: { "@type": "Question", name: heading } })}</script>`
			: "";
	const crumbs = `<ol class="breadcrumbs"><li><a href="/">Forum</a></li><li><a href="/f/help">Help desk ${n}</a></li></ol>`;
	const body = `${c.before}${crumbs}<main><h1>${heading}</h1><div class="thread">${html}</div><div class="reply-box">Log in to reply ${n}</div></main>${c.after}`;
	const keep = posts.flatMap((p) => [p.user, p.text]);
	return { html: page(heading, ld, body), with: [heading, ...keep], without: [...c.without, `Help desk ${n}`] };
}

function product(r: Random, n: number): Omit<KindPage, "name" | "kind" | "url"> {
	const c = chrome(r, n, "Workshop Store");
	const name = `${cap(pick(r, ADJS))} ${pick(r, NOUNS)} lamp model ${n}`;
	const description = [sentence(r, n, "d"), sentence(r, n + 50, "d"), sentence(r, n + 90, "d")].join(" ");
	const specs = [
		["Weight", `${(1 + r() * 4).toFixed(1)} kg item ${n}`],
		["Material", `${pick(r, ["oak", "steel", "brass"])} frame ${n}`],
		["Power", `${20 + Math.floor(r() * 40)} W bulb ${n}`],
		["Warranty", `${2 + (n % 3)} years cover ${n}`],
	];
	const price = `€${(20 + n * 7.5).toFixed(2)}`;
	const ld = `<script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", "@type": "Product", name, offers: { "@type": "Offer", price: 20 + n * 7.5 } })}</script>`;
	// Variants by n: JSON-LD and a spec table, microdata and a definition list, no types at all.
	const shape = n % 3;
	const table =
		shape === 1
			? `<div class="details"><h2>Details</h2><dl class="specs">${specs.map(([k, v]) => `<dt>${k}</dt><dd>${v}</dd>`).join("")}</dl></div>`
			: `<div class="product-specs"><h2>Specifications</h2><table${shape === 2 ? ' class="specifications"' : ""}>${specs.map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join("")}</table></div>`;
	const reviews = `<div class="also-bought"><h2>Customers also bought</h2><ul><li><a href="/p/9">Spare bulb pack ${n}</a></li><li><a href="/p/8">Lamp shade ${n}</a></li></ul></div>`;
	const micro = shape === 1 ? ' itemscope itemtype="https://schema.org/Product"' : "";
	const body = `${c.before}<main><div class="product"${micro}><h1>${name}</h1><div class="gallery"><img src="/p.jpg" alt=""></div><div class="buy-box"><span class="price">${price}</span><button>Add to cart</button></div><div class="description"${shape === 1 ? ' itemprop="description"' : ""}><p>${description}</p></div>${table}</div>${reviews}</main>${c.after}`;
	const keep = [name, description, price, ...specs.flat()];
	return { html: page(name, shape === 0 ? ld : "", body), with: keep, without: [...c.without, `Spare bulb pack ${n}`] };
}

function docs(r: Random, n: number): Omit<KindPage, "name" | "kind" | "url"> {
	const c = chrome(r, n, "Mill Docs");
	const heading = `Configuring the ${pick(r, NOUNS)} module ${n}`;
	const side = `<aside class="docs-sidebar"><ul>${Array.from({ length: 10 }, (_, i) => `<li><a href="/docs/${i}">Chapter ${i} of part ${n}</a></li>`).join("")}</ul></aside>`;
	const sections = Array.from({ length: 3 }, (_, i) => ({
		h: `Step ${i + 1}: ${pick(r, VERBS)} the ${pick(r, NOUNS)} ${n}`,
		p: sentence(r, n * 10 + i, "c"),
		code: `mill.configure({ ${pick(r, NOUNS)}: ${n * 10 + i} })`,
	}));
	const main = sections
		.map((s) => `<h2>${s.h}</h2><p>${s.p}</p><pre><code class="language-js">${s.code}</code></pre>`)
		.join("");
	const toc = `<nav class="toc"><p>On this page</p><ul>${sections.map((s, i) => `<li><a href="#s${i}">${s.h}</a></li>`).join("")}</ul></nav>`;
	// Variants by n: an article in <main>; a TechArticle in a plain content box.
	const tech = n % 2 === 0;
	const content = tech
		? `<div class="layout">${side}<div class="content"><h1>${heading}</h1>${main}</div>${toc}</div>`
		: `<div class="layout">${side}<main><article><h1>${heading}</h1>${main}</article>${toc}</main></div>`;
	const body = `${c.before}${content}${c.after}`;
	const keep = [heading, ...sections.flatMap((s) => [s.h, s.p, s.code])];
	const ld = tech
		? `<script type="application/ld+json">${JSON.stringify({ "@context": "https://schema.org", "@type": "TechArticle", headline: heading })}</script>`
		: "";
	return { html: page(heading, ld, body), with: keep, without: [...c.without, `Chapter 4 of part ${n}`] };
}

function service(r: Random, n: number): Omit<KindPage, "name" | "kind" | "url"> {
	const c = chrome(r, n, "Harbour Cloud");
	const heading = `Backups for every ${pick(r, NOUNS)}, team ${n}`;
	const features = Array.from({ length: 3 }, (_, i) => ({
		h: `${cap(pick(r, ADJS))} ${pick(r, NOUNS)} sync ${n}${i}`,
		p: sentence(r, n * 10 + i, "f"),
	}));
	const plans = ["Starter", "Team", "Business"].map((plan, i) => ({
		plan: `${plan} plan ${n}`,
		price: `$${(i + 1) * 9 + n}/month`,
	}));
	const faq = { q: `Can I cancel at any time, case ${n}?`, a: sentence(r, n, "a") };
	const body = `${c.before}<main><section class="hero"><h1>${heading}</h1><p>${sentence(r, n, "h")}</p><a class="button" href="/signup">Start free</a></section><section class="features"><h2>Features</h2>${features.map((f) => `<div class="feature"><h3>${f.h}</h3><p>${f.p}</p></div>`).join("")}</section><section class="pricing"><h2>Pricing</h2>${plans.map((p) => `<div class="plan"><h3>${p.plan}</h3><p class="price">${p.price}</p></div>`).join("")}</section><section class="faq"><h2>Questions</h2><h3>${faq.q}</h3><p>${faq.a}</p></section></main>${c.after}`;
	const keep = [
		heading,
		...features.flatMap((f) => [f.h, f.p]),
		...plans.flatMap((p) => [p.plan, p.price]),
		faq.q,
		faq.a,
	];
	return { html: page(heading, "", body), with: keep, without: c.without };
}

/** One page of a kind; `n` picks the variant (the same `n` always gives the same page). */
export function kindPage(kind: DevKind, n: number): KindPage {
	const r = createRandom(0x5eed + n * 31 + KIND_LIST.indexOf(kind) * 1009);
	const made =
		kind === "listing" || kind === "collection"
			? listing(r, n, kind === "collection")
			: kind === "forum"
				? forum(r, n)
				: kind === "product"
					? product(r, n)
					: kind === "documentation"
						? docs(r, n)
						: service(r, n);
	const name = `${kind}-${n}.html.gz`;
	return { name, kind, url: `https://${kind}.example/page-${n}`, ...made };
}

export function generateKinds(): KindPage[] {
	return KIND_LIST.flatMap((kind) => Array.from({ length: PAGES_PER_KIND }, (_, n) => kindPage(kind, n + 1)));
}

if (process.argv[1] === import.meta.filename) {
	rmSync(KINDS_DIR, { recursive: true, force: true });
	mkdirSync(join(KINDS_DIR, "html"), { recursive: true });
	const annotations: Record<string, { url: string; kind: DevKind; with: string[]; without: string[] }> = {};
	for (const p of generateKinds()) {
		writeFileSync(join(KINDS_DIR, "html", p.name), gzipSync(p.html, { level: 9 }));
		annotations[p.name] = { url: p.url, kind: p.kind, with: p.with, without: p.without };
	}
	writeFileSync(join(KINDS_DIR, "annotations.json"), `${JSON.stringify(annotations, null, "\t")}\n`);
}
