// Key expressions follow pi's models.json rules; `!command` runs once per process and again after a failure.

import { describe, expect, it } from "vitest";
import { KeyResolver, parseKeyExpression } from "../runtime/key-expressions.ts";

describe("key expressions", () => {
	it.each([
		["sk-literal", { kind: "literal", value: "sk-literal" }],
		["$EXA_API_KEY", { kind: "env", name: "EXA_API_KEY" }],
		["${EXA_API_KEY}", { kind: "env", name: "EXA_API_KEY" }],
		["!op read x", { kind: "command", command: "op read x" }],
		["$$abc", { kind: "literal", value: "$abc" }],
		["$!abc", { kind: "literal", value: "!abc" }],
		["$not valid", { kind: "literal", value: "$not valid" }],
	])("parses %s", (expression, expected) => {
		expect(parseKeyExpression(expression)).toEqual(expected);
	});

	it("reports status without running commands, and resolves env variables", async () => {
		const keys = new KeyResolver({ env: { SET: "v" }, run: async () => "never" });
		expect(keys.status("$SET")).toEqual({ state: "ready" });
		expect(keys.status("$UNSET")).toEqual({ state: "missing", reason: "$UNSET is not set" });
		expect(keys.status("!cmd")).toEqual({ state: "not resolved yet" });
		expect(await keys.resolve("${SET}", 1000)).toBe("v");
		await expect(keys.resolve("$UNSET", 1000)).rejects.toThrow("$UNSET is not set");
	});

	it("runs a !command once for concurrent and later uses, trimmed", async () => {
		let runs = 0;
		const keys = new KeyResolver({
			env: {},
			run: async () => {
				runs++;
				return "  secret-from-vault\n";
			},
		});
		const all = await Promise.all([keys.resolve("!vault", 1000), keys.resolve("!vault", 1000)]);
		expect(all).toEqual(["secret-from-vault", "secret-from-vault"]);
		expect(await keys.resolve("!vault", 1000)).toBe("secret-from-vault");
		expect(runs).toBe(1);
		expect(keys.status("!vault")).toEqual({ state: "ready" });
	});

	it("runs a !command again after it failed or timed out", async () => {
		let runs = 0;
		const keys = new KeyResolver({
			env: {},
			run: async () => {
				runs++;
				if (runs === 1) throw new Error("key command timed out after 10 ms");
				return "k";
			},
		});
		await expect(keys.resolve("!slow", 10)).rejects.toThrow("timed out");
		expect(await keys.resolve("!slow", 10)).toBe("k");
		expect(runs).toBe(2);
	});

	it("a real shell command's output is used, and its failure message never carries its output", async () => {
		const keys = new KeyResolver({ env: {} });
		expect(await keys.resolve("!printf ' abc123 '", 5000)).toBe("abc123");
		const error = await keys.resolve("!echo leaked-secret; exit 3", 5000).catch((e: Error) => e);
		expect((error as Error).message).toBe("key command failed (exit 3)");
	});
});
