// The team store's URL as a person may see it: the password and any user name are never shown (status, check,
// warnings, errors, --json), only the scheme, host, port and database.

/** The schemes the team store takes: plain and TLS. */
export const REDIS_SCHEMES = ["redis:", "rediss:"] as const;

/** `redis://***@host:port/db`: userinfo masked; a URL that does not parse is shown as its scheme only. */
export function redactStoreUrl(url: string): string {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0];
		return scheme === undefined ? "(not a URL)" : `${scheme}//…`;
	}
	const auth = parsed.username !== "" || parsed.password !== "" ? "***@" : "";
	return `${parsed.protocol}//${auth}${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}

/** Why the URL cannot be used as a team store, or undefined when it can. */
export function storeUrlProblem(url: string): string | undefined {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		return "not a URL: expected redis://host:port or rediss://host:port";
	}
	if (!(REDIS_SCHEMES as readonly string[]).includes(parsed.protocol)) {
		return `scheme ${parsed.protocol} is not supported: use redis:// or rediss:// (TLS)`;
	}
	if (parsed.hostname === "") return "no host: expected redis://host:port";
	return undefined;
}

/** Text from the client with every piece of the URL's secrets masked, whatever the client put in it. */
export function scrubSecrets(text: string, url: string): string {
	let parsed: URL | undefined;
	try {
		parsed = new URL(url);
	} catch {
		return text.split(url).join(redactStoreUrl(url));
	}
	let out = text.split(url).join(redactStoreUrl(url));
	for (const secret of [parsed.password, decodeURIComponent(parsed.password), parsed.username]) {
		if (secret.length >= 1) out = out.split(secret).join("***");
	}
	return out;
}
