// The one secret mask (engine/redact.ts): any 8+ character piece of a key at any position, its base64 (also inside
// a Basic credential) and URL encodings are masked; results echoing a key are masked with a warning; one matcher is
// built per set of keys. Regression: the executor's mask only caught pieces anchored at the key's start or end.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { RESULT_ECHO_WARNING, redactorFor, redactResult, redactSecrets, SECRET_MASK } from "../engine/redact.ts";
import { keyArb } from "./helpers/leak-keys.ts";

const filler = fc.string({ unit: fc.constantFrom("~", " ", "=", "\n"), maxLength: 300 });

describe("the secret mask", () => {
	it("masks the key's middle 12 characters (regression: anchored pieces only)", () => {
		const key = "Zq81xk-secret-middle-tail-9QwE";
		const text = `error: invalid token ${key.slice(7, 19)} (truncated)`;
		expect(redactSecrets(text, [key])).toBe(`error: invalid token ${SECRET_MASK} (truncated)`);
	});

	it("masks every piece of 8+ characters of a random key, at a random place, and its encodings", () => {
		fc.assert(
			fc.property(keyArb, fc.nat(), fc.nat(), filler, filler, (key, a, b, before, after) => {
				const start = a % (key.length - 7);
				const end = start + 8 + (b % (key.length - start - 7));
				const piece = key.slice(start, end);
				const basic = Buffer.from(`user:${key}`).toString("base64");
				const encoded = encodeURIComponent(key);
				const text = `${before}${piece}${after} | ${basic} | ?k=${encoded} | ${Buffer.from(key).toString("base64url")}`;
				const out = redactSecrets(text, [key]);
				expect(out).not.toContain(piece);
				expect(out).not.toContain(encoded.length >= 8 ? encoded : key);
				if (basic.length >= 16) expect(out).not.toContain(basic.slice(8, -4));
				expect(out).not.toContain(Buffer.from(key).toString("base64url"));
				if (![...before].some((c) => key.includes(c))) expect(out.startsWith(before)).toBe(true);
			}),
			{ numRuns: 1000 },
		);
	});

	it("leaves text without key material unchanged", () => {
		expect(redactSecrets("nothing to see here at all, just words", ["Zq81xk-secret-tail-9QwE"])).toBe(
			"nothing to see here at all, just words",
		);
		expect(redactSecrets("key sk is short", ["sk"])).toBe("key sk is short");
	});

	it("masks a key echoed in a result's title and snippet, and says so in warnings", () => {
		const key = "tvly-Zk3-echoed-in-results-77";
		const result = {
			results: [{ title: `Widgets ${key}`, url: "https://a.example/x", snippet: `about ${key.slice(3, 20)}` }],
			warnings: ["kept"],
		};
		const out = redactResult(result, redactorFor([key]));
		expect(JSON.stringify(out)).not.toContain(key.slice(3, 11));
		expect(out.results[0]?.title).toBe(`Widgets ${SECRET_MASK}`);
		expect(out.warnings).toEqual(["kept", RESULT_ECHO_WARNING]);
		expect(result.results[0]?.title).toContain(key);
		const clean = { results: [{ title: "Widgets", url: "https://a.example/x" }] };
		expect(redactResult(clean, redactorFor([key]))).toBe(clean);
	});

	it("leaves a clean result holding a number that is not a number as it came, with no echo warning", () => {
		const clean = { results: [{ title: "Widgets", url: "https://a.example/x", score: Number.NaN }] };
		expect(redactResult(clean, redactorFor(["k-0123456789"]))).toBe(clean);
	});

	it("builds one matcher per set of keys and reuses it", () => {
		expect(redactorFor(["k-0123456789", "k-abcdefghij"])).toBe(redactorFor(["k-0123456789", "k-abcdefghij"]));
	});
});
