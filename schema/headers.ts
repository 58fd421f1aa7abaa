// Configured HTTP headers checked as HTTP does: a name is a token (RFC 9110 §5.6.2), a value holds no CR, LF, NUL or
// other control character but tab. A bad header is dropped with a located error at load time, instead of every
// request of the provider failing later in undici (UND_ERR_INVALID_ARG).

import type { JsonPath, NormalizeIssue } from "./validate.ts";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a header value cannot hold.
const BAD_VALUE_CHAR = /[\u0000-\u0008\u000a-\u001f\u007f]|[^\u0000-\u00ff]/;

function describeChar(char: string): string {
	const names: Record<string, string> = { "\r": "a carriage return (CR)", "\n": "a line feed (LF)", "\u0000": "NUL" };
	const code = char.codePointAt(0) ?? 0;
	return (
		names[char] ??
		(code > 0xff
			? `the non-Latin-1 character ${JSON.stringify(char)}`
			: `control character U+${code.toString(16).padStart(4, "0")}`)
	);
}

/** The headers HTTP can send, and an issue for each one it cannot. */
export function checkHeaders(
	headers: Record<string, unknown>,
	at: JsonPath,
): { headers: Record<string, string>; issues: NormalizeIssue[] } {
	const good: Record<string, string> = {};
	const issues: NormalizeIssue[] = [];
	for (const [name, value] of Object.entries(headers)) {
		if (typeof value !== "string") continue; // the schema reported it
		if (!TOKEN.test(name)) {
			issues.push({
				severity: "error",
				at: [...at, name],
				atKey: true,
				message: `header name ${JSON.stringify(name)} is not a valid HTTP header name; the header is not sent`,
				fix: "use letters, digits and - only (e.g. X-Api-Key)",
			});
			continue;
		}
		const bad = BAD_VALUE_CHAR.exec(value);
		if (bad !== null) {
			issues.push({
				severity: "error",
				at: [...at, name],
				message: `header ${name} contains ${describeChar(bad[0])}, which HTTP does not allow in a value; the header is not sent`,
				fix: "remove line breaks and control characters from the value",
			});
			continue;
		}
		Object.defineProperty(good, name, { value, enumerable: true, writable: true, configurable: true });
	}
	return { headers: good, issues };
}
