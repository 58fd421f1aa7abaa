// Turns site patterns (docs/site-patterns.md) into the bare hosts Doubao's Filter.Sites / Filter.BlockHosts take.
// Includes may widen (the executor narrows paths and exotic forms afterwards); exclusions must never over-block,
// so only plain host patterns are sent as BlockHosts.

/** Host part of an include pattern: `*.a.com`, `.a.com`, `=a.com`, `a.com:8080/x` → `a.com`; `name.*` → undefined. */
export function siteHost(pattern: string): string | undefined {
	let host = pattern.trim().toLowerCase();
	const slash = host.indexOf("/");
	if (slash !== -1) host = host.slice(0, slash);
	if (host.startsWith("*.")) host = host.slice(2);
	else if (host.startsWith("=") || host.startsWith(".")) host = host.slice(1);
	if (!host.startsWith("[")) host = host.replace(/:\d+$/, "");
	host = host.replace(/\.$/, "");
	return host === "" || host.includes("*") ? undefined : host;
}

/** The host of a pattern that means "this host and its subdomains, any path, any port" (`a.com`, `.cn`), else undefined. */
export function plainHost(pattern: string): string | undefined {
	const trimmed = pattern.trim().toLowerCase();
	if (/[/*=:[]/.test(trimmed)) return undefined;
	const host = trimmed.replace(/^\./, "").replace(/\.$/, "");
	return host === "" ? undefined : host;
}

/** Lower-case host of a result URL without a trailing dot; undefined for an unparsable URL. */
export function wholeHostOf(url: string): string | undefined {
	try {
		return new URL(url).hostname.replace(/\.$/, "");
	} catch {
		return undefined;
	}
}
