// Markdown forms of a page beside its HTML: the page's declared alternate (`<link rel="alternate" type="text/markdown">`)
// and, on a host that publishes an `/llms.txt`, the page's `.md` twin (the llms.txt convention). What each host has
// is learnt once and kept (MarkdownHosts): a host without llms.txt is never asked for a twin, and one whose twins
// keep missing stops being asked; the probe runs beside the host's first page, bounded in bytes and time.

import { httpUrl } from "../sources/route.ts";
import { mediaType } from "./convert.ts";
import type { RawPage } from "./fetch-page.ts";

export const TWIN_DEFAULTS = {
	/** Hosts remembered (least recently used forgotten first). */
	hosts: 1000,
	/** How long what a host has is trusted before it is probed again. */
	ttlMs: 60 * 60 * 1000,
	/** The llms.txt probe's bounds. */
	probeBytes: 64 * 1024,
	probeTimeoutMs: 2000,
	/** Twins missed in a row before a host is no longer asked for them. */
	maxMisses: 2,
	/** How much of an HTML page is searched for a declared alternate. */
	headChars: 256 * 1024,
};

type HostState = { twins: boolean; misses: number; atMs: number };

/** What each host was found to have: llms.txt (so twins are worth asking) or not. Bounded, per process. */
export class MarkdownHosts {
	private readonly states = new Map<string, HostState>();
	private readonly probing = new Map<string, Promise<void>>();
	private readonly now: () => number;

	constructor(now: () => number = Date.now) {
		this.now = now;
	}

	/** True: ask for twins; false: never; undefined: not known yet (probe it beside the page). */
	twins(origin: string): boolean | undefined {
		const state = this.states.get(origin);
		if (!state) return undefined;
		if (this.now() - state.atMs > TWIN_DEFAULTS.ttlMs) {
			this.states.delete(origin);
			return undefined;
		}
		// Re-inserted: the map's order is the LRU order.
		this.states.delete(origin);
		this.states.set(origin, state);
		return state.twins && state.misses < TWIN_DEFAULTS.maxMisses;
	}

	/** Runs `probe` once per host at a time and records its answer. */
	probe(origin: string, probe: () => Promise<boolean>): Promise<void> {
		let pending = this.probing.get(origin);
		if (!pending) {
			pending = probe()
				.catch(() => false)
				.then((twins) => this.set(origin, { twins, misses: 0, atMs: this.now() }))
				.finally(() => this.probing.delete(origin));
			this.probing.set(origin, pending);
		}
		return pending;
	}

	/** A twin was there (the count of misses starts again) or was not. */
	record(origin: string, found: boolean): void {
		const state = this.states.get(origin);
		if (state) state.misses = found ? 0 : state.misses + 1;
	}

	private set(origin: string, state: HostState): void {
		this.states.delete(origin);
		this.states.set(origin, state);
		while (this.states.size > TWIN_DEFAULTS.hosts) this.states.delete(this.states.keys().next().value as string);
	}
}

/** The process-wide record the direct provider uses unless handed one. */
export const sharedMarkdownHosts = new MarkdownHosts();

/**
 * The `.md` twin of a page URL (llms.txt convention): `/docs/page` → `/docs/page.md`, `/docs/page.html` →
 * `/docs/page.html.md`, `/docs/` → `/docs.md`, `/` → `/index.html.md`. Undefined for a path with another
 * extension (a file, not a page) or a query (another view of the page).
 */
export function twinUrl(url: string): string | undefined {
	const parsed = httpUrl(url);
	if (parsed === undefined || parsed.search !== "") return undefined;
	const path = parsed.pathname;
	const last = path.slice(path.lastIndexOf("/") + 1);
	if (/\.[A-Za-z0-9]{1,8}$/.test(last) && !/\.html?$/i.test(last)) return undefined;
	const twin = path === "/" ? "/index.html.md" : `${path.replace(/\/+$/, "")}.md`;
	return `${parsed.origin}${twin}`;
}

/** An llms.txt: a 2xx text answer (not an HTML page a catch-all route serves) that starts with a heading. */
export function isLlmsTxt(page: RawPage): boolean {
	if (page.status < 200 || page.status >= 300) return false;
	const type = mediaType(page.headers["content-type"]);
	if (type === "text/html" || type === "application/xhtml+xml") return false;
	return /^\uFEFF?\s*# \S/.test(page.body.subarray(0, 1024).toString("utf8"));
}

/** A markdown answer: 2xx, markdown or plain text (not HTML under another name), with some text. */
export function isMarkdownAnswer(page: RawPage): boolean {
	if (page.status < 200 || page.status >= 300 || page.truncated) return false;
	const type = mediaType(page.headers["content-type"]);
	if (!["text/markdown", "text/x-markdown", "text/plain", ""].includes(type)) return false;
	const head = page.body.subarray(0, 1024).toString("utf8");
	return /\S/.test(head) && !/^\s*(?:<!doctype html|<html|<head|<body)/i.test(head);
}

/** The page, marked as the markdown it is (a twin served as text/plain is markdown all the same). */
export function asMarkdown(page: RawPage): RawPage {
	const charset = /charset=([^;]+)/i.exec(page.headers["content-type"] ?? "")?.[1]?.trim() ?? "utf-8";
	return { ...page, headers: { ...page.headers, "content-type": `text/markdown; charset=${charset}` } };
}

/** The URL of an HTML page's declared markdown alternate, resolved against the page; undefined when none. */
export function declaredAlternate(page: RawPage): string | undefined {
	const type = mediaType(page.headers["content-type"]);
	if (type !== "text/html" && type !== "application/xhtml+xml") return undefined;
	const head = page.body.subarray(0, TWIN_DEFAULTS.headChars).toString("latin1");
	for (const tag of head.matchAll(/<link\b[^>]{0,2000}>/gi)) {
		const attributes = new Map<string, string>();
		for (const found of tag[0].matchAll(/([a-zA-Z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
			attributes.set(found[1]!.toLowerCase(), found[2] ?? found[3] ?? found[4] ?? "");
		}
		const rel = (attributes.get("rel") ?? "").toLowerCase().split(/\s+/);
		const declared = mediaType(attributes.get("type"));
		const href = attributes.get("href");
		if (!rel.includes("alternate") || !href) continue;
		if (declared !== "text/markdown" && declared !== "text/x-markdown") continue;
		try {
			const target = new URL(href, page.finalUrl);
			if (target.protocol === "http:" || target.protocol === "https:") return target.href;
		} catch {
			// An href that is no URL is no alternate.
		}
	}
	return undefined;
}
