// A credential store over pi's auth.json that only reads: pi's own file-backed store creates the file (and a lock
// beside it) when it opens, so read-only commands (check, explain, status), and any command on a machine without
// an auth.json, use this one and leave the agent dir exactly as they found it.

import { readFileSync } from "node:fs";
import type { Credential, CredentialInfo, CredentialStore } from "@earendil-works/pi-ai";

export function readOnlyCredentials(authPath: string): CredentialStore {
	let data: Record<string, Credential> | undefined;
	const load = (): Record<string, Credential> => {
		if (data) return data;
		try {
			const parsed = JSON.parse(readFileSync(authPath, "utf8").replace(/^\uFEFF/, "")) as unknown;
			data =
				parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, Credential>) : {};
		} catch {
			data = {}; // no file or an unreadable one: no stored credentials
		}
		return data;
	};
	const refuse = async (): Promise<never> => {
		throw new Error("pi-web-access reads pi's credentials and never changes them");
	};
	return {
		async read(providerId: string) {
			const found = load()[providerId];
			return found ? structuredClone(found) : undefined;
		},
		async list(): Promise<CredentialInfo[]> {
			return Object.entries(load()).map(([providerId, c]) => ({ providerId, type: c.type }) as CredentialInfo);
		},
		modify: refuse,
		delete: refuse,
	} as CredentialStore;
}
