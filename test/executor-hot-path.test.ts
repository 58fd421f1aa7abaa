// The work one search call costs on the executor's hot path, counted (not timed) through the real executor, exa's
// provider and undici against a loopback Exa stand-in: the per-call work that 64 calls in flight turn into queueing
// (bench/overhead.ts measures the time). Each count guards a cut that a call no longer pays.

import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type Backend, startBackend } from "../bench/backend.ts";
import { exaSearch } from "../bench/overhead.ts";
import type { SearchResult } from "../engine/result-types.ts";
import { runBytesChild } from "./helpers/gc-watch.ts";

/** Calls counted per test, after the warm-up calls that set up the connection and the per-process caches. */
const CALLS = 20;
/** The exa key the calls carry; none of the stand-in's answers holds any of it. */
const SECRET = "hot-path-test-key-0451";

let backend: Backend;
let search: (i: number) => Promise<SearchResult>;

/**
 * Bytes a search call allocates through the executor above raw undici + JSON.parse, both at 64 in flight: what the
 * young generation fills with, so how often a collection pauses every call in flight (bench/overhead.ts's p99). About
 * 4,600 are measured (test/helpers/hot-path-bytes-child.ts: 4,393-4,801 in three runs, where the code before the last
 * cuts measured 7,516-8,218); the cap leaves room for the compiler's whims only.
 */
const ADDED_BYTES_PER_CALL = 5_300;

/** `calls` searches one after another; the answers without results (none expected) are counted, not asserted. */
async function searches(calls: number, from = 0): Promise<number> {
	let empty = 0;
	for (let i = from; i < from + calls; i++) {
		const result = await search(i);
		if (result.results.length === 0) empty++;
	}
	return empty;
}

/** Counts the calls of `method` on `owner` (those whose arguments `where` picks) while `run` runs; it still runs. */
async function counting<O extends object>(
	owner: O,
	method: keyof O & string,
	run: () => Promise<number>,
	where: (args: unknown[]) => boolean = () => true,
) {
	const spy = vi.spyOn(owner, method as never);
	const empty = await run();
	const calls = (spy.mock.calls as unknown[][]).filter(where).length;
	spy.mockRestore();
	expect(empty).toBe(0);
	return calls;
}

/** How many objects of the global class `name` `run` makes: the global is a counting subclass meanwhile. */
async function made(name: "URL" | "AbortController", run: () => Promise<number>): Promise<number> {
	const globals = globalThis as unknown as Record<string, new (...args: never[]) => object>;
	const Real = globals[name]!;
	let count = 0;
	globals[name] = class extends Real {
		constructor(...args: never[]) {
			super(...args);
			count++;
		}
	};
	try {
		expect(await run()).toBe(0);
	} finally {
		globals[name] = Real;
	}
	return count;
}

beforeAll(async () => {
	backend = await startBackend();
	search = await exaSearch(backend.url, SECRET);
	await searches(5, 1_000);
});

afterAll(async () => {
	await backend.close();
});

describe("executor hot path: work per search call", () => {
	it("formats no calendar day once the day is known (the spend book and the state store keep its bounds)", async () => {
		expect(await counting(Date.prototype, "toISOString", () => searches(CALLS))).toBe(0);
	});

	it("keeps the request a response answers (for masking its credentials in messages) without a WeakMap entry", async () => {
		expect(await counting(WeakMap.prototype, "set", () => searches(CALLS))).toBe(0);
	});

	it("serialises only the request body to JSON: the call key is built without JSON.stringify", async () => {
		expect(await counting(JSON, "stringify", () => searches(CALLS))).toBe(CALLS);
	});

	it("keeps its calls in flight for coalescing without a Map entry keyed by the call", async () => {
		const keyedByCall = ([key]: unknown[]) =>
			typeof key === "string" && key.includes("incremental static regeneration");
		expect(await counting(Map.prototype, "set", () => searches(CALLS), keyedByCall)).toBe(0);
	});

	it("masks a key's cut-off start only in a text that ends with its last character or holds a cut", async () => {
		const keyStart = ([start]: unknown[]) => typeof start === "string" && start.length >= 4 && SECRET.startsWith(start);
		expect(await counting(String.prototype, "endsWith", () => searches(CALLS), keyStart)).toBe(0);
	});

	it("joins exa's highlights without a filtered copy of each result's list", async () => {
		// Fewer than one a call (the test runner may filter a list of its own meanwhile): a list per result with
		// highlights made three a call of the stand-in's answer.
		expect(await counting(Array.prototype, "filter", () => searches(CALLS))).toBeLessThan(CALLS);
	});

	it("makes no AbortController for an attempt whose provider's requests listen to the attempt itself", async () => {
		expect(await made("AbortController", () => searches(CALLS))).toBe(0);
	});

	it("parses the backend's URL once, not once per request", async () => {
		expect(await made("URL", () => searches(CALLS))).toBe(0);
	});

	it(`allocates at most ${ADDED_BYTES_PER_CALL} bytes a call more than raw undici + JSON.parse`, async () => {
		const child = join(import.meta.dirname, "helpers", "hot-path-bytes-child.ts");
		const bytes = await runBytesChild<{ executor: number; raw: number }>(child, [backend.url]);
		expect(bytes.executor - bytes.raw).toBeLessThanOrEqual(ADDED_BYTES_PER_CALL);
	}, 150_000);
});
