// What explain shows on a fetch step that reads sources: the reader the URL goes to under the config's `sources`
// ("github-issue reader via api.github.com, fallback: page"), from the same routing the fetcher uses.

import type { ReaderRouteOf } from "../engine/explain.ts";
import type { Plan } from "../engine/request-types.ts";
import { routeNote, routeSource, SOURCE_READING_TYPES } from "../providers/sources/route.ts";
import { sourceSettings } from "../providers/sources/settings.ts";
import type { Setup } from "./setup.ts";

export function readerRoutes(setup: Setup, plan: Plan): ReaderRouteOf | undefined {
	const request = plan.request;
	if (request.kind !== "fetch" || (request.format !== undefined && request.format !== "markdown")) return undefined;
	const route = routeSource(request.url, sourceSettings(setup.table.config.sources));
	if (!route) return undefined;
	const note = routeNote(route);
	return (step) => (SOURCE_READING_TYPES.has(step.type) ? note : undefined);
}
