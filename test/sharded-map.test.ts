// ShardedMap (engine/sharded-map.ts): a key always lands in the same small map, and similar keys (a big config's
// site patterns) spread so that no map nears the 4,096 entries past which V8's tables get slow to fill.

import { describe, expect, it } from "vitest";
import { generateConfig } from "../bench/generate.ts";
import { ShardedMap } from "../engine/sharded-map.ts";

describe("ShardedMap", () => {
	it("keeps each key in one shard, so get finds what set stored", () => {
		const map = new ShardedMap<number>();
		const keys = Array.from({ length: 2000 }, (_, i) => `host${i}.example.com/path/${i % 7}`);
		for (const [i, key] of keys.entries()) map.shard(key).set(key, i);
		for (const [i, key] of keys.entries()) expect(map.shard(key).get(key)).toBe(i);
		expect(map.shard("").get("")).toBeUndefined();
	});

	it("spreads 20,000 similar site patterns with no shard over 4,096 (about 1,250 each when even)", () => {
		const map = new ShardedMap<true>();
		const shards = new Map<Map<string, true>, number>();
		const tlds = ["com", "org", "io", "dev", "co.uk", "de"];
		for (let i = 0; i < 20000; i++) {
			const key = `r${i}k${i % 5}.${tlds[i % tlds.length]}${i % 3 === 0 ? `/team${i % 5}/repo` : ""}`;
			const shard = map.shard(key);
			shards.set(shard, (shards.get(shard) ?? 0) + 1);
		}
		expect(shards.size).toBe(16);
		expect(Math.max(...shards.values())).toBeLessThan(4096);
	});

	it("spreads the 5,000 site patterns of a generated 1,000-rule file, and their hosts, within 1.5× of an even share", () => {
		const patterns = generateConfig(1000, 4242).raw.rules.flatMap((rule) => rule.sites ?? []);
		const hosts = [...new Set(patterns.map((p) => p.replace(/^(\*\.|=|\.)/, "").split("/")[0] ?? ""))];
		for (const keys of [patterns, hosts]) {
			const map = new ShardedMap<true>();
			const shards = new Map<Map<string, true>, number>();
			for (const key of keys) shards.set(map.shard(key), (shards.get(map.shard(key)) ?? 0) + 1);
			expect(shards.size).toBe(16);
			expect(Math.max(...shards.values())).toBeLessThan((keys.length / 16) * 1.5);
		}
	});
});
