// A credential store over pi's auth.json that only reads: pi's own file-backed store creates the file (and a lock
// beside it) when it opens, so read-only commands (check, explain, status), and any command on a machine without
// an auth.json, use this one and leave the agent dir exactly as they found it.

import type { Credential, CredentialInfo, CredentialStore } from "@earendil-works/pi-ai";
import { readJsonObject } from "../providers/read-bounded.ts";
import { GITHUB_LOGIN_DEFAULTS } from "./github-login.ts";

export function readOnlyCredentials(authPath: string, maxBytes = GITHUB_LOGIN_DEFAULTS.maxAuthBytes): CredentialStore {
	let data: Record<string, Credential> | undefined;
	// No file, an unreadable or broken one, or one over the bound (a stray or hostile file must not cost memory, and
	// a named pipe must not block): no stored credentials.
	const load = (): Record<string, Credential> => {
		data ??= (readJsonObject(authPath, maxBytes) ?? {}) as Record<string, Credential>;
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
