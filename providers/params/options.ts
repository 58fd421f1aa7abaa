// Typed getters for a provider's `call.config.options` (schema-checked at load time but typed unknown): a value of
// the wrong type reads as absent, so a provider falls back to its default instead of sending garbage.

export type Options = Readonly<Record<string, unknown>>;

export function stringOption(options: Options, name: string): string | undefined {
	const value = options[name];
	return typeof value === "string" && value !== "" ? value : undefined;
}

export function numberOption(options: Options, name: string): number | undefined {
	const value = options[name];
	return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function booleanOption(options: Options, name: string): boolean | undefined {
	const value = options[name];
	return typeof value === "boolean" ? value : undefined;
}

export function stringArrayOption(options: Options, name: string): string[] | undefined {
	const value = options[name];
	return Array.isArray(value) && value.every((item) => typeof item === "string") ? [...value] : undefined;
}

/** One of `allowed`, else undefined. */
export function enumOption<T extends string>(options: Options, name: string, allowed: readonly T[]): T | undefined {
	const value = options[name];
	return typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : undefined;
}
