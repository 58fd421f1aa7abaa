// What every CLI command reads and writes: its output streams, the environment and the working directory.
// Its own file, so the commands and cli/main.ts that dispatches to them do not import each other.

/** The process around a command; tests pass string collectors and a temp env. */
export interface CliIO {
	stdout: (text: string) => void;
	stderr: (text: string) => void;
	env: Record<string, string | undefined>;
	/** Working directory whose `.pi/pi-web-access.json` may be layered; default process.cwd(). */
	cwd?: string;
}
