// The direct fetcher's private-network guard as pure decisions: address parsing, CIDR matching (against a BigInt
// oracle), which ranges are refused, what allowedRanges / allowPrivate re-allow, DNS answers and the pinned lookup.

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isWebAccessError } from "../engine/errors.ts";
import {
	checkAddress,
	cidrContains,
	compileGuard,
	type FetchGuardSettings,
	formatIp,
	type LookupAddress,
	parseCidr,
	parseIp,
	pinnedLookup,
	resolveGuarded,
} from "../providers/direct/guard.ts";

const refusedByDefault: Array<[string, string]> = [
	["127.0.0.1", "loopback"],
	["127.255.255.254", "loopback"],
	["10.0.0.1", "private"],
	["172.16.0.1", "private"],
	["172.31.255.255", "private"],
	["192.168.1.10", "private"],
	["169.254.169.254", "link-local, cloud metadata"],
	["100.64.0.1", "carrier-grade NAT"],
	["100.127.255.255", "carrier-grade NAT"],
	["198.18.0.5", "benchmarking, used by TUN-mode proxies"],
	["198.19.255.255", "benchmarking, used by TUN-mode proxies"],
	["0.0.0.0", "unspecified"],
	["224.0.0.251", "multicast"],
	["255.255.255.255", "reserved"],
	["::1", "loopback"],
	["::", "unspecified"],
	["fc00::1", "private"],
	["fd12:3456::1", "private"],
	["fe80::1", "link-local"],
	["fe80::1%eth0", "link-local"],
	["ff02::1", "multicast"],
	["::ffff:127.0.0.1", "IPv4-mapped loopback"],
	["::ffff:7f00:1", "IPv4-mapped loopback"],
	["::ffff:169.254.169.254", "IPv4-mapped link-local, cloud metadata"],
	["::127.0.0.1", "IPv4-compatible loopback"],
	["::0.0.0.2", "IPv4-compatible unspecified"],
	["64:ff9b::10.0.0.1", "NAT64 private"],
	["2002:a00:1::", "6to4 private"],
];

const allowedByDefault = [
	"8.8.8.8",
	"1.1.1.1",
	"172.32.0.1",
	"100.128.0.1",
	"198.20.0.1",
	"2606:4700:4700::1111",
	"::ffff:8.8.8.8",
	"64:ff9b::8.8.8.8",
];

describe("checkAddress", () => {
	it.each(refusedByDefault)("refuses %s (%s) by default", (address, category) => {
		expect(checkAddress(address, undefined)).toEqual({ allowed: false, category, range: expect.any(String) });
	});

	it.each(allowedByDefault)("allows the public address %s", (address) => {
		expect(checkAddress(address, undefined)).toEqual({ allowed: true });
	});

	it("names the range to re-allow, in the IPv4 form for mapped addresses", () => {
		expect(checkAddress("198.18.0.5", {})).toMatchObject({ range: "198.18.0.0/15" });
		expect(checkAddress("::ffff:127.0.0.1", {})).toMatchObject({ range: "127.0.0.0/8" });
		expect(checkAddress("fe80::1", {})).toMatchObject({ range: "fe80::/10" });
	});

	it("re-allows exactly the configured ranges", () => {
		const tun: FetchGuardSettings = { allowedRanges: ["198.18.0.0/15"] };
		expect(checkAddress("198.18.0.5", tun)).toEqual({ allowed: true });
		expect(checkAddress("198.19.1.1", tun)).toEqual({ allowed: true });
		expect(checkAddress("10.0.0.1", tun)).toMatchObject({ allowed: false, category: "private" });
		const oneHost: FetchGuardSettings = { allowedRanges: ["127.0.0.1/32"] };
		expect(checkAddress("127.0.0.1", oneHost)).toEqual({ allowed: true });
		expect(checkAddress("127.0.0.2", oneHost)).toMatchObject({ allowed: false, category: "loopback" });
		// An IPv4 range also covers that range's IPv4-mapped IPv6 form.
		expect(checkAddress("::ffff:127.0.0.1", oneHost)).toEqual({ allowed: true });
		expect(checkAddress("fd00::5", { allowedRanges: ["fd00::/8"] })).toEqual({ allowed: true });
	});

	it("takes allowRanges as allowedRanges does, and never re-allows a cloud metadata address by a range", () => {
		expect(checkAddress("127.0.0.1", { allowRanges: ["127.0.0.1/32"] })).toEqual({ allowed: true });
		expect(checkAddress("127.0.0.2", { allowRanges: ["127.0.0.1/32"] })).toMatchObject({ allowed: false });
		for (const address of ["169.254.169.254", "::ffff:169.254.169.254", "100.100.100.200", "fd00:ec2::254"]) {
			const verdict = checkAddress(address, { allowRanges: ["169.254.0.0/16", "100.64.0.0/10", "fd00::/8"] });
			expect(verdict).toEqual({ allowed: false, category: "cloud metadata: no range re-allows it", range: "metadata" });
			expect(checkAddress(address, { allowPrivate: true })).toEqual({ allowed: true });
		}
		expect(checkAddress("169.254.1.1", { allowRanges: ["169.254.0.0/16"] })).toEqual({ allowed: true });
		expect(() => compileGuard({ allowRanges: ["x/1"] })).toThrowError(/^fetchGuard\.allowRanges: "x\/1"/);
	});

	it("allows everything when allowPrivate is set", () => {
		for (const [address] of refusedByDefault) {
			expect(checkAddress(address, { allowPrivate: true })).toEqual({ allowed: true });
		}
	});

	it("rejects an invalid allowedRanges entry as a config error naming it", () => {
		const attempt = () => compileGuard({ allowedRanges: ["198.18.0.0/33"] });
		expect(attempt).toThrowError(/"198\.18\.0\.0\/33" is not a CIDR range/);
		try {
			attempt();
		} catch (error) {
			expect(isWebAccessError(error) && error.kind).toBe("config");
		}
	});
});

describe("parseIp / parseCidr", () => {
	it.each([
		["1.2.3.4", "1.2.3.4"],
		["::", "::"],
		["0:0:0:0:0:0:0:1", "::1"],
		["2001:DB8:0:0:1:0:0:1", "2001:db8::1:0:0:1"],
		["::ffff:1.2.3.4", "::ffff:102:304"],
		["[fe80::1]", "fe80::1"],
	])("parses %s as %s", (text, formatted) => {
		const ip = parseIp(text);
		expect(ip && formatIp(ip)).toBe(formatted);
	});

	it.each([
		"1.2.3",
		"1.2.3.4.5",
		"256.1.1.1",
		"01.2.3.4",
		"1.2.3.-1",
		"1::2::3",
		"1:2:3:4:5:6:7:8:9",
		"12345::",
		"g::1",
		"",
	])("rejects %j", (text) => {
		expect(parseIp(text)).toBeUndefined();
	});

	it("normalises a CIDR's host bits and accepts a bare address as a single host", () => {
		expect(parseCidr("10.1.2.3/8")?.text).toBe("10.0.0.0/8");
		expect(parseCidr("fe80::1234/10")?.text).toBe("fe80::/10");
		expect(parseCidr("127.0.0.1")?.text).toBe("127.0.0.1/32");
		expect(parseCidr("10.0.0.0/")).toBeUndefined();
		expect(parseCidr("::/129")).toBeUndefined();
	});

	it("matches IPv4 prefixes like integer arithmetic does", () => {
		const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
		fc.assert(
			fc.property(v4, v4, fc.integer({ min: 0, max: 32 }), (range, address, prefix) => {
				const toInt = (parts: number[]) => parts.reduce((sum, part) => sum * 256n + BigInt(part), 0n);
				const mask = prefix === 0 ? 0n : ((1n << 32n) - 1n) ^ ((1n << BigInt(32 - prefix)) - 1n);
				const expected = (toInt(range) & mask) === (toInt(address) & mask);
				const cidr = parseCidr(`${range.join(".")}/${prefix}`)!;
				return cidrContains(cidr, parseIp(address.join("."))!) === expected;
			}),
		);
	});

	it("formats and re-parses any IPv6 address to the same bytes", () => {
		fc.assert(
			fc.property(fc.uint8Array({ minLength: 16, maxLength: 16 }), (bytes) => {
				const text = formatIp({ family: 6, bytes });
				expect(Array.from(parseIp(text)!.bytes)).toEqual(Array.from(bytes));
			}),
		);
	});
});

const answers =
	(table: Record<string, string[]>) =>
	async (hostname: string): Promise<LookupAddress[]> => {
		const list = table[hostname];
		if (!list) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" });
		return list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
	};

describe("resolveGuarded", () => {
	it("refuses a host whose DNS answer is private, naming the address and the fix", async () => {
		const lookup = answers({ "evil.test": ["10.0.0.1"] });
		const error = await resolveGuarded("evil.test", compileGuard(undefined), lookup).catch((e: unknown) => e);
		expect(isWebAccessError(error) && error.kind).toBe("guard");
		expect(String((error as Error).message)).toBe(
			'refused 10.0.0.1 (private) for evil.test: add "10.0.0.0/8" (or a narrower range) to fetchGuard.allowRanges, or set fetchGuard.allowPrivate',
		);
	});

	it("refuses a host when any one of its answers is refused (DNS rebinding)", async () => {
		const lookup = answers({ "mixed.test": ["93.184.216.34", "127.0.0.1"] });
		await expect(resolveGuarded("mixed.test", compileGuard({}), lookup)).rejects.toThrow(/refused 127\.0\.0\.1/);
	});

	it("re-allows a TUN-mode proxy's fake-IP answer via allowedRanges and pins that answer", async () => {
		const lookup = answers({ "tun.test": ["198.18.0.5"] });
		await expect(resolveGuarded("tun.test", compileGuard({}), lookup)).rejects.toThrow(
			'refused 198.18.0.5 (benchmarking, used by TUN-mode proxies) for tun.test: add "198.18.0.0/15" (or a narrower range) to fetchGuard.allowRanges, or set fetchGuard.allowPrivate',
		);
		const guard = compileGuard({ allowedRanges: ["198.18.0.0/15"] });
		const checked = await resolveGuarded("tun.test", guard, lookup);
		expect(checked).toEqual([{ address: "198.18.0.5", family: 4 }]);
		const connectLookup = pinnedLookup(new Map([["tun.test", checked]]));
		const single = await new Promise((resolve) =>
			connectLookup("tun.test", {}, (error, address, family) => resolve({ error, address, family })),
		);
		expect(single).toEqual({ error: null, address: "198.18.0.5", family: 4 });
	});

	it("checks IP literals without asking DNS", async () => {
		const lookup = async () => {
			throw new Error("must not be called");
		};
		await expect(resolveGuarded("127.0.0.1", compileGuard({}), lookup)).rejects.toThrow(
			/refused 127\.0\.0\.1 \(loopback\)/,
		);
		await expect(resolveGuarded("::1", compileGuard({}), lookup)).rejects.toThrow(/refused ::1 \(loopback\)/);
		await expect(resolveGuarded("8.8.8.8", compileGuard({}), lookup)).resolves.toEqual([
			{ address: "8.8.8.8", family: 4 },
		]);
	});

	it("turns a failed lookup into a transport error", async () => {
		const error = await resolveGuarded("nowhere.test", compileGuard({}), answers({})).catch((e: unknown) => e);
		expect(isWebAccessError(error) && [error.kind, error.message]).toEqual([
			"transport",
			"DNS lookup failed for nowhere.test (ENOTFOUND)",
		]);
	});
});

describe("pinnedLookup", () => {
	const pins = new Map<string, LookupAddress[]>([
		[
			"dual.test",
			[
				{ address: "93.184.216.34", family: 4 },
				{ address: "2606:2800:220:1::1", family: 6 },
			],
		],
	]);
	const lookup = pinnedLookup(pins);
	const call = (hostname: string, options: Parameters<typeof lookup>[1]) =>
		new Promise<unknown[]>((resolve) => lookup(hostname, options, (...args: unknown[]) => resolve(args)));

	it("answers all checked addresses, or those of the asked family", async () => {
		expect(await call("dual.test", { all: true })).toEqual([null, pins.get("dual.test")]);
		expect(await call("DUAL.test", { family: 6 })).toEqual([null, "2606:2800:220:1::1", 6]);
		expect(await call("dual.test", { family: "IPv4", all: true })).toEqual([null, [pins.get("dual.test")![0]]]);
	});

	it("fails for a host the guard did not check", async () => {
		const [error] = await call("other.test", {});
		expect(error).toMatchObject({ code: "ENOTFOUND" });
	});
});
