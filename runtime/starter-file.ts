// The commented starter file `init` writes and `status` offers: the set-up zero-config derives on this machine,
// each provider with a one-line comment on what it needs. Editor-clean JSONC (quoted keys, no trailing commas).

import { basename } from "node:path";
import type { Config, ProviderConfig } from "../engine/config-types.ts";
import { providerType } from "../providers/registry.ts";
import { type CredentialDeps, credentialStatus } from "./credentials.ts";

/** What a provider needs, and where this machine has it (never a key, only where it comes from). */
function needs(provider: ProviderConfig, deps: CredentialDeps): string {
	const entry = providerType(provider.type);
	if (entry?.credentials === "none") return "Needs no key";
	if (entry?.credentials === "current-model") {
		const model = deps.pi?.currentModel();
		return model
			? `Needs nothing more: uses pi's current model (now ${model.provider}/${model.id})`
			: "Needs a current model in pi";
	}
	const status = credentialStatus(provider, deps);
	if (status.state === "ready" && status.source) return `Needs a key: found in ${status.source}`;
	return `Needs a key: ${status.reason ?? "none found"}`;
}

const inline = (value: Record<string, unknown>) =>
	`{ ${Object.entries(value)
		.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`)
		.join(", ")} }`;

const list = (names: string[]) => `[${names.map((n) => JSON.stringify(n)).join(", ")}]`;

/** The file text; `schemaRef` is the `$schema` value (see schema/schema-ref.ts). */
export function starterFile(config: Config, deps: CredentialDeps, schemaRef: string, file: string): string {
	const lines = [
		`// ${basename(file)}: the set-up pi-web-access derived on this machine, to edit. Comments are fine here.`,
		"// `/web-access` in pi shows problems as file:line:col and the result (outside pi: `pi-web-access check`).",
		"{",
		`\t"$schema": ${JSON.stringify(schemaRef)},`,
		'\t"providers": {',
	];
	config.providers.forEach((p, i) => {
		const comma = i < config.providers.length - 1 ? "," : "";
		lines.push(`\t\t// ${providerType(p.type)?.summary ?? p.type} ${needs(p, deps)}.`);
		lines.push(`\t\t${JSON.stringify(p.name)}: ${inline({ type: p.type, ...p.options })}${comma}`);
	});
	lines.push("\t},");
	lines.push("\t// Default chains: tried in order; a failing or empty step falls back to the next.");
	const search = config.search ?? [];
	if (search.length > 0) lines.push(`\t"search": ${list(search)},`);
	else
		lines.push(
			'\t// No search provider has a key yet: add one above (e.g. "exa" with EXA_API_KEY); every provider able to search is then tried.',
		);
	lines.push(`\t"fetch": ${list(config.fetch ?? [])},`);
	lines.push(
		'\t// Site rules pick other chains, e.g. { "name": "Go", "sites": ["go.dev", "github.com/golang"], "search": ["exa"] }',
	);
	lines.push('\t"rules": []', "}");
	return `${lines.join("\n")}\n`;
}
