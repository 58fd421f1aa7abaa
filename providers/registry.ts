// The provider registry: every type's facts by name, from the list in providers/index.ts, plus
// types registered at run time (test-only types, the same facts shape). Looking a type up never loads its
// implementation (providers/type-facts.ts), so pi's start-up stays cheap.

import { BUILTIN_TYPES } from "./index.ts";
import type { ProviderType } from "./type-facts.ts";

export type { ProviderType } from "./type-facts.ts";

const byName = new Map<string, ProviderType>();
for (const facts of [...BUILTIN_TYPES].sort((a, b) => (a.type < b.type ? -1 : 1))) byName.set(facts.type, facts);
const BUILTIN_COUNT = byName.size;

/** Every type by name: the built-in ones alphabetised, then those registered at run time. */
export const providerTypes: Readonly<Record<string, ProviderType>> = Object.fromEntries(byName);

export function providerType(type: string): ProviderType | undefined {
	return byName.get(type);
}

/** The types' facts in registry order. */
export function allProviderTypes(): ProviderType[] {
	return [...byName.values()];
}

/** True once a type beyond the built-in ones is registered (the shipped schema and validator then lack it). */
export function hasRegisteredTypes(): boolean {
	return byName.size > BUILTIN_COUNT;
}

/** Adds a type the way providers/index.ts lists the built-in ones; a name may be registered once. */
export function registerProviderType(facts: ProviderType): void {
	if (byName.has(facts.type)) throw new Error(`provider type "${facts.type}" is already registered`);
	byName.set(facts.type, facts);
	(providerTypes as Record<string, ProviderType>)[facts.type] = facts;
}
