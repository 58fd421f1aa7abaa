// The `sources` key's schema, one object per source of providers/sources/source-list.ts: its switch, its API origin
// option (named as the source's facts say), its page hosts and, where it takes one, its token.

import type { JsonSchema } from "../providers/contract.ts";
import { SOURCES } from "../providers/sources/source-list.ts";

const HOST = { type: "string", pattern: "^[A-Za-z0-9.-]+(:[0-9]{1,5})?$", description: "A host name (port allowed)." };

export function sourcesSchema(): JsonSchema {
	const properties: Record<string, JsonSchema> = {};
	for (const source of SOURCES) {
		const own: Record<string, JsonSchema> = {
			enabled: {
				type: "boolean",
				default: true,
				description: source.origin ? "false: read these pages as pages, not through the API." : "false: switch it off.",
			},
		};
		for (const origin of [source.origin, source.second]) {
			if (!origin) continue;
			own[origin.option] = {
				type: "string",
				pattern: "^https?://[^\\s/?#]+(/[^\\s?#]*)?$",
				default: origin.default,
				description: origin.description,
			};
		}
		if (source.origin) {
			own.hosts = {
				type: "array",
				items: HOST,
				default: [...(source.hosts ?? [])],
				description: "Page hosts whose URLs this source reads (a mirror's or an enterprise host's).",
			};
		}
		if (source.token !== undefined) own.token = { $ref: "#/$defs/keyExpression", description: source.token };
		properties[source.name] = {
			type: "object",
			additionalProperties: false,
			description: source.summary,
			properties: own,
		};
	}
	return {
		type: "object",
		additionalProperties: false,
		description:
			"Source readers: pages read through an API instead of their HTML (the direct fetcher; on a failure the page is read). Each source's origin, hosts and token; enabled: false switches one off.",
		examples: [
			{ github: { token: "$GITHUB_TOKEN" } },
			{ github: { apiUrl: "https://ghe.corp/api/v3", hosts: ["ghe.corp"] } },
		],
		properties,
	};
}
