// Preloaded into the pi processes of the start-up benchmark (node --import): prints the process's own CPU time
// (user + system, ms) to stderr at exit, so start-up can be compared in CPU as well as wall time on a busy machine,
// and V8's used heap (bytes), from which bench/pi-startup.ts reads what a run allocated.
import { getHeapStatistics } from "node:v8";

process.on("exit", () => {
	const usage = process.resourceUsage();
	const used = getHeapStatistics().used_heap_size;
	process.stderr.write(
		`\npwa-bench-cpu-ms ${(usage.userCPUTime + usage.systemCPUTime) / 1000}\npwa-bench-heap-used ${used}\n`,
	);
});
