// plan() parses a request's site filters once (Plan.sites); the executor must hand that same parse to every attempt
// of the walk and filter the answers by it, so no provider or executor step parses the request's strings again.

import { describe, expect, it } from "vitest";
import type { Config } from "../engine/config-types.ts";
import { plan } from "../engine/plan.ts";
import { compile } from "../engine/route.ts";
import type { RequestSites } from "../engine/sites.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { createWorld, failure } from "./helpers/fake-providers.ts";
import { testContext } from "./helpers/plan-context.ts";

const CONFIG: Config = {
	providers: [
		{ name: "a", type: "a", options: {} },
		{ name: "b", type: "b", options: {} },
	],
	search: ["a", "b"],
	rules: [],
	policy: {},
};

describe("executor: the plan's parsed sites reach every attempt", () => {
	it("gives each attempt plan.sites itself and keeps only results inside it", async () => {
		const clock = createFakeClock();
		const world = createWorld(clock);
		const seen: Array<RequestSites | undefined> = [];
		world.add("a", (_request, call) => {
			seen.push(call.sites);
			throw failure("server", { message: "down" });
		});
		world.add("b", (_request, call) => {
			seen.push(call.sites);
			return {
				results: [
					{ title: "in", url: "https://docs.example.org/guide", snippet: "kept" },
					{ title: "sub", url: "https://api.docs.example.org/ref", snippet: "kept too" },
					{ title: "out", url: "https://elsewhere.example/page", snippet: "dropped" },
					{ title: "excluded", url: "https://spam.docs.example.org/x", snippet: "dropped" },
				],
			};
		});
		const request = {
			kind: "search" as const,
			query: "release notes",
			domains: ["Docs.EXAMPLE.org."],
			excludeDomains: ["spam.docs.example.org"],
			maxResults: 5,
			includeContent: false,
		};
		const planned = plan(compile(CONFIG), request, testContext());
		expect(planned.sites?.domains).toHaveLength(1);
		const result = await clock.run(world.executor().search(planned));
		expect(seen).toHaveLength(2);
		for (const sites of seen) expect(sites).toBe(planned.sites);
		expect(result.provider).toBe("b");
		expect(result.results.map((r) => r.title)).toEqual(["in", "sub"]);
	});
});
