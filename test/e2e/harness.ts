// End-to-end helpers for the real pi CLI: a temp HOME/agent dir with models.json for the fake model, and a pi
// spawner (json and rpc modes) that reads stdout as JSON lines split on "\n" only. The loopback fakes pi talks to
// are in fakes.ts.

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve } from "node:path";
import { waitFor } from "./fakes.ts";

export const REPO_ROOT = resolve(import.meta.dirname, "../..");
export const PI_CLI = join(REPO_ROOT, "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js");

/** Generous: a pi start takes ~1 s on an idle machine but several times that on a loaded 2-core one. */
const DEFAULTS = { waitMs: 60_000, runMs: 90_000, exitMs: 15_000 };

type Json = Record<string, unknown>;

// ---------------------------------------------------------------------------------------------
// A temp HOME with an agent dir and models.json
// ---------------------------------------------------------------------------------------------

export interface PiHome {
	root: string;
	agentDir: string;
	configFile: string;
	env: Record<string, string>;
	writeConfig(text: string): void;
	remove(): void;
}

/** Node ≥ 22.19 for pi: the running one when new enough, else the repo's pinned node. */
export function nodeBinary(): string {
	const [major = 0, minor = 0] = process.versions.node.split(".").map(Number);
	if (major > 22 || (major === 22 && minor >= 19)) return process.execPath;
	const pinned = join(REPO_ROOT, "node_modules/node/bin/node");
	if (!existsSync(pinned)) throw new Error("Node >= 22.19 is needed to run pi (npm i installs node@22)");
	return pinned;
}

/**
 * A fresh HOME and agent dir. `tmpDir` (TMPDIR: jiti and Node's compile cache) may be shared between homes of one
 * test file: a warm cache makes each pi start several times faster.
 */
export function createPiHome(chatUrl: string, config?: string, tmpDir?: string): PiHome {
	const root = realpathSync(mkdtempSync(join(tmpdir(), "pi-web-access-e2e-")));
	const home = join(root, "home");
	const agentDir = join(home, ".pi", "agent");
	const tmp = tmpDir ?? join(root, "tmp");
	mkdirSync(agentDir, { recursive: true });
	mkdirSync(tmp, { recursive: true });
	const model = {
		id: "fake-model",
		name: "Fake model",
		reasoning: false,
		input: ["text"],
		contextWindow: 128000,
		maxTokens: 4096,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	};
	const models = {
		providers: {
			fake: { baseUrl: `${chatUrl}/v1`, api: "openai-completions", apiKey: "$FAKE_API_KEY", models: [model] },
		},
	};
	writeFileSync(join(agentDir, "models.json"), JSON.stringify(models, null, 2));
	const configFile = join(agentDir, "pi-web-access.json");
	if (config !== undefined) writeFileSync(configFile, config);
	const env: Record<string, string> = {
		PATH: [dirname(nodeBinary()), process.env.PATH ?? ""].join(delimiter),
		HOME: home,
		PI_CODING_AGENT_DIR: agentDir,
		TMPDIR: tmp,
		PI_OFFLINE: "1",
		FAKE_API_KEY: "fake-chat-key",
		NO_COLOR: "1",
	};
	return {
		root,
		agentDir,
		configFile,
		env,
		writeConfig: (text) => writeFileSync(configFile, text),
		remove: () => rmSync(root, { recursive: true, force: true }),
	};
}

// ---------------------------------------------------------------------------------------------
// Running pi
// ---------------------------------------------------------------------------------------------

/** Splits a byte stream into JSON records on "\n" only (JSON strings may hold U+2028/U+2029). */
function jsonLines(stream: NodeJS.ReadableStream, into: Json[], raw: string[]): void {
	let buffer = "";
	stream.setEncoding("utf8");
	stream.on("data", (text: string) => {
		buffer += text;
		for (let at = buffer.indexOf("\n"); at >= 0; at = buffer.indexOf("\n")) {
			const line = buffer.slice(0, at).replace(/\r$/, "");
			buffer = buffer.slice(at + 1);
			if (!line.trim()) continue;
			raw.push(line);
			try {
				into.push(JSON.parse(line) as Json);
			} catch {
				// not a record (pi writes records only; kept in `raw` for diagnosis)
			}
		}
	});
}

export interface PiRun {
	code: number | null;
	records: Json[];
	stdout: string;
	stderr: string;
}

function spawnPi(args: string[], env: Record<string, string>, stdin: "ignore" | "pipe"): ChildProcess {
	return spawn(nodeBinary(), [PI_CLI, ...args], { cwd: env.HOME, env, stdio: [stdin, "pipe", "pipe"] });
}

/** One `pi` run to completion (stdin ignored: `pi -p` waits for a piped stdin to close). */
export function runPi(args: string[], env: Record<string, string>, timeoutMs = DEFAULTS.runMs): Promise<PiRun> {
	const child = spawnPi(args, env, "ignore");
	const records: Json[] = [];
	const raw: string[] = [];
	let stderr = "";
	child.stderr?.setEncoding("utf8");
	child.stderr?.on("data", (text: string) => {
		stderr += text;
	});
	if (child.stdout) jsonLines(child.stdout, records, raw);
	return new Promise((resolvePromise, reject) => {
		const timer = setTimeout(() => {
			child.kill("SIGKILL");
			reject(new Error(`pi ${args.join(" ")} did not finish in ${timeoutMs} ms; stderr: ${stderr}`));
		}, timeoutMs);
		child.on("error", (error) => {
			clearTimeout(timer);
			reject(error);
		});
		child.on("close", (code) => {
			clearTimeout(timer);
			resolvePromise({ code, records, stdout: raw.join("\n"), stderr });
		});
	});
}

export interface RpcPi {
	records: Json[];
	/** Everything pi wrote to stdout so far, one record per line. */
	stdout(): string;
	stderr(): string;
	send(command: Json): void;
	/** Waits for the first record from index `from` on that matches. */
	next(what: string, match: (record: Json) => boolean, from?: number, timeoutMs?: number): Promise<Json>;
	/** Closes stdin (pi's orderly shutdown) and waits for the exit; kills it if it does not exit. */
	stop(): Promise<number | null>;
}

export function startRpc(args: string[], env: Record<string, string>): RpcPi {
	const child = spawnPi(["--mode", "rpc", ...args], env, "pipe");
	const records: Json[] = [];
	const raw: string[] = [];
	let stderr = "";
	child.stderr?.setEncoding("utf8");
	child.stderr?.on("data", (text: string) => {
		stderr += text;
	});
	if (child.stdout) jsonLines(child.stdout, records, raw);
	const exited = new Promise<number | null>((done) => child.on("close", (code) => done(code)));
	let exitCode: number | null | undefined;
	void exited.then((code) => {
		exitCode = code;
	});
	return {
		records,
		stdout: () => raw.join("\n"),
		stderr: () => stderr,
		send(command) {
			child.stdin?.write(`${JSON.stringify(command)}\n`);
		},
		next(what, match, from = 0, timeoutMs = DEFAULTS.waitMs) {
			return waitFor(
				what,
				() => {
					const found = records.slice(from).find(match);
					if (found) return found;
					if (exitCode !== undefined)
						throw new Error(`pi exited (${exitCode}) while waiting for ${what}; stderr: ${stderr}`);
					return undefined;
				},
				timeoutMs,
			);
		},
		async stop() {
			child.stdin?.end();
			const timer = setTimeout(() => child.kill("SIGKILL"), DEFAULTS.exitMs);
			const code = await exited;
			clearTimeout(timer);
			return code;
		},
	};
}

/** Sends a prompt and waits for its response record (matched by id); returns it and the index after it. */
export async function rpcPrompt(rpc: RpcPi, id: string, message: string): Promise<{ response: Json; from: number }> {
	const from = rpc.records.length;
	rpc.send({ id, type: "prompt", message });
	const response = await rpc.next(`response to ${id}`, (r) => r.type === "response" && r.id === id, from);
	return { response, from };
}

/** The notify records (extension_ui_request, method notify) from index `from` on. */
export function notifications(rpc: RpcPi, from = 0): Array<{ message: string; notifyType?: string }> {
	return rpc.records
		.slice(from)
		.filter((r) => r.type === "extension_ui_request" && r.method === "notify")
		.map((r) => ({ message: String(r.message ?? ""), notifyType: r.notifyType as string | undefined }));
}
