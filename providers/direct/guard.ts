// The private-network guard of the direct fetcher: which addresses a fetch may connect to, the DNS step that checks
// every address a host resolves to, and a `lookup` for net.connect pinned to those checked answers (no second DNS
// query that could answer differently). Settings come from `fetchGuard` in the config.

import { lookup as dnsLookup } from "node:dns/promises";
import type { LookupFunction } from "node:net";
import type { Config } from "../../engine/config-types.ts";
import { WebAccessError } from "../../engine/errors.ts";
import { type Cidr, cidrContains, embeddedIpv4, formatIp, type IpAddress, parseCidr, parseIp } from "./ip.ts";

export { type Cidr, cidrContains, formatIp, parseCidr, parseIp } from "./ip.ts";

export type FetchGuardSettings = NonNullable<Config["fetchGuard"]>;

/** One DNS answer. */
export interface LookupAddress {
	address: string;
	family: 4 | 6;
}

/** All addresses of a host (injectable so tests can answer `evil.test` with 10.0.0.1). */
export type HostLookup = (hostname: string) => Promise<LookupAddress[]>;

/** Ranges refused unless `allowedRanges` re-allows them; the category is shown in refusals. */
export const BLOCKED_RANGES: ReadonlyArray<{ range: string; category: string }> = [
	{ range: "0.0.0.0/8", category: "unspecified" },
	{ range: "10.0.0.0/8", category: "private" },
	{ range: "100.64.0.0/10", category: "carrier-grade NAT" },
	{ range: "127.0.0.0/8", category: "loopback" },
	{ range: "169.254.0.0/16", category: "link-local, cloud metadata" },
	{ range: "172.16.0.0/12", category: "private" },
	{ range: "192.0.0.0/24", category: "IETF protocol assignments" },
	{ range: "192.168.0.0/16", category: "private" },
	{ range: "198.18.0.0/15", category: "benchmarking, used by TUN-mode proxies" },
	{ range: "224.0.0.0/4", category: "multicast" },
	{ range: "240.0.0.0/4", category: "reserved" },
	{ range: "::/128", category: "unspecified" },
	{ range: "::1/128", category: "loopback" },
	{ range: "fc00::/7", category: "private" },
	{ range: "fe80::/10", category: "link-local" },
	{ range: "fec0::/10", category: "site-local" },
	{ range: "ff00::/8", category: "multicast" },
];

const BLOCKED: ReadonlyArray<{ cidr: Cidr; category: string }> = BLOCKED_RANGES.map(({ range, category }) => ({
	cidr: parseCidr(range)!,
	category,
}));

export type AddressVerdict = { allowed: true } | { allowed: false; category: string; range: string };

/**
 * Cloud metadata endpoints (AWS/GCP/Azure/OpenStack, Alibaba, AWS over IPv6): credentials live there, so a range in
 * `allowRanges` never re-allows them; only `allowPrivate` (the guard off) does.
 */
const METADATA: ReadonlyArray<Cidr> = ["169.254.169.254/32", "100.100.100.200/32", "fd00:ec2::254/128"].map(
	(text) => parseCidr(text)!,
);

/** Settings parsed once per fetch. */
export interface CompiledGuard {
	off: boolean;
	allowed: Cidr[];
}

/** Parses the settings; an invalid CIDR is a config error naming it and the key it came from. */
export function compileGuard(settings: FetchGuardSettings | undefined): CompiledGuard {
	const allowed: Cidr[] = [];
	for (const key of ["allowRanges", "allowedRanges"] as const) {
		for (const text of settings?.[key] ?? []) {
			const cidr = parseCidr(text);
			if (!cidr) {
				throw new WebAccessError(`fetchGuard.${key}: "${text}" is not a CIDR range like "198.18.0.0/15"`, {
					kind: "config",
					code: "bad-cidr",
				});
			}
			allowed.push(cidr);
		}
	}
	return { off: settings?.allowPrivate === true, allowed };
}

/** The guard's decision for one address (an IP string as DNS returns it). */
export function checkAddress(address: string, guard: CompiledGuard | FetchGuardSettings | undefined): AddressVerdict {
	const compiled = guard !== undefined && "off" in guard ? guard : compileGuard(guard);
	if (compiled.off) return { allowed: true };
	const ip = parseIp(address);
	if (!ip) return { allowed: false, category: "not an IP address", range: address };
	const embedded = embeddedIpv4(ip);
	const isAllowed = (candidate: IpAddress) => compiled.allowed.some((cidr) => cidrContains(cidr, candidate));
	if (isAllowed(ip) || (embedded && isAllowed(embedded.v4))) {
		const metadata = isMetadata(ip) || (embedded !== undefined && isMetadata(embedded.v4));
		return metadata
			? { allowed: false, category: "cloud metadata: no range re-allows it", range: "metadata" }
			: { allowed: true };
	}
	const own = blockedBy(ip);
	if (own) return { allowed: false, category: own.category, range: own.cidr.text };
	const inner = embedded && blockedBy(embedded.v4);
	if (embedded && inner)
		return { allowed: false, category: `${embedded.form} ${inner.category}`, range: inner.cidr.text };
	return { allowed: true };
}

function isMetadata(ip: IpAddress): boolean {
	return METADATA.some((cidr) => cidrContains(cidr, ip));
}

function blockedBy(ip: IpAddress): { cidr: Cidr; category: string } | undefined {
	return BLOCKED.find(({ cidr }) => cidrContains(cidr, ip));
}

export const defaultLookup: HostLookup = async (hostname) => {
	const answers = await dnsLookup(hostname, { all: true, verbatim: true });
	return answers.map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));
};

/** `URL.hostname` without the brackets of an IPv6 literal. */
export function bareHost(url: URL): string {
	return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Resolves a host and checks every address; throws a "guard" WebAccessError naming the refused address and the
 * setting that would allow it. Any refused answer refuses the host: a name mixing public and private answers is
 * how DNS rebinding works. IP literals are checked without a lookup.
 */
export async function resolveGuarded(
	hostname: string,
	guard: CompiledGuard,
	lookup: HostLookup = defaultLookup,
): Promise<LookupAddress[]> {
	const literal = parseIp(hostname);
	let addresses: LookupAddress[];
	if (literal) {
		addresses = [{ address: formatIp(literal), family: literal.family }];
	} else {
		try {
			addresses = await lookup(hostname);
		} catch (error) {
			const code = (error as { code?: unknown }).code;
			throw new WebAccessError(`DNS lookup failed for ${hostname} (${typeof code === "string" ? code : "error"})`, {
				kind: "transport",
				code: "dns",
				cause: error,
			});
		}
		if (addresses.length === 0) {
			throw new WebAccessError(`DNS lookup for ${hostname} returned no address`, { kind: "transport", code: "dns" });
		}
	}
	for (const { address } of addresses) {
		const verdict = checkAddress(address, guard);
		if (!verdict.allowed) throw guardRefusal(address, hostname, verdict);
	}
	return addresses;
}

function guardRefusal(address: string, hostname: string, verdict: { category: string; range: string }) {
	const fix =
		verdict.range === "metadata"
			? "only fetchGuard.allowPrivate (the guard off) reaches a metadata address"
			: `add "${verdict.range}" (or a narrower range) to fetchGuard.allowRanges, or set fetchGuard.allowPrivate`;
	return new WebAccessError(`refused ${address} (${verdict.category}) for ${hostname}: ${fix}`, {
		kind: "guard",
		code: "guard-refused",
	});
}

/**
 * A net.connect `lookup` answering only from addresses the guard already checked, so the socket connects to exactly
 * those. A host missing from `pins` fails: nothing reaches the network unchecked.
 */
export function pinnedLookup(pins: ReadonlyMap<string, LookupAddress[]>): LookupFunction {
	return (hostname, options, callback) => {
		const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : options.family;
		const pinned = (pins.get(hostname.toLowerCase()) ?? []).filter((a) => !family || a.family === family);
		const first = pinned[0];
		if (!first) {
			const error = Object.assign(new Error(`fetch guard: no checked address for ${hostname}`), { code: "ENOTFOUND" });
			callback(error, "", 4);
		} else if (options.all) {
			(callback as (error: null, addresses: LookupAddress[]) => void)(null, pinned);
		} else {
			callback(null, first.address, first.family);
		}
	};
}
