// A provider's `apiKey` as a key pool (one expression, a list, or `{ key, billing, label }` entries), with the
// mistakes that would otherwise pass silently and end in a 401: a `${` left open, an env variable's name without `$`.

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: key expressions spell ${NAME} in plain strings

import type { KeySpec } from "../engine/config-types.ts";
import type { JsonPath, NormalizeIssue } from "./validate.ts";

/** EXA_API_KEY, GITHUB_TOKEN: upper case words joined by _, one of them naming a credential (no real key reads so). */
const ENV_NAME = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)+$/;
const CREDENTIAL_WORD = /(^|_)(API|KEY|APIKEY|TOKEN|SECRET)(_|$)/;
const BRACED = /^\$\{[A-Za-z_][A-Za-z0-9_]*\}$/;

/** An error for an expression that cannot be what was meant; the entry is then left out of the pool. */
function expressionError(expression: string, at: JsonPath): NormalizeIssue | undefined {
	// `$${` is the escape for a literal `${` (runtime/key-expressions.ts), so only a leading `${` is checked.
	if (!expression.startsWith("${") || BRACED.test(expression)) return undefined;
	const closed = expression.includes("}");
	return {
		severity: "error",
		at,
		message: closed
			? "apiKey: ${…} must hold one environment variable name (letters, digits, _); this key is not used"
			: "apiKey: ${ is not closed; this key is not used",
		fix: 'write "${NAME}" or "$NAME" (a literal key starting with ${ is written "$${…}")',
	};
}

/** A warning for a literal that reads like an environment variable's name: it would be sent as the key itself. */
function envNameWarning(expression: string, at: JsonPath): NormalizeIssue | undefined {
	if (!ENV_NAME.test(expression) || !CREDENTIAL_WORD.test(expression)) return undefined;
	return {
		severity: "warning",
		at,
		message: `apiKey "${expression}" looks like an environment variable's name, but without $ it is sent as the key itself`,
		fix: `did you mean "$${expression}"?`,
	};
}

/**
 * The pool's specs; entries with an error are reported and left out. `unusable`: every entry had one, and the
 * provider is dropped (with no pool left it would quietly take the type's env variable or pi's key instead).
 */
export function keyPool(
	value: unknown,
	at: JsonPath,
	issues: NormalizeIssue[],
): { specs?: KeySpec[]; unusable?: true } {
	if (value === undefined) return {};
	const errors: NormalizeIssue[] = [];
	const list = Array.isArray(value);
	const entries: unknown[] = list ? value : [value];
	const specs: KeySpec[] = [];
	entries.forEach((entry, i) => {
		const label = `key${i + 1}`;
		const where = list ? [...at, i] : at;
		const object = entry !== null && typeof entry === "object" && !Array.isArray(entry);
		const expression = object ? (entry as Record<string, unknown>).key : entry;
		if (typeof expression !== "string") return; // dropped by the schema step, already reported
		const exprAt = object ? [...where, "key"] : where;
		const error = expressionError(expression, exprAt);
		if (error) {
			errors.push(error);
			return;
		}
		const warning = envNameWarning(expression, exprAt);
		if (warning) issues.push(warning);
		if (!object) {
			specs.push({ expression, label });
			return;
		}
		const { label: own, billing } = entry as Record<string, unknown>;
		specs.push({
			expression,
			label: typeof own === "string" ? own : label,
			...(billing === "postpaid" || billing === "subscription" ? { billing } : {}),
		});
	});
	if (specs.length > 0 || errors.length === 0) {
		issues.push(...errors);
		return specs.length > 0 ? { specs } : {};
	}
	for (const error of errors) {
		issues.push({ ...error, message: error.message.replace(/this key is not used$/, "the provider is not used") });
	}
	return { unusable: true };
}
