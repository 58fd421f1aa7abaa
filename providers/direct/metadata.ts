// Title, authors, published and modified dates, site name, language, canonical URL and article body from a page's
// meta tags, JSON-LD (schema.org Article and friends), microdata (microdata.ts) and `<html lang>`, as collected by
// parsePage in providers/direct/dom.ts. Malformed JSON-LD is skipped, never fatal. Every value is the page's text:
// whitespace collapsed, control and bidi characters removed, length capped.

import { articleBodyText } from "./article-body.ts";
import type { ParsedPage } from "./dom.ts";
import { walkJsonLd } from "./json-ld.ts";
import { readMicrodata } from "./microdata.ts";

export interface PageMetadata {
	title?: string;
	/** The authors' names joined by ", " (the first source that names any). */
	author?: string;
	authors?: string[];
	/** ISO 8601 when the page's date parses, else left out. */
	publishedAt?: string;
	modifiedAt?: string;
	siteName?: string;
	/** A language tag (`en`, `de-AT`) as the page declares it. */
	language?: string;
	/** The page's canonical URL (http or https), absolute. */
	canonicalUrl?: string;
	/** JSON-LD `articleBody` (plain text), when the page has one. */
	articleBody?: string;
}

const ARTICLE_TYPE = /(?:Article|BlogPosting|Report|Posting|WebPage|Recipe|Review)$/;
const MAX_NODES = 2000;
const MAX_AUTHORS = 10;
const LANGUAGE_TAG = /^[a-z]{2,3}(?:[-_][a-z0-9]{2,8}){0,3}$/i;

type Json = Record<string, unknown>;

/** Meta tags naming the published and the modified date, most specific first (after JSON-LD and microdata). */
const PUBLISHED_KEYS = [
	"article:published_time",
	"og:published_time",
	"datepublished",
	"dc.date.issued",
	"dc.date",
	"date",
	"parsely-pub-date",
	"sailthru.date",
	"pubdate",
	"publish-date",
];
const MODIFIED_KEYS = ["article:modified_time", "og:updated_time", "datemodified", "dc.date.modified", "last-modified"];

export function readMetadata(page: ParsedPage, baseUrl?: string): PageMetadata {
	const meta = page.meta;
	const { article: ld, site } = ldNodes(page.jsonLd);
	const micro = readMicrodata(page.elements);
	const title = clean(page.title) ?? clean(meta["og:title"]) ?? clean(asText(ld?.headline));
	const authors = [
		authorNames(ld?.author),
		micro.authors,
		[meta.author],
		[nonUrl(meta["article:author"])],
		[meta["parsely-author"]],
		[meta["dc.creator"]],
		[meta["sailthru.author"]],
	]
		.map((names) => unique(names.map(clean)))
		.find((names) => names.length > 0);
	const published = firstDate([asText(ld?.datePublished), micro.published, ...PUBLISHED_KEYS.map((key) => meta[key])]);
	const modified = firstDate([asText(ld?.dateModified), micro.modified, ...MODIFIED_KEYS.map((key) => meta[key])]);
	const siteName =
		clean(meta["og:site_name"]) ??
		clean(nameOf(ld?.publisher)) ??
		clean(micro.publisher) ??
		clean(asText(site?.name)) ??
		clean(meta["application-name"]);
	const language = [page.lang, asText(ld?.inLanguage), micro.language, meta["og:locale"], meta["content-language"]]
		.map((value) => clean(value)?.replace(/_/g, "-"))
		.find((value) => value && LANGUAGE_TAG.test(value));
	const canonicalUrl = absoluteUrl(page.canonicalHref ?? meta["og:url"], baseUrl);
	const body = asText(ld?.articleBody);
	return {
		...(title ? { title } : {}),
		...(authors ? { author: authors.join(", "), authors } : {}),
		...(published ? { publishedAt: published } : {}),
		...(modified ? { modifiedAt: modified } : {}),
		...(siteName ? { siteName } : {}),
		...(language ? { language } : {}),
		...(canonicalUrl ? { canonicalUrl } : {}),
		...(body?.trim() ? { articleBody: articleBodyText(body).trim() } : {}),
	};
}

/**
 * The first schema.org article-like node in the page's JSON-LD blocks (arrays and `@graph` searched), and the
 * first `WebSite` node (its name is the site's).
 */
function ldNodes(blocks: readonly string[]): { article?: Json; site?: Json } {
	const found: { article?: Json; site?: Json } = {};
	walkJsonLd(blocks, ["@graph", "mainEntity"], MAX_NODES, (object) => {
		const types = ([] as unknown[]).concat(object["@type"] ?? []).map(String);
		if (!found.article && types.some((type) => ARTICLE_TYPE.test(type)) && (object.headline || object.articleBody)) {
			found.article = object;
		}
		if (!found.site && types.includes("WebSite")) found.site = object;
		return found.article !== undefined && found.site !== undefined;
	});
	return found;
}

/** JSON-LD `author`: a name, a Person or Organization, or a list of them. */
function authorNames(value: unknown): (string | undefined)[] {
	if (Array.isArray(value)) return value.slice(0, MAX_AUTHORS).flatMap(authorNames);
	if (typeof value === "string") return [nonUrl(value)];
	return [nameOf(value)];
}

function nameOf(value: unknown): string | undefined {
	if (typeof value === "string") return value;
	return value && typeof value === "object" ? asText((value as Json).name) : undefined;
}

function unique(names: (string | undefined)[]): string[] {
	return [...new Set(names.filter((name): name is string => name !== undefined))].slice(0, MAX_AUTHORS);
}

function absoluteUrl(href: string | undefined, baseUrl: string | undefined): string | undefined {
	if (!href?.trim()) return undefined;
	try {
		const url = new URL(href.trim(), baseUrl);
		return (url.protocol === "https:" || url.protocol === "http:") && url.href.length <= 2048 ? url.href : undefined;
	} catch {
		return undefined;
	}
}

function asText(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

function nonUrl(value: string | undefined): string | undefined {
	return value && !/^https?:\/\//i.test(value.trim()) ? value : undefined;
}

/** C0 and C1 controls, zero-width and bidi formatting characters: never part of a value a reader is shown. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
const INVISIBLE = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

function clean(value: string | undefined): string | undefined {
	const text = value?.replace(INVISIBLE, "").replace(/\s+/g, " ").trim();
	return text ? text.slice(0, 300) : undefined;
}

/** The first value that parses as a date, as ISO 8601. */
function firstDate(values: (string | undefined)[]): string | undefined {
	for (const value of values) {
		const date = value ? isoDate(value) : undefined;
		if (date) return date;
	}
	return undefined;
}

function isoDate(value: string): string | undefined {
	const trimmed = value.trim();
	if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed) && !/\d{4}/.test(trimmed)) return undefined;
	const time = Date.parse(trimmed);
	return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
