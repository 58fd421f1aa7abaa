// Each shared fact has one definition that every user agrees with: recency windows (engine/recency.ts), the
// error-class list (engine/errors.ts), request limits (engine/requests.ts) and the default step timeout.

import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { parseCli, UsageError } from "../cli/args.ts";
import { ERROR_CLASSES } from "../engine/error-classes.ts";
import { DAY_MS, NAMED_RECENCIES, RECENCY_DAYS, recencyBounds, recencyWindow } from "../engine/recency.ts";
import { REQUEST_LIMITS, searchRequest } from "../engine/requests.ts";
import { WALK_DEFAULTS } from "../executor/chain.ts";
import { stepTimeoutMs } from "../executor/index.ts";
import { processSearch } from "../executor/results.ts";
import { fetchParameters, searchParameters } from "../extension/schemas.ts";
import { noNativeFilters } from "../providers/params/filters.ts";
import { recencyDays } from "../providers/sub2api-search/provider.ts";
import schema from "../schema/pi-web-access.schema.json" with { type: "json" };

const NOW = new Date("2026-03-31T12:00:00.000Z");

describe("recency windows", () => {
	it("are 1, 7, 30 and 365 days back", () => {
		expect(RECENCY_DAYS).toEqual({ day: 1, week: 7, month: 30, year: 365 });
	});

	it.each(NAMED_RECENCIES)("%s starts on the same day for every provider and for the executor's filter", (named) => {
		const from = new Date(NOW.getTime() - RECENCY_DAYS[named] * DAY_MS).toISOString().slice(0, 10);
		expect(recencyWindow(named, NOW).from, "recencyWindow (exa, tavily, deepseek, brave)").toBe(from);
		expect(recencyBounds(named, NOW.getTime()).from, "recencyBounds (xai x_search, doubao, executor)").toBe(from);
		expect(recencyDays(named, NOW), "sub2api-search").toBe(RECENCY_DAYS[named]);
		// The executor keeps a result dated on the first day and drops one from the day before.
		const dayBefore = new Date(Date.parse(from) - DAY_MS).toISOString().slice(0, 10);
		const raw = {
			results: [
				{ title: "in", url: "https://a.example/in", snippet: "", publishedAt: from },
				{ title: "out", url: "https://a.example/out", snippet: "", publishedAt: dayBefore },
			],
		};
		const request = searchRequest({ query: "q", recency: named });
		const kept = processSearch(raw, request, noNativeFilters(20), NOW.getTime()).results.map((r) => r.title);
		expect(kept, "executor/results.ts").toEqual(["in"]);
	});
});

describe("the error-class list", () => {
	it("is the one the config schema offers for fallbackOn", () => {
		const text = JSON.stringify(schema);
		const enums = [...text.matchAll(/"enum":\[("transport"[^\]]*)\]/g)].map((m) => JSON.parse(`[${m[1]}]`));
		expect(enums.length).toBeGreaterThan(0);
		for (const list of enums) expect(list).toEqual([...ERROR_CLASSES]);
	});
});

describe("request limits", () => {
	it("are what the tool schemas and the CLI accept", () => {
		const search = (maxResults: number) => Value.Check(searchParameters, { query: "q", maxResults });
		expect(search(REQUEST_LIMITS.maxResultsMax)).toBe(true);
		expect(search(REQUEST_LIMITS.maxResultsMax + 1)).toBe(false);
		const fetch = (maxChars: number) => Value.Check(fetchParameters, { url: "https://a.example/", maxChars });
		expect(fetch(REQUEST_LIMITS.maxCharsMin)).toBe(true);
		expect(fetch(REQUEST_LIMITS.maxCharsMin - 1)).toBe(false);
		expect(fetch(REQUEST_LIMITS.maxCharsMax)).toBe(true);
		expect(fetch(REQUEST_LIMITS.maxCharsMax + 1)).toBe(false);
		expect(parseCli(["search", "q", "--max-results", String(REQUEST_LIMITS.maxResultsMax)]).maxResults).toBe(20);
		expect(() => parseCli(["search", "q", "--max-results", String(REQUEST_LIMITS.maxResultsMax + 1)])).toThrow(
			UsageError,
		);
		expect(() => parseCli(["fetch", "u", "--max-chars", String(REQUEST_LIMITS.maxCharsMax + 1)])).toThrow(UsageError);
	});
});

describe("the default step timeout", () => {
	it("is one value for the executor and for key resolution", () => {
		const definition = { defaults: {} } as Parameters<typeof stepTimeoutMs>[0]["definition"];
		expect(stepTimeoutMs({ config: { name: "a", type: "a", options: {} }, definition })).toBe(WALK_DEFAULTS.timeoutMs);
	});
});
