// Moves a web_search query's `site:` / `-site:` operators into domains / excludeDomains, so every provider
// gets the same filter (natively or applied afterwards) and the query keeps only its words.

/** What extractSiteOperators returns; values are written as in the query, for parseSitePattern to check. */
export interface ExtractedOperators {
	/** The query without its operators, words separated by single spaces. */
	query: string;
	domains: readonly string[];
	excludeDomains: readonly string[];
}

/** A query with no operator (most: every call plans one) shares these; never changed (frozen). */
const NO_LIST: readonly string[] = Object.freeze([]);

// A quoted phrase is one token, so `"site:example.com"` stays a phrase the user wants searched.
const TOKENS = /"[^"]*"|\S+/g;
const OPERATOR = /^(-?)site:(.+)$/i;
const SCHEME = /^https?:\/\//i;
/** Words without quotes separated by single spaces: its tokens joined by " " are the query itself. */
const PLAIN = /^[^\s"]+(?: [^\s"]+)*$/;
const MENTIONS_SITE = /site:/i;

function operand(text: string): string {
	const unquoted = text.length > 1 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
	// Models often paste a URL after site:; the pattern grammar has no scheme.
	return unquoted.replace(SCHEME, "");
}

/** Moves site:/-site: tokens (operator case-insensitive; site:<host> and site:<host>/<path>) out of the query. */
export function extractSiteOperators(query: string): ExtractedOperators {
	// Words without quotes and single spaces, none mentioning site: (most queries): nothing to move and nothing to
	// respace, so no tokenising and no lists.
	if (PLAIN.test(query) && !MENTIONS_SITE.test(query)) return { query, domains: NO_LIST, excludeDomains: NO_LIST };
	const words: string[] = [];
	const domains: string[] = [];
	const excludeDomains: string[] = [];
	for (const token of query.match(TOKENS) ?? []) {
		const operator = OPERATOR.exec(token);
		const value = operator === null ? "" : operand(operator[2]!);
		if (operator === null || value === "") {
			words.push(token);
			continue;
		}
		const list = operator[1] === "-" ? excludeDomains : domains;
		if (!list.includes(value)) list.push(value);
	}
	return { query: words.join(" "), domains, excludeDomains };
}
