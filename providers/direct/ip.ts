// IP addresses and CIDR ranges as plain bytes: parsing, prefix matching and the IPv4 address an IPv6 one embeds.
// Pure and dependency-free so the fetch guard's decisions can be tested exhaustively without a network.

/** An address as its bytes: 4 for IPv4, 16 for IPv6. */
export interface IpAddress {
	family: 4 | 6;
	bytes: Uint8Array;
}

/** A range `address/prefix`; `text` is the normalised form shown in messages. */
export interface Cidr {
	family: 4 | 6;
	bytes: Uint8Array;
	prefix: number;
	text: string;
}

/** Strict dotted-quad IPv4 (what DNS answers and URL parsing produce); anything else is undefined. */
export function parseIpv4(text: string): Uint8Array | undefined {
	const parts = text.split(".");
	if (parts.length !== 4) return undefined;
	const bytes = new Uint8Array(4);
	for (let i = 0; i < 4; i++) {
		const part = parts[i]!;
		if (!/^\d{1,3}$/.test(part) || (part.length > 1 && part.startsWith("0"))) return undefined;
		const value = Number(part);
		if (value > 255) return undefined;
		bytes[i] = value;
	}
	return bytes;
}

/** IPv6 with `::` compression, an optional dotted-quad tail and an optional `%zone` (ignored). */
export function parseIpv6(text: string): Uint8Array | undefined {
	let rest = text.replace(/%.*$/, "");
	if (rest.startsWith("[") && rest.endsWith("]")) rest = rest.slice(1, -1);
	const bytes = new Uint8Array(16);
	const halves = rest.split("::");
	if (halves.length > 2) return undefined;
	const head = parseGroups(halves[0]!);
	const tail = halves.length === 2 ? parseGroups(halves[1]!) : [];
	if (head === undefined || tail === undefined) return undefined;
	const total = head.length + tail.length;
	if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
	for (const [i, group] of head.entries()) writeGroup(bytes, i, group);
	for (const [i, group] of tail.entries()) writeGroup(bytes, 8 - tail.length + i, group);
	return bytes;
}

/** Groups of one `::`-half; a trailing dotted quad counts as two groups. */
function parseGroups(text: string): number[] | undefined {
	if (text === "") return [];
	const parts = text.split(":");
	const groups: number[] = [];
	for (let i = 0; i < parts.length; i++) {
		const part = parts[i]!;
		if (i === parts.length - 1 && part.includes(".")) {
			const v4 = parseIpv4(part);
			if (v4 === undefined) return undefined;
			groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
		} else {
			if (!/^[0-9a-f]{1,4}$/i.test(part)) return undefined;
			groups.push(Number.parseInt(part, 16));
		}
	}
	return groups;
}

function writeGroup(bytes: Uint8Array, index: number, group: number): void {
	bytes[index * 2] = group >> 8;
	bytes[index * 2 + 1] = group & 0xff;
}

export function parseIp(text: string): IpAddress | undefined {
	const v4 = parseIpv4(text);
	if (v4) return { family: 4, bytes: v4 };
	const v6 = text.includes(":") ? parseIpv6(text) : undefined;
	return v6 ? { family: 6, bytes: v6 } : undefined;
}

/** Parses `a.b.c.d/n` or `x::y/n` (a bare address means a single host); undefined when invalid. */
export function parseCidr(text: string): Cidr | undefined {
	const trimmed = text.trim();
	const slash = trimmed.lastIndexOf("/");
	const address = parseIp(slash === -1 ? trimmed : trimmed.slice(0, slash));
	if (!address) return undefined;
	const max = address.family === 4 ? 32 : 128;
	const prefixText = slash === -1 ? String(max) : trimmed.slice(slash + 1);
	if (!/^\d{1,3}$/.test(prefixText)) return undefined;
	const prefix = Number(prefixText);
	if (prefix > max) return undefined;
	const bytes = masked(address.bytes, prefix);
	return { family: address.family, bytes, prefix, text: `${formatIp({ family: address.family, bytes })}/${prefix}` };
}

function masked(bytes: Uint8Array, prefix: number): Uint8Array {
	const out = new Uint8Array(bytes.length);
	for (let i = 0; i < bytes.length; i++) {
		const bits = Math.max(0, Math.min(8, prefix - i * 8));
		out[i] = bytes[i]! & ((0xff << (8 - bits)) & 0xff);
	}
	return out;
}

export function cidrContains(cidr: Cidr, address: IpAddress): boolean {
	if (cidr.family !== address.family) return false;
	const whole = cidr.prefix >> 3;
	for (let i = 0; i < whole; i++) if (cidr.bytes[i] !== address.bytes[i]) return false;
	const bits = cidr.prefix & 7;
	if (bits === 0) return true;
	const mask = (0xff << (8 - bits)) & 0xff;
	return (address.bytes[whole]! & mask) === cidr.bytes[whole];
}

/** Where an IPv6 address carries an IPv4 one whose range decides (mapped, compatible, NAT64, 6to4). */
export function embeddedIpv4(address: IpAddress): { v4: IpAddress; form: string } | undefined {
	if (address.family !== 6) return undefined;
	const b = address.bytes;
	const zeros = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
	const last4 = (): IpAddress => ({ family: 4, bytes: b.slice(12, 16) });
	if (zeros(0, 10) && b[10] === 0xff && b[11] === 0xff) return { v4: last4(), form: "IPv4-mapped" };
	// ::/96 minus :: and ::1, which are checked as IPv6 (unspecified, loopback).
	if (zeros(0, 12) && !(zeros(12, 15) && (b[15] ?? 0) <= 1)) return { v4: last4(), form: "IPv4-compatible" };
	if (b[0] === 0x00 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zeros(4, 12)) {
		return { v4: last4(), form: "NAT64" };
	}
	if (b[0] === 0x20 && b[1] === 0x02) return { v4: { family: 4, bytes: b.slice(2, 6) }, form: "6to4" };
	return undefined;
}

export function formatIp(address: IpAddress): string {
	if (address.family === 4) return Array.from(address.bytes).join(".");
	const groups: number[] = [];
	for (let i = 0; i < 16; i += 2) groups.push((address.bytes[i]! << 8) | address.bytes[i + 1]!);
	// Longest run of zero groups (length ≥ 2) becomes "::".
	let bestStart = -1;
	let bestLength = 1;
	for (let i = 0; i < 8; ) {
		if (groups[i] !== 0) {
			i++;
			continue;
		}
		let j = i;
		while (j < 8 && groups[j] === 0) j++;
		if (j - i > bestLength) [bestStart, bestLength] = [i, j - i];
		i = j;
	}
	const hex = groups.map((group) => group.toString(16));
	if (bestStart === -1) return hex.join(":");
	return `${hex.slice(0, bestStart).join(":")}::${hex.slice(bestStart + bestLength).join(":")}`;
}
