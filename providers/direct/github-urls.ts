// GitHub pages whose HTML is the wrong thing for a coder: a file view (`blob/`) becomes the raw file, a repository
// root its README.md on the default branch (`HEAD`), a gist its raw text. The rewrite happens before the fetch, so
// the private-network guard checks the host actually fetched. The raw origins are injectable for tests.

import { httpUrl } from "../sources/route.ts";

export interface GithubOrigins {
	/** Where raw repository files live. */
	raw: string;
	/** Where raw gists live. */
	gistRaw: string;
}

export const GITHUB_ORIGINS: GithubOrigins = {
	raw: "https://raw.githubusercontent.com",
	gistRaw: "https://gist.githubusercontent.com",
};

export interface RawRewrite {
	url: string;
	/** What the original URL showed. */
	kind: "file" | "readme" | "gist";
	/** A README guess may miss (README.rst, no README): then the original page is fetched instead. */
	fallback: boolean;
}

/** First path segments of github.com that are site pages, not repository owners. */
const NOT_OWNERS = new Set(
	(
		"about apps blog collections contact customer-stories enterprise events explore features login logout " +
		"marketplace new notifications orgs organizations pricing pulls issues readme search security settings " +
		"site sponsors team topics trending users codespaces copilot dashboard"
	).split(" "),
);

const SEGMENT = /^[A-Za-z0-9._-]+$/;

/** The raw URL to fetch instead of `url`, or undefined when `url` is no GitHub file, repository root or gist. */
export function githubRawUrl(url: string, origins: GithubOrigins = GITHUB_ORIGINS): RawRewrite | undefined {
	const parsed = httpUrl(url);
	if (!parsed) return undefined;
	if (parsed.port !== "") return undefined;
	const host = parsed.hostname.toLowerCase();
	const segments = parsed.pathname.split("/").filter((segment) => segment !== "");
	if (host === "gist.github.com") return gist(segments, origins);
	if (host !== "github.com" && host !== "www.github.com") return undefined;
	const [owner, repo, view, ...rest] = segments;
	if (!owner || !repo || NOT_OWNERS.has(owner.toLowerCase())) return undefined;
	if (!SEGMENT.test(owner) || !SEGMENT.test(repo)) return undefined;
	const name = repo.replace(/\.git$/i, "");
	if (view === undefined) {
		// A query (?tab=…, ?search=…) asks for some other view of the repository page.
		if (parsed.search !== "") return undefined;
		return { url: `${origins.raw}/${owner}/${name}/HEAD/README.md`, kind: "readme", fallback: true };
	}
	if (view === "blob" && rest.length >= 2) {
		// blob/<ref>/<path> → <ref>/<path>: raw URLs take the same ref/path split (a ref with "/" resolves the
		// same way on both). The path stays as the URL encoded it; the query (?plain=1) and fragment (#L10) go.
		return { url: `${origins.raw}/${owner}/${name}/${rest.join("/")}`, kind: "file", fallback: false };
	}
	return undefined;
}

function gist(segments: string[], origins: GithubOrigins): RawRewrite | undefined {
	const [user, id, extra] = segments;
	if (!user || !id || extra !== undefined) return undefined;
	if (!SEGMENT.test(user) || !/^[0-9a-f]{6,}$/i.test(id)) return undefined;
	return { url: `${origins.gistRaw}/${user}/${id}/raw`, kind: "gist", fallback: false };
}
