// The state file: cooldowns and unusable keys survive a restart (a new executor loads them), the file is written
// atomically and holds fingerprints only — the test greps it for every key.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createStateFile, parseState, stateFilePath } from "../executor/persist.ts";
import { createFakeClock } from "./helpers/fake-clock.ts";
import { createWorld, failure, keys, results, searchPlan } from "./helpers/fake-providers.ts";

const dirs: string[] = [];
afterEach(() => {
	for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
	const dir = mkdtempSync(join(tmpdir(), "pi-web-access-state-"));
	dirs.push(dir);
	return dir;
}

describe("state file", () => {
	it("round-trips cooldowns and key states into a new executor, and never contains a key", async () => {
		const dir = tempDir();
		const path = stateFilePath(dir);
		expect(path).toBe(join(dir, "pi-web-access.state.json"));
		const clock = createFakeClock();
		const world = createWorld(clock);
		const pool = keys("key1", "key2", "key3");
		world.add(
			"a",
			(_r, call) => {
				if (call.key?.label === "key1") throw failure("quota", { keyVerdict: "exhausted" });
				if (call.key?.label === "key2")
					throw failure("rate-limit", { keyVerdict: "rate-limited", retryAfterMs: 120_000 });
				throw failure("server", { message: `server error for ${call.key?.secret}` });
			},
			{ keys: pool },
		);
		world.add("b", () => results(1));
		const state = createStateFile(path, clock.now);
		const first = world.executor({ state });
		await clock.run(first.search(searchPlan(["a", "b"], { cacheTtlMs: 0 })));
		first.flush(); // as the end of a process does (the spend of b's answer is not written per call)

		const text = readFileSync(path, "utf8");
		for (const key of pool) expect(text).not.toContain(key.secret);
		expect(readdirSync(dir)).toEqual(["pi-web-access.state.json"]);
		const saved = JSON.parse(text);
		expect(saved.cooldowns).toMatchObject([{ provider: "a", failures: 1 }]);
		expect(saved.keys.map((k: { label: string; state: string }) => [k.label, k.state])).toEqual([
			["key1", "exhausted"],
			["key2", "rate-limited"],
		]);

		// A restart: a new executor over the same file puts the cooling provider last again.
		const world2 = createWorld(clock);
		world2.add("a", () => results(1), { keys: pool });
		world2.add("b", () => results(1));
		const second = world2.executor({ state: createStateFile(path, clock.now) });
		expect(second.snapshot()).toEqual(first.snapshot());
		const result = await clock.run(second.search(searchPlan(["a", "b"], { cacheTtlMs: 0 })));
		expect(result.provider).toBe("b");
		expect(world2.callsOf("a")).toHaveLength(0);

		await clock.advance(60_000);
		await clock.run(second.search(searchPlan(["a"], { cacheTtlMs: 0 })));
		// key1 stays exhausted and key2 rate-limited (120 s) across the restart: only key3 is used.
		expect(world2.callsOf("a").map((c) => c.key)).toEqual(["key3"]);
	});

	it("starts clean from a missing or corrupt file and drops malformed entries", () => {
		const dir = tempDir();
		const path = stateFilePath(dir);
		expect(createStateFile(path).load()).toBeUndefined();
		writeFileSync(path, "{ not json");
		expect(createStateFile(path).load()).toBeUndefined();
		const now = 1_000_000;
		const text = JSON.stringify({
			version: 1,
			cooldowns: [{ provider: "a", untilMs: 5, failures: 2, reason: "server: 500" }, { provider: 3 }],
			keys: [
				{ fingerprint: "0123456789abcdef", label: "key1", state: "exhausted", sinceMs: now - 1000 },
				{ fingerprint: "fedcba9876543210", label: "key2", state: "exhausted", sinceMs: now - 25 * 3_600_000 },
				{ fingerprint: "aaaaaaaaaaaaaaaa", label: "key3", state: "rate-limited", untilMs: now - 1 },
				{ fingerprint: "sk-live-not-a-fingerprint", label: "key4", state: "exhausted", sinceMs: now },
			],
		});
		expect(parseState(text, now)).toEqual({
			version: 1,
			cooldowns: [{ provider: "a", untilMs: 5, failures: 2, reason: "server: 500" }],
			keys: [{ fingerprint: "0123456789abcdef", label: "key1", state: "exhausted", sinceMs: now - 1000 }],
		});
		expect(parseState(JSON.stringify({ version: 2, cooldowns: [], keys: [] }), now)).toBeUndefined();
	});

	it("keeps working when the state file cannot be written", async () => {
		const dir = tempDir();
		const path = join(dir, "blocked");
		mkdirSync(path); // a directory where the file should be: rename fails
		const clock = createFakeClock();
		const world = createWorld(clock);
		world.add("a", () => {
			throw failure("server");
		});
		world.add("b", () => results(1));
		const executor = world.executor({ state: createStateFile(path, clock.now) });
		const result = await clock.run(executor.search(searchPlan(["a", "b"])));
		expect(result.provider).toBe("b");
		expect(executor.snapshot().cooldowns).toHaveLength(1);
		expect(readdirSync(dir)).toEqual(["blocked"]);
	});
});
