// The sources the fetchers read through an API instead of their HTML, one line each: the config key under `sources`,
// the API origin's option and default, the page hosts read. Pure data: the schema (schema/schema-source.ts), explain
// and the readers (providers/sources/readers.ts) all derive from it.

import type { SourceFacts } from "./contract.ts";

export const SOURCES: readonly SourceFacts[] = [
	{
		name: "markdown",
		summary:
			"Every page's markdown form when it has one: text/markdown asked beside HTML, a declared text/markdown alternate, or the .md twin on a host that publishes /llms.txt (probed once per host beside its first page, kept an hour).",
	},
	{
		name: "github",
		summary:
			"GitHub issues, pull requests, releases and commits through the REST API (GitHub Enterprise: its apiUrl and hosts).",
		origin: {
			option: "apiUrl",
			default: "https://api.github.com",
			description: 'The REST API origin; GitHub Enterprise: "https://<host>/api/v3".',
		},
		hosts: ["github.com", "www.github.com"],
		token:
			'A token (key expression, e.g. "$GITHUB_TOKEN") sent to apiUrl only: raises the rate limit, reads private repositories.',
	},
	{
		name: "npm",
		summary:
			"npm package pages through the registry's package document (a private registry or mirror: its registryUrl).",
		origin: { option: "registryUrl", default: "https://registry.npmjs.org", description: "The registry's origin." },
		hosts: ["www.npmjs.com", "npmjs.com"],
		token: "A token (key expression) sent to registryUrl only, for a private registry.",
	},
	{
		name: "pypi",
		summary: "PyPI project pages through the JSON API (a mirror that serves it: its url).",
		origin: { option: "url", default: "https://pypi.org", description: "The origin serving /pypi/<name>/json." },
		hosts: ["pypi.org", "www.pypi.org"],
	},
	{
		name: "crates",
		summary: "crates.io crate pages through the crates.io API.",
		origin: {
			option: "apiUrl",
			default: "https://crates.io",
			description: "The origin serving /api/v1/crates/<name>.",
		},
		hosts: ["crates.io", "www.crates.io"],
	},
	{
		name: "go",
		summary:
			"pkg.go.dev package pages: the documentation, version, license and repository from pkg.go.dev, the versions with their dates, the module and its latest version from the Go module proxy (a GOPROXY mirror: its proxyUrl).",
		origin: {
			option: "url",
			default: "https://pkg.go.dev",
			description: "The pkgsite origin serving the package pages (pkg.go.dev has no JSON API).",
		},
		second: {
			option: "proxyUrl",
			default: "https://proxy.golang.org",
			description:
				"The Go module proxy (GOPROXY protocol: /<module>/@latest, /@v/list); a mirror in a restricted network.",
		},
		hosts: ["pkg.go.dev"],
	},
	{
		name: "docsrs",
		summary:
			"docs.rs crate documentation: the crate's name, version, license, repository, its crate-level docs and item list from the rustdoc page.",
		origin: { option: "url", default: "https://docs.rs", description: "The docs.rs origin (or a mirror of it)." },
		hosts: ["docs.rs", "www.docs.rs"],
	},
	{
		name: "stackoverflow",
		summary: "Stack Overflow, Super User, Server Fault and Ask Ubuntu questions through the Stack Exchange API.",
		origin: {
			option: "apiUrl",
			default: "https://api.stackexchange.com",
			description: "The Stack Exchange API origin.",
		},
		hosts: ["stackoverflow.com", "www.stackoverflow.com", "superuser.com", "serverfault.com", "askubuntu.com"],
	},
	{
		name: "arxiv",
		summary: "arXiv abstract pages through the arXiv API (metadata) and the paper's PDF, read as text.",
		origin: {
			option: "apiUrl",
			default: "https://export.arxiv.org",
			description: "The origin serving /api/query and /pdf/<id>.",
		},
		hosts: ["arxiv.org", "www.arxiv.org"],
	},
];
