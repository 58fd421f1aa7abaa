// Escalation steps (the browser after direct): a step with `onlyAfter` runs when an earlier step of the call failed
// with one of its codes, or when nothing ran before it; otherwise it is skipped and says what it waits for. The plan
// marks such steps from the type's facts, and explain shows the condition.

import { describe, expect, it } from "vitest";
import { WebAccessError } from "../engine/errors.ts";
import { explain, planToJson } from "../engine/explain.ts";
import { plan } from "../engine/plan.ts";
import { fetchRequest } from "../engine/requests.ts";
import { compile } from "../engine/route.ts";
import { KeyResolver } from "../runtime/key-expressions.ts";
import { createPlanContext } from "../runtime/plan-context.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { createWorld, fetchPlan, page } from "./helpers/fake-providers.ts";

const JS = { codes: ["needs-javascript"], when: "an earlier step finds a page that needs JavaScript" };

function escalated(names: string[]) {
	const base = fetchPlan(names);
	return {
		...base,
		steps: base.steps.map((step, i) => (i > 0 && step.provider === "render" ? { ...step, onlyAfter: JS } : step)),
	};
}

const needsJs = () =>
	new WebAccessError("page is empty without JavaScript (x.test)", { kind: "bad-request", code: "needs-javascript" });

describe("escalation steps", () => {
	it("runs the browser step after direct fails with needs-javascript", async () => {
		const clock = createFakeClock();
		const world = createWorld(clock);
		world.add("direct", () => Promise.reject(needsJs()), { fetch: true });
		world.add("render", () => page("rendered text"), { fetch: true });
		const result = await clock.run(world.executor().fetch(escalated(["direct", "render"])));
		expect(result.provider).toBe("render");
		expect(world.callsOf("render")).toHaveLength(1);
	});

	it("skips it, saying what it waits for, when direct fails another way or another step answers", async () => {
		const clock = createFakeClock();
		const world = createWorld(clock);
		const notFound = new WebAccessError("HTTP 404 from x.test", { kind: "bad-request", code: "http-404" });
		world.add("direct", () => Promise.reject(notFound), { fetch: true });
		world.add("render", () => page("rendered text"), { fetch: true });
		world.add("last", () => page("last text"), { fetch: true });
		const result = await clock.run(world.executor().fetch(escalated(["direct", "render", "last"])));
		expect(world.callsOf("render")).toHaveLength(0);
		expect(result.provider).toBe("last");
		expect(result.attempts[1]).toEqual({
			provider: "render",
			outcome: "skipped",
			reason: "only when an earlier step finds a page that needs JavaScript",
		});
	});

	it("runs it when the steps before it were all skipped (nothing ran to fail)", async () => {
		const clock = createFakeClock();
		const world = createWorld(clock);
		world.add("render", () => page("rendered text"), { fetch: true });
		const result = await clock.run(world.executor().fetch(escalated(["-direct:no credentials", "render"])));
		expect(result.provider).toBe("render");
	});

	it("is marked by plan() from the type's facts, not on a chain's first step, and shown by explain", () => {
		const table = compile({
			providers: [
				{ name: "direct", type: "direct", options: {} },
				{ name: "browser", type: "browser", options: { executablePath: process.execPath } },
			],
			fetch: ["direct", "browser"],
			rules: [{ name: "spa", index: 0, sites: ["app.example.com"], fetch: ["browser"] }],
			policy: {},
		});
		const env = { PI_WEB_ACCESS_BROWSER: "none" };
		const context = createPlanContext({ env, keys: new KeyResolver({ env }) });
		const chained = plan(table, fetchRequest({ url: "https://docs.example.org/a" }), context);
		expect(chained.steps.map((s) => [s.provider, s.status, s.onlyAfter?.codes])).toEqual([
			["direct", "ready", undefined],
			["browser", "ready", ["needs-javascript"]],
		]);
		expect(explain(chained)).toContain(
			"2. browser (browser) ready · only when an earlier step finds a page that needs JavaScript",
		);
		expect(planToJson(chained).steps[1]).toMatchObject({ onlyWhen: JS.when });
		const first = plan(table, fetchRequest({ url: "https://app.example.com/dash" }), context);
		expect(first.steps).toMatchObject([{ provider: "browser", type: "browser", status: "ready" }]);
		expect(first.steps[0]?.onlyAfter).toBeUndefined();
	});
});
