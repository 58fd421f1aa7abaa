// Ends what the runtime runs in the background: the direct fetcher's conversion worker and the browser fetcher's
// browser (each only if one was ever started).
// Called at pi's session_shutdown and when a CLI command is done; a later call starts afresh.

export async function shutdownRuntime(): Promise<void> {
	const [{ closeSharedConverter }, { closeSharedBrowser }] = await Promise.all([
		import("../providers/direct/worker-pool.ts"),
		import("../providers/browser/shared.ts"),
	]);
	await Promise.all([closeSharedConverter(), closeSharedBrowser()]);
}
