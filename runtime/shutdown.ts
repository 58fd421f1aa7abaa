// Ends what the runtime runs in the background: the direct fetcher's conversion worker (if one was ever started).
// Called at pi's session_shutdown and when a CLI command is done; a later call starts afresh.

export async function shutdownRuntime(): Promise<void> {
	const { closeSharedConverter } = await import("../providers/direct/worker-pool.ts");
	await closeSharedConverter();
}
