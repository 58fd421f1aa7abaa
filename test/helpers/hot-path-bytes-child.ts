// Child process: the bytes one search call allocates through the executor (bench/overhead.ts's exaSearch) and through
// raw undici + JSON.parse, against the backend at the URL given, 64 calls in flight. Run with --expose-gc and a young
// generation large enough that no collection runs inside a measured window (a window that saw one is taken again).
// Usage: node --expose-gc --min-semi-space-size=64 --max-semi-space-size=64 <this> <backend url>; prints one JSON line.

import { Agent, request } from "undici";
import { exaSearch } from "../../bench/overhead.ts";
import { median, runConcurrent } from "../../bench/stats.ts";
import { watchGc } from "./gc-watch.ts";

const url = process.argv[2]!;
const SETTINGS = { warmup: 3_000, calls: 400, windows: 3, concurrency: 64, tries: 10 };

const { measure } = watchGc();

const search = await exaSearch(url, "hot-path-bytes-key");
const agent = new Agent({ keepAliveTimeout: 30_000 });
const rawBody = JSON.stringify({ query: "incremental static regeneration", type: "auto", numResults: 5 });
const sides: Record<string, (i: number) => Promise<void>> = {
	executor: async (i) => {
		const result = await search(i);
		if (result.results.length === 0) throw new Error(`no results (${result.attempts[0]?.reason})`);
	},
	raw: async (i) => {
		const res = await request(`${url}/search`, {
			method: "POST",
			dispatcher: agent,
			headers: { "content-type": "application/json", "x-api-key": "hot-path-bytes-key", "x-i": String(i) },
			body: rawBody,
		});
		JSON.parse(await res.body.text());
	},
};

const bytes: Record<string, number[]> = { executor: [], raw: [] };
for (const job of Object.values(sides)) await runConcurrent(SETTINGS.warmup, SETTINGS.concurrency, job);
for (let w = 0; w < SETTINGS.windows; w++) {
	for (const [name, job] of Object.entries(sides)) {
		const calls = () => runConcurrent(SETTINGS.calls, SETTINGS.concurrency, job);
		bytes[name]!.push((await measure(calls, SETTINGS.tries)).bytes / SETTINGS.calls);
	}
}
await agent.close();
console.log(JSON.stringify({ executor: median(bytes.executor!), raw: median(bytes.raw!) }));
