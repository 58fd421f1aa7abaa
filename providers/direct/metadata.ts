// Title, author, published date and article body from a page's meta tags and JSON-LD (schema.org Article and
// friends), as collected by parsePage in providers/direct/dom.ts. Malformed JSON-LD is skipped, never fatal.

import type { ParsedPage } from "./dom.ts";

export interface PageMetadata {
	title?: string;
	author?: string;
	/** ISO 8601 when the page's date parses, else left out. */
	publishedAt?: string;
	/** JSON-LD `articleBody` (plain text), when the page has one. */
	articleBody?: string;
}

const ARTICLE_TYPE = /(?:Article|BlogPosting|Report|Posting|WebPage|Recipe|Review)$/;
const MAX_NODES = 2000;

type Json = Record<string, unknown>;

export function readMetadata(page: ParsedPage): PageMetadata {
	const meta = page.meta;
	const ld = articleNode(page.jsonLd);
	const title = clean(page.title) ?? clean(meta["og:title"]) ?? clean(asText(ld?.headline));
	const author =
		clean(authorName(ld?.author)) ??
		clean(meta.author) ??
		clean(nonUrl(meta["article:author"])) ??
		clean(meta["parsely-author"]) ??
		clean(meta["dc.creator"]) ??
		clean(meta["sailthru.author"]);
	const published = [
		asText(ld?.datePublished),
		meta["article:published_time"],
		meta["og:published_time"],
		meta.datepublished,
		meta["dc.date.issued"],
		meta["dc.date"],
		meta.date,
		meta["parsely-pub-date"],
		meta["sailthru.date"],
		meta.pubdate,
		meta["publish-date"],
	].find((value) => value && isoDate(value));
	const body = asText(ld?.articleBody);
	return {
		...(title ? { title } : {}),
		...(author ? { author } : {}),
		...(published ? { publishedAt: isoDate(published)! } : {}),
		...(body?.trim() ? { articleBody: body.trim() } : {}),
	};
}

/** The first schema.org article-like node in the page's JSON-LD blocks (arrays and `@graph` searched). */
function articleNode(blocks: readonly string[]): Json | undefined {
	let seen = 0;
	for (const block of blocks) {
		let data: unknown;
		try {
			data = JSON.parse(block);
		} catch {
			continue;
		}
		const queue: unknown[] = [data];
		while (queue.length > 0 && seen++ < MAX_NODES) {
			const node = queue.shift();
			if (Array.isArray(node)) queue.push(...node);
			else if (node && typeof node === "object") {
				const object = node as Json;
				const types = ([] as unknown[]).concat(object["@type"] ?? []).map(String);
				if (types.some((type) => ARTICLE_TYPE.test(type)) && (object.headline || object.articleBody)) return object;
				if (object["@graph"]) queue.push(object["@graph"]);
				if (object.mainEntity) queue.push(object.mainEntity);
			}
		}
	}
	return undefined;
}

function authorName(value: unknown): string | undefined {
	if (typeof value === "string") return nonUrl(value);
	if (Array.isArray(value)) {
		const names = value.map(authorName).filter(Boolean);
		return names.length > 0 ? names.join(", ") : undefined;
	}
	if (value && typeof value === "object") return asText((value as Json).name);
	return undefined;
}

function asText(value: unknown): string | undefined {
	return typeof value === "string" ? value : undefined;
}

function nonUrl(value: string | undefined): string | undefined {
	return value && !/^https?:\/\//i.test(value.trim()) ? value : undefined;
}

function clean(value: string | undefined): string | undefined {
	const text = value?.replace(/\s+/g, " ").trim();
	return text ? text.slice(0, 300) : undefined;
}

function isoDate(value: string): string | undefined {
	const trimmed = value.trim();
	if (!/^\d{4}-\d{2}-\d{2}/.test(trimmed) && !/\d{4}/.test(trimmed)) return undefined;
	const time = Date.parse(trimmed);
	return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
