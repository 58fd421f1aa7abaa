// Preloaded into the pi processes of the start-up benchmark (node --import): prints the process's own CPU time
// (user + system, ms) to stderr at exit, so start-up can be compared in CPU as well as wall time on a busy machine.
process.on("exit", () => {
	const usage = process.resourceUsage();
	process.stderr.write(`\npwa-bench-cpu-ms ${(usage.userCPUTime + usage.systemCPUTime) / 1000}\n`);
});
