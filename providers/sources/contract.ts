// The source-reader seam: a source (`github`, `npm`, …) is an API with an origin, configured under `sources`; a reader
// turns one kind of page URL of that source into compact markdown through the API, and the fetcher falls back to the
// page when it fails. Adding a reader is its module plus one line in providers/sources/readers.ts.

/** An origin option of a source: its name under `sources.<name>`, its default (the public service) and what it is. */
export interface OriginFacts {
	option: "apiUrl" | "registryUrl" | "url" | "proxyUrl";
	default: string;
	description: string;
}

/** One source as the config and the schema know it (providers/sources/source-list.ts lists them). */
export interface SourceFacts {
	/** Its key under `sources`. */
	name: string;
	summary: string;
	/** The option naming the API origin, its default (the public service) and what it is; none: a switch only. */
	origin?: OriginFacts;
	/** A second origin some readers of the source also ask (the Go module proxy beside pkg.go.dev); never a token. */
	second?: OriginFacts;
	/** Page hosts whose URLs the source reads unless `hosts` says others (with an origin only). */
	hosts?: readonly string[];
	/** Set when the source takes a `token`: what it does. Sent to the API origin only. */
	token?: string;
}

/** One source with the config applied (providers/sources/settings.ts). */
export interface SourceSetting {
	name: string;
	enabled: boolean;
	/** The API origin, without a trailing slash (may carry a path: GitHub Enterprise's `/api/v3`); "" for a switch. */
	origin: string;
	/** The second origin (SourceFacts.second), without a trailing slash; absent when the source has none. */
	second?: string;
	/** Lower-case page hosts. */
	hosts: readonly string[];
	/** The token's key expression; resolved only for a request to `origin`, never printed. */
	token?: string;
	/**
	 * Without a token: a login the composition root holds for this very origin (`pi's GitHub login`), whose token
	 * SourceSettings.loginToken gives; never set for a login of another host.
	 */
	login?: string;
}

/** Every source's settings, and how a token expression becomes the token (the composition root supplies it). */
export interface SourceSettings {
	byName: Readonly<Record<string, SourceSetting>>;
	/** Undefined when the token cannot be had (unset variable, failed command): the request goes without one. */
	resolveToken?(expression: string, signal: AbortSignal): Promise<string | undefined>;
	/** The token of the login a setting names (SourceSetting.login); undefined when it is gone. */
	loginToken?(login: string): string | undefined;
}

/** What a reader took from a URL: the parts it reads (owner, repo, number, package name, …). */
export type ReaderTarget = Readonly<Record<string, string>>;

/** One JSON (or text) answer of the source's API. */
export interface ApiAnswer {
	/** The parsed JSON, or the text when asked for text. */
	body: unknown;
	/** Lower-case names. */
	headers: Readonly<Record<string, string>>;
	/** The URL asked. */
	url: string;
}

/** The source's API as a reader sees it: GETs relative to its origin, checked by the guard, through the proxies. */
export interface SourceApi {
	/** The API origin requests go to. */
	origin: string;
	/** GET `path` (relative to the origin, query included) as JSON; a non-2xx answer throws a typed failure. */
	json(path: string, accept?: string): Promise<ApiAnswer>;
	/** GET `path` as text (a README, an Atom feed). */
	text(path: string, accept?: string): Promise<ApiAnswer>;
	/** GET `path` and read it as the fetcher reads a page (HTML → markdown, PDF → text); `body` is that text. */
	page(path: string, accept?: string): Promise<ApiAnswer>;
	/** An HTML fragment the API returned (a post's body) as markdown, read as the fetcher reads a page's content. */
	markdown(html: string): Promise<string>;
	/** Several fragments (a thread's posts) as markdown, in order, in one conversion job: one worker round trip. */
	markdownEach(htmls: readonly string[]): Promise<string[]>;
	/** The same client on the source's second origin (never with the token); undefined when it has none. */
	second?: SourceApi;
}

/** What a reader returns: markdown and the page's facts. */
export interface ReaderOutput {
	title?: string;
	markdown: string;
	author?: string;
	publishedAt?: string;
	/** The API URL of the main document (the result's finalUrl). */
	finalUrl: string;
	warnings?: string[];
}

/** One reader: which page URLs it reads and how. `match` is pure; `read` does I/O only through `api`. */
export interface SourceReader {
	/** Shown by explain and in warnings: `github-issue`. */
	name: string;
	/** The source (`sources.<name>`) whose origin, hosts and token it uses. */
	source: string;
	/** The parts of `url` this reader reads; undefined when it does not serve `url` (its host is checked already). */
	match(url: URL): ReaderTarget | undefined;
	read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput>;
}
