// The sources the fetchers read through an API instead of their HTML, one line each: the config key under `sources`,
// the API origin's option and default, the page hosts read. Pure data: the schema (schema/schema-source.ts), explain
// and the readers (providers/sources/index.ts) all derive from it.

import type { SourceFacts } from "./contract.ts";

export const SOURCES: readonly SourceFacts[] = [
	{
		name: "github",
		summary: "GitHub issues and pull requests through the REST API (GitHub Enterprise: its apiUrl and hosts).",
		origin: {
			option: "apiUrl",
			default: "https://api.github.com",
			description: 'The REST API origin; GitHub Enterprise: "https://<host>/api/v3".',
		},
		hosts: ["github.com", "www.github.com"],
		token:
			'A token (key expression, e.g. "$GITHUB_TOKEN") sent to apiUrl only: raises the rate limit, reads private repositories.',
	},
];

export function sourceFacts(name: string): SourceFacts | undefined {
	return SOURCES.find((source) => source.name === name);
}
