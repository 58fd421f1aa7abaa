// The failure structure on its own: attempts get kind, retryable and a hint; the call as a whole gets the next
// action in order (untried provider, wait, the user must set something up, change the arguments); anything that
// is not ours is an internal failure with the first line of its message only, never a stack.

import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { WebAccessError } from "../engine/errors.ts";
import { RequestError } from "../engine/requests.ts";
import type { Attempt } from "../engine/result-types.ts";
import { failureOutput } from "../extension/schemas.ts";
import { CLI_WORDING, describeFailure, explainAttempts, toolWording } from "../runtime/failure.ts";

const wording = toolWording("web_fetch");
const chain = (attempts: Attempt[]) =>
	new WebAccessError("no fetch provider answered", { kind: "chain", code: "all-failed", attempts });

describe("describeFailure", () => {
	it("turns a foreign exception into an internal failure with its first line only", () => {
		const error = new TypeError("Cannot read properties of undefined (reading 'x')\n    at secret/stack.ts:1:1");
		const { failure, text } = describeFailure(error, { capability: "fetch", wording });
		expect(failure).toEqual({
			error: "internal error in pi-web-access: Cannot read properties of undefined (reading 'x')",
			kind: "internal",
			retryable: false,
			hint: "do not retry this call unchanged; tell the user web access failed (internal)",
			attempts: [],
		});
		expect(text).not.toContain("stack.ts");
		expect(Value.Check(failureOutput, failure)).toBe(true);
	});

	it("says a guard refusal is for the user to allow, and never to retry", () => {
		const refused = "bad-request: refused 10.0.0.5 (private) for intranet.test: set fetchGuard.allowPrivate or …";
		const { failure } = describeFailure(
			chain([{ provider: "direct", outcome: "error", reason: refused, kind: "bad-request", latencyMs: 3 }]),
			{ capability: "fetch", wording },
		);
		expect(failure).toMatchObject({ kind: "bad-request", retryable: false });
		expect(failure.attempts[0]?.hint).toBe("the private-network guard refused the address: only the user can allow it");
		expect(failure.hint).toMatch(/^tell the user the address is on a private network and refused/);
	});

	it("counts a used-up quota as retryable only when the backend said when", () => {
		const [never, later] = explainAttempts([
			{ provider: "a", outcome: "error", reason: "quota: HTTP 402", kind: "quota" },
			{ provider: "b", outcome: "error", reason: "quota: reset", kind: "quota", retryAfterMs: 3_600_000 },
		]);
		expect([never?.retryable, later?.retryable]).toEqual([false, true]);
		const { failure } = describeFailure(chain([never!]), { capability: "fetch", wording });
		expect(failure.hint).toBe(
			"the user must set this up (a: its quota or credit is used up: top it up or add a key); tell them, retrying will not help until then",
		);
		const cli = describeFailure(chain([never!]), { capability: "fetch", wording: CLI_WORDING });
		expect(cli.failure.hint).toBe(
			"a: its quota or credit is used up: top it up or add a key; running it again will not help until then",
		);
	});

	it("reads the class from a walk-made reason when the attempt carries none (the overall deadline)", () => {
		const [deadline] = explainAttempts([
			{ provider: "slow", outcome: "error", reason: "timeout: overall deadline of 30 s reached" },
		]);
		expect(deadline).toMatchObject({ kind: "timeout", retryable: true });
	});

	it("gives bad arguments no attempts and the advice to change them", () => {
		const { failure, text } = describeFailure(new RequestError("url must be http or https, not ftp"), {
			capability: "fetch",
			wording,
		});
		expect(failure).toMatchObject({ kind: "bad-request", retryable: false, attempts: [] });
		expect(text).toBe(
			"url must be http or https, not ftp\nNext: change the arguments as the message says before you call web_fetch again.",
		);
	});
});
