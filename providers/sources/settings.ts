// The `sources` config applied to the source list: each source's origin, page hosts, token expression and switch,
// with the public services as defaults. Pure: no token is resolved here (SourceSettings.resolveToken does that).

import type { SourceConfig } from "../../engine/config-types.ts";
import type { SourceSetting, SourceSettings } from "./contract.ts";
import { SOURCES } from "./source-list.ts";

/** Settings of every source from the config's `sources` (absent: all on, public origins). */
export function sourceSettings(
	config: Readonly<Record<string, SourceConfig>> | undefined,
	resolveToken?: SourceSettings["resolveToken"],
): SourceSettings {
	const byName: Record<string, SourceSetting> = {};
	for (const facts of SOURCES) {
		const own = config?.[facts.name] ?? {};
		const origin = facts.origin ? (own[facts.origin.option] ?? facts.origin.default).replace(/\/+$/, "") : "";
		const hosts = facts.origin ? (own.hosts ?? facts.hosts ?? []).map((host) => host.toLowerCase()) : [];
		const setting: SourceSetting = { name: facts.name, enabled: own.enabled !== false, origin, hosts };
		if (facts.second) setting.second = (own[facts.second.option] ?? facts.second.default).replace(/\/+$/, "");
		if (facts.token !== undefined && own.token) setting.token = own.token;
		byName[facts.name] = setting;
	}
	return resolveToken ? { byName, resolveToken } : { byName };
}

/** The defaults: what a fetcher uses when it is handed no settings. */
export const DEFAULT_SOURCES: SourceSettings = sourceSettings(undefined);
