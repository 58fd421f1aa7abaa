// Validates tool/CLI arguments into engine requests with actionable messages. Pure; shared by the tools and CLI.

import { REQUEST_LIMITS } from "./limits.ts";
import { isNamedRecency } from "./recency.ts";
import type { FetchFormat, FetchRequest, LinkStyle, Recency, SearchRequest } from "./request-types.ts";
import { parseSitePattern } from "./sites.ts";

export { REQUEST_LIMITS } from "./limits.ts";

export class RequestError extends Error {
	override name = "RequestError";
}

export interface SearchInput {
	query: string;
	domains?: string[];
	excludeDomains?: string[];
	recency?: string;
	maxResults?: number;
	includeContent?: boolean;
	provider?: string;
}

export interface FetchInput {
	url: string;
	offset?: number;
	maxChars?: number;
	provider?: string;
	format?: string;
	links?: string;
}

export const FETCH_FORMATS: readonly FetchFormat[] = ["markdown", "text", "html"];
export const LINK_STYLES: readonly LinkStyle[] = ["references", "inline", "none"];

function validDate(text: string): boolean {
	if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
	const date = new Date(`${text}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

export function parseRecency(value: string): Recency {
	if (isNamedRecency(value)) return value;
	const [from, to, ...extra] = value.split("..");
	if (extra.length === 0 && from !== undefined && to !== undefined && validDate(from) && validDate(to)) {
		if (from > to) throw new RequestError(`recency range starts after it ends: ${value}`);
		return value as Recency;
	}
	throw new RequestError(`recency must be day, week, month, year or a range YYYY-MM-DD..YYYY-MM-DD, got "${value}"`);
}

function checkDomains(field: string, domains: string[] | undefined): string[] {
	const list = (domains ?? []).map((d) => d.trim()).filter((d) => d.length > 0);
	if (list.length > REQUEST_LIMITS.maxDomains) {
		throw new RequestError(`${field} has ${list.length} entries; at most ${REQUEST_LIMITS.maxDomains} are allowed`);
	}
	for (const entry of list) {
		const parsed = parseSitePattern(entry);
		if (!parsed.ok) {
			throw new RequestError(
				`${field} entry ${JSON.stringify(entry.slice(0, 100))} is not a site pattern: ${parsed.problem} (use a host like github.com, a suffix like .cn, or host/path like go.dev/doc)`,
			);
		}
	}
	return [...new Set(list)];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

// Arguments arrive from models and scripts as untyped JSON: a wrong type is named, never coerced or dropped.

/** "a number (42)", "text", "a list with a number (1)": what was given, short, never echoing long text. */
function given(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) {
		const odd = value.find((v) => typeof v !== "string");
		return odd === undefined ? "a list" : `a list with ${given(odd)}`;
	}
	if (typeof value === "string") return "text";
	if (typeof value === "number") return `a number (${value})`;
	return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Optional text: absent (undefined or null) or a string. */
function optionalText(field: string, value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (typeof value !== "string") throw new RequestError(`${field} must be text, got ${given(value)}`);
	return value;
}

function optionalList(field: string, value: unknown): string[] | undefined {
	if (value === undefined || value === null) return undefined;
	if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
		throw new RequestError(`${field} must be a list of site patterns like ["github.com"], got ${given(value)}`);
	}
	return value;
}

function wholeNumber(field: string, value: unknown, fallback: number, min: number, max: number): number {
	const n = value === undefined || value === null ? fallback : value;
	if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
		const range = max === Number.MAX_SAFE_INTEGER ? `≥ ${min}` : `from ${min} to ${max}`;
		throw new RequestError(`${field} must be a whole number ${range}, got ${typeof n === "number" ? n : given(n)}`);
	}
	return n;
}

/** An optional choice among `allowed`; absent stays absent. */
function optionalChoice<T extends string>(field: string, value: unknown, allowed: readonly T[]): T | undefined {
	const text = optionalText(field, value);
	if (text === undefined) return undefined;
	if ((allowed as readonly string[]).includes(text)) return text as T;
	throw new RequestError(`${field} must be one of ${allowed.join(", ")}, got ${JSON.stringify(text.slice(0, 40))}`);
}

function provider(value: unknown): { provider?: string } {
	const name = optionalText("provider", value)?.trim();
	return name ? { provider: name } : {};
}

export function searchRequest(input: SearchInput): SearchRequest {
	const raw = optionalText("query", input.query);
	const query = raw?.trim() ?? "";
	if (!query) throw new RequestError("query is empty: say what to search for");
	if (query.length > REQUEST_LIMITS.maxQueryChars) {
		throw new RequestError(`query is ${query.length} characters; keep it under ${REQUEST_LIMITS.maxQueryChars}`);
	}
	if (CONTROL.test(query)) throw new RequestError("query contains control characters; remove them");
	const maxResults = wholeNumber(
		"maxResults",
		input.maxResults,
		REQUEST_LIMITS.maxResultsDefault,
		1,
		REQUEST_LIMITS.maxResultsMax,
	);
	const includeContent: unknown = input.includeContent ?? false;
	if (typeof includeContent !== "boolean") {
		throw new RequestError(`includeContent must be true or false, got ${given(includeContent)}`);
	}
	const recency = optionalText("recency", input.recency);
	return {
		kind: "search",
		query,
		domains: checkDomains("domains", optionalList("domains", input.domains)),
		excludeDomains: checkDomains("excludeDomains", optionalList("excludeDomains", input.excludeDomains)),
		...(recency ? { recency: parseRecency(recency) } : {}),
		maxResults,
		includeContent,
		...provider(input.provider),
	};
}

export function fetchRequest(input: FetchInput): FetchRequest {
	const raw = optionalText("url", input.url)?.trim() ?? "";
	if (!raw) throw new RequestError("url is empty: give an http or https URL");
	if (raw.length > REQUEST_LIMITS.maxUrlChars) {
		throw new RequestError(`url is ${raw.length} characters; at most ${REQUEST_LIMITS.maxUrlChars} are allowed`);
	}
	let url: URL;
	try {
		url = new URL(raw);
	} catch {
		throw new RequestError(`url is not a valid absolute URL: ${JSON.stringify(raw.slice(0, 200))}`);
	}
	if (url.protocol !== "http:" && url.protocol !== "https:") {
		throw new RequestError(`url must use http or https, not ${url.protocol.replace(/:$/, "")}`);
	}
	if (url.username || url.password) throw new RequestError("url must not contain a user name or password");
	if (!url.hostname) throw new RequestError("url has no host");
	const offset = wholeNumber("offset", input.offset, 0, 0, Number.MAX_SAFE_INTEGER);
	const { maxCharsDefault, maxCharsMin, maxCharsMax } = REQUEST_LIMITS;
	const maxChars = wholeNumber("maxChars", input.maxChars, maxCharsDefault, maxCharsMin, maxCharsMax);
	const format = optionalChoice("format", input.format, FETCH_FORMATS);
	const links = optionalChoice("links", input.links, LINK_STYLES);
	return {
		kind: "fetch",
		url: url.href,
		offset,
		maxChars,
		...provider(input.provider),
		...(format ? { format } : {}),
		...(links ? { links } : {}),
	};
}
