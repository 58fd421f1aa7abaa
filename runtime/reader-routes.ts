// What explain shows on a fetch step that reads sources: the reader the URL goes to under the config's `sources`
// ("github-issue reader via api.github.com (credential: pi's GitHub login), fallback: page"), from the same routing
// and settings the fetcher uses.

import type { ReaderRouteOf } from "../engine/explain.ts";
import type { Plan } from "../engine/request-types.ts";
import { routeNote, routeSource, SOURCE_READING_TYPES } from "../providers/sources/route.ts";
import { githubCredential } from "./github-login.ts";
import type { Setup } from "./setup.ts";
import { setupSources } from "./source-status.ts";

export function readerRoutes(setup: Setup, plan: Plan): ReaderRouteOf | undefined {
	const request = plan.request;
	if (request.kind !== "fetch" || (request.format !== undefined && request.format !== "markdown")) return undefined;
	const settings = setupSources(setup);
	const route = routeSource(request.url, settings);
	if (!route) return undefined;
	const note = routeNote(route);
	if (route.setting.name === "github") note.credential = githubCredential(settings, setup.deps.keys);
	return (step) => (SOURCE_READING_TYPES.has(step.type) ? note : undefined);
}
