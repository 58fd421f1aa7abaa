// The real pi decides project trust: a project's .pi/pi-web-access.json is layered when pi trusts the folder (no
// protected resources, no saved decision: pi trusts it) and ignored, with the reason in /web-access, under --no-approve.

import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Backend, chatReply, startBackend } from "./fakes.ts";
import { createPiHome, notifications, type PiHome, REPO_ROOT, rpcPrompt, startRpc } from "./harness.ts";

const TEST_TIMEOUT_MS = 120_000;
const RPC_ARGS = ["--no-session", "-ne", "--model", "fake/fake-model", "-e", REPO_ROOT];

let chat: Backend;
let home: PiHome;

beforeAll(async () => {
	chat = await startBackend(chatReply({ text: "hello" }));
	const global = {
		providers: { exa: { type: "exa", apiKey: "exa-e2e-project-key" }, d: { type: "direct" } },
		state: { persist: false },
	};
	home = createPiHome(chat.url, JSON.stringify(global));
	// pi runs in HOME, so HOME/.pi/pi-web-access.json is the project file.
	mkdirSync(join(home.env.HOME ?? "", ".pi"), { recursive: true });
	const project = { rules: [{ name: "Team docs", sites: ["docs.example.org"], search: ["exa"] }] };
	writeFileSync(join(home.env.HOME ?? "", ".pi", "pi-web-access.json"), JSON.stringify(project));
});
afterAll(async () => {
	await chat.close();
	home.remove();
});

async function statusWith(extra: string[]): Promise<string> {
	const rpc = startRpc([...RPC_ARGS, ...extra], home.env);
	try {
		const { from } = await rpcPrompt(rpc, "status", "/web-access");
		return notifications(rpc, from).find((n) => n.message.startsWith("config: "))?.message ?? "";
	} finally {
		await rpc.stop();
	}
}

describe("pi decides whether the project file is read", () => {
	const file = () => join(home.env.HOME ?? "", ".pi", "pi-web-access.json");

	it(
		"layers it when pi trusts the project",
		async () => {
			const text = await statusWith([]);
			expect(text).toContain(`project config: ${file()} (loaded; pi trusts this project)`);
			expect(text).toContain(`  Team docs: sites docs.example.org: search → exa (from ${file()})`);
		},
		TEST_TIMEOUT_MS,
	);

	it(
		"ignores it under --no-approve and says so",
		async () => {
			const text = await statusWith(["--no-approve"]);
			expect(text).toContain(`project config: ${file()} (ignored: untrusted; pi does not trust this project)`);
			expect(text).not.toContain("Team docs");
		},
		TEST_TIMEOUT_MS,
	);
});
