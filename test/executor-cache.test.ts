// Coalescing and the result cache: identical concurrent calls share one execution (cancelled only when all
// callers leave), successful results are cached per TTL in a bounded LRU, and fetch windows reuse one page.

import { describe, expect, it } from "vitest";
import type { WebAccessError } from "../engine/errors.ts";
import type { FetchRequest, SearchRequest } from "../engine/request-types.ts";
import { createLru } from "../executor/cache.ts";
import { callKey } from "../executor/call-key.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { answerAfter, createWorld, failure, fetchPlan, page, results, searchPlan } from "./helpers/fake-providers.ts";

function setup() {
	const clock = createFakeClock();
	const world = createWorld(clock);
	return { clock, world };
}

describe("call key", () => {
	// Complete requests (Required: a field added to the type must be added here), and a change of each field in turn.
	const search: Required<SearchRequest> = {
		kind: "search",
		query: "golang generics",
		domains: ["go.dev"],
		excludeDomains: ["reddit.com"],
		recency: "week",
		maxResults: 5,
		includeContent: false,
		provider: "a",
	};
	const searchChanges: { [K in keyof SearchRequest]-?: SearchRequest[K] } = {
		kind: "search",
		query: "golang generic",
		domains: ["go.dev", "pkg.go.dev"],
		excludeDomains: [],
		recency: "month",
		maxResults: 6,
		includeContent: true,
		provider: "b",
	};
	const fetch: Required<FetchRequest> = {
		kind: "fetch",
		url: "https://example.com/page",
		offset: 0,
		maxChars: 20_000,
		provider: "a",
		format: "markdown",
		links: "references",
	};
	const fetchChanges: Partial<FetchRequest> = {
		url: "https://example.com/other",
		provider: "b",
		format: "text",
		links: "inline",
	};

	it("differs when any field of a search that its answer depends on differs", () => {
		const base = callKey(searchPlan(["a"], {}, search));
		for (const [field, value] of Object.entries(searchChanges)) {
			if (field === "kind") continue;
			expect(callKey(searchPlan(["a"], {}, { ...search, [field]: value })), field).not.toBe(base);
		}
		const { recency: _recency, provider: _provider, ...bare } = search;
		expect(callKey(searchPlan(["a"], {}, bare))).not.toBe(base);
		expect(callKey(searchPlan(["a", "b"], {}, search))).not.toBe(base);
		expect(callKey(searchPlan(["a"], { maxAttempts: 1 }, search))).not.toBe(base);
	});

	it("is the same for the same search written otherwise: white space, site order and repeats", () => {
		const base = callKey(searchPlan(["a"], {}, { ...search, domains: ["a.dev", "b.dev"] }));
		const same = { ...search, query: "  golang \t generics ", domains: ["b.dev", "a.dev", "b.dev"] };
		expect(callKey(searchPlan(["a"], {}, same))).toBe(base);
	});

	it("cannot be matched by text that imitates its separators", () => {
		const one = callKey(searchPlan(["a"], {}, { ...search, domains: ["a.dev", "b.dev"] }));
		const other = callKey(searchPlan(["a"], {}, { ...search, domains: ["a.dev3:b.dev"] }));
		expect(other).not.toBe(one);
		expect(callKey(searchPlan(["a"], {}, { ...search, query: "x1:y" }))).not.toBe(
			callKey(searchPlan(["a"], {}, { ...search, query: "x", provider: "y" })),
		);
	});

	it("differs when any field of a fetch but its window differs; the window is passed apart", () => {
		const plan = fetchPlan(["a"]);
		const at = (request: Partial<FetchRequest>) => callKey({ ...plan, request: { ...fetch, ...request } });
		const base = at({});
		for (const [field, value] of Object.entries(fetchChanges)) expect(at({ [field]: value }), field).not.toBe(base);
		expect(at({ offset: 5000, maxChars: 1000 })).toBe(base);
		expect(at({ url: " https://example.com/page " })).toBe(base);
		expect(callKey({ ...plan, request: fetch }, "0:1000")).not.toBe(base);
	});
});

describe("coalescing", () => {
	it("runs N identical concurrent searches as one provider call", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 1000, results(2)));
		const executor = world.executor();
		const plans = ["golang generics", "  golang   generics ", "golang\tgenerics\n"].flatMap((query) =>
			[0, 1, 2].map(() => searchPlan(["a"], {}, { query })),
		);
		const all = await clock.run(Promise.all(plans.map((plan) => executor.search(plan))));
		expect(world.calls).toHaveLength(1);
		expect(all.map((r) => r.results.length)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2]);
		expect(all[0]).not.toBe(all[1]);
		expect(all[0]?.results).not.toBe(all[1]?.results);
	});

	it("does not share calls with a different request or chain", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 1000, results(2)));
		world.add("b", (_r, call) => answerAfter(clock, call, 1000, results(2)));
		const executor = world.executor();
		await clock.run(
			Promise.all([
				executor.search(searchPlan(["a"], {}, { query: "one" })),
				executor.search(searchPlan(["a"], {}, { query: "two" })),
				executor.search(searchPlan(["a", "b"], {}, { query: "one" })),
				executor.search(searchPlan(["a"], {}, { query: "one", maxResults: 9 })),
			]),
		);
		expect(world.calls).toHaveLength(4);
	});

	it("keeps running for the remaining callers when one of them cancels, and stops when all have", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, call) => answerAfter(clock, call, 1000, results(1)));
		const executor = world.executor();
		const first = new AbortController();
		const second = new AbortController();
		const a = executor.search(searchPlan(["a"], {}, { query: "q" }), { signal: first.signal });
		const b = executor.search(searchPlan(["a"], {}, { query: "q" }), { signal: second.signal });
		const aOutcome = a.catch((e: unknown) => e);
		await clock.advance(100);
		first.abort();
		expect(((await aOutcome) as WebAccessError).kind).toBe("cancelled");
		expect(world.calls[0]?.signal.aborted).toBe(false);
		expect((await clock.run(b)).results).toHaveLength(1);

		const third = new AbortController();
		const fourth = new AbortController();
		const c = executor
			.search(searchPlan(["a"], {}, { query: "other" }), { signal: third.signal })
			.catch((e: unknown) => e);
		const d = executor
			.search(searchPlan(["a"], {}, { query: "other" }), { signal: fourth.signal })
			.catch((e: unknown) => e);
		await clock.advance(100);
		third.abort();
		fourth.abort();
		const [cError, dError] = (await Promise.all([c, d])) as WebAccessError[];
		expect(world.calls[1]?.signal.aborted).toBe(true);
		expect(cError?.kind).toBe("cancelled");
		// The last caller to leave gets the execution's own cancellation, with its attempts.
		expect(dError?.attempts).toEqual([
			{ provider: "a", outcome: "error", reason: "cancelled: by the caller", latencyMs: 100 },
		]);
	});

	it("sends progress lines to every caller sharing the execution", async () => {
		const { clock, world } = setup();
		world.add("a", () => {
			throw failure("server");
		});
		world.add("b", (_r, call) => answerAfter(clock, call, 10, results(1)));
		const executor = world.executor();
		const one: string[] = [];
		const two: string[] = [];
		await clock.run(
			Promise.all([
				executor.search(searchPlan(["a", "b"]), { onProgress: (l) => one.push(l) }),
				executor.search(searchPlan(["a", "b"]), { onProgress: (l) => two.push(l) }),
			]),
		);
		expect(one).toEqual(["a failed (server); trying b"]);
		expect(two).toEqual(one);
	});
});

describe("cache", () => {
	it("serves a repeated search from the cache for 5 minutes, marked cached", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(2));
		const executor = world.executor();
		const plan = searchPlan(["a"]);
		const first = await clock.run(executor.search(plan));
		expect(first.cached).toBeUndefined();
		await clock.advance(5 * 60_000 - 1);
		const second = await clock.run(executor.search(plan));
		expect(second.cached).toBe(true);
		expect(second.results).toEqual(first.results);
		expect(world.calls).toHaveLength(1);
		await clock.advance(1);
		expect((await clock.run(executor.search(plan))).cached).toBeUndefined();
		expect(world.calls).toHaveLength(2);
	});

	it("keeps what it serves apart from what callers do to their results", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(2));
		const executor = world.executor();
		const plan = searchPlan(["a"]);
		const first = await clock.run(executor.search(plan));
		const title = first.results[0]?.title;
		first.results[0]!.title = "changed by the first caller";
		first.results.pop();
		first.warnings.push("added by the first caller");
		const second = await clock.run(executor.search(plan));
		expect(second.cached).toBe(true);
		expect(second.results.map((r) => r.title)[0]).toBe(title);
		expect(second.results).toHaveLength(2);
		expect(second.warnings).not.toContain("added by the first caller");
		second.results[0]!.title = "changed by the second caller";
		const third = await clock.run(executor.search(plan));
		expect(third.results[0]?.title).toBe(title);
		expect(world.calls).toHaveLength(1);
	});

	it("keeps fetches for 15 minutes and follows cacheTtlMs, 0 disabling the cache", async () => {
		const { clock, world } = setup();
		world.add("a", (request) => (request.kind === "fetch" ? page("text") : results(1)));
		const executor = world.executor();
		await clock.run(executor.fetch(fetchPlan(["a"])));
		await clock.advance(15 * 60_000 - 1);
		expect((await clock.run(executor.fetch(fetchPlan(["a"])))).cached).toBe(true);
		expect(world.calls).toHaveLength(1);

		await clock.run(executor.search(searchPlan(["a"], { cacheTtlMs: 0 })));
		await clock.run(executor.search(searchPlan(["a"], { cacheTtlMs: 0 })));
		expect(world.calls).toHaveLength(3);

		await clock.run(executor.search(searchPlan(["a"], { cacheTtlMs: 1000 }, { query: "ttl" })));
		await clock.advance(1000);
		await clock.run(executor.search(searchPlan(["a"], { cacheTtlMs: 1000 }, { query: "ttl" })));
		expect(world.calls).toHaveLength(5);
	});

	it("caches neither failures nor empty answers", async () => {
		const { clock, world } = setup();
		world.add("a", (_r, _c, n) => {
			if (n === 0) throw failure("server");
			return results(0);
		});
		const executor = world.executor();
		const plan = searchPlan(["a"], { cooldown: false });
		await clock.run(executor.search(plan)).catch(() => {});
		await clock.run(executor.search(plan));
		await clock.run(executor.search(plan));
		expect(world.calls).toHaveLength(3);
	});

	it("pages through a fetched text from one provider call", async () => {
		const { clock, world } = setup();
		const text = "x".repeat(2500);
		world.add("a", () => page(text));
		const executor = world.executor();
		const first = await clock.run(executor.fetch(fetchPlan(["a"], {}, { offset: 0, maxChars: 1000 })));
		const second = await clock.run(executor.fetch(fetchPlan(["a"], {}, { offset: 2000, maxChars: 1000 })));
		expect(world.calls).toHaveLength(1);
		expect([first.content.length, first.nextOffset, first.truncated]).toEqual([1000, 1000, true]);
		expect([second.content.length, second.nextOffset, second.truncated, second.cached]).toEqual([
			500,
			undefined,
			false,
			true,
		]);
	});

	it("does not reuse a provider-paged window for another offset", async () => {
		const { clock, world } = setup();
		world.add("a", (request) => {
			const offset = request.kind === "fetch" ? request.offset : 0;
			return {
				content: `window at ${offset}`,
				extraction: "verbatim",
				window: { truncated: true, nextOffset: offset + 1000 },
			};
		});
		const executor = world.executor();
		await clock.run(executor.fetch(fetchPlan(["a"], {}, { offset: 0, maxChars: 1000 })));
		const other = await clock.run(executor.fetch(fetchPlan(["a"], {}, { offset: 1000, maxChars: 1000 })));
		const again = await clock.run(executor.fetch(fetchPlan(["a"], {}, { offset: 1000, maxChars: 1000 })));
		expect(world.calls).toHaveLength(2);
		expect(other.content).toBe("window at 1000");
		expect([again.content, again.cached]).toEqual(["window at 1000", true]);
	});

	it("evicts the least recently used entry beyond its bound", () => {
		let now = 0;
		const lru = createLru<number>(2, () => now);
		lru.set("a", 1, 1000);
		lru.set("b", 2, 1000);
		expect(lru.get("a")).toBe(1);
		lru.set("c", 3, 1000);
		expect([lru.get("a"), lru.get("b"), lru.get("c"), lru.size]).toEqual([1, undefined, 3, 2]);
		now = 1000;
		expect(lru.get("a")).toBeUndefined();
	});

	it("bounds the executor's cache by cacheEntries", async () => {
		const { clock, world } = setup();
		world.add("a", () => results(1));
		const executor = world.executor({ cacheEntries: 2 });
		for (const query of ["one", "two", "three", "one"])
			await clock.run(executor.search(searchPlan(["a"], {}, { query })));
		expect(world.calls).toHaveLength(4);
	});
});
