// The team store's Lua scripts: each runs atomically inside Redis, so processes on different machines never
// interleave inside one update. Spend is kept as each machine's running total for the day (its local store is the
// machine's ledger), merged by the larger call count: pushing a total twice, or after an outage, counts it once.

/** Merges ARGV[2], this machine's totals ({provider: [usd, calls, estimated]}), into KEYS[1] under ARGV[1]. */
const MERGE = `
local mine = cjson.decode(ARGV[2])
local known = redis.call("HGET", KEYS[1], ARGV[1])
if known then
	for p, e in pairs(cjson.decode(known)) do
		local n = mine[p]
		if n == nil or n[2] < e[2] or (n[2] == e[2] and n[1] < e[1]) then mine[p] = e end
	end
end
redis.call("HSET", KEYS[1], ARGV[1], cjson.encode(mine))
redis.call("PEXPIRE", KEYS[1], ARGV[4])
`;

/**
 * pull: KEYS spend, held, marks; ARGV machine, totals JSON ("" to read only), now, day key TTL.
 * Merges this machine's totals, drops expired marks, returns [spend, held, marks] as HGETALL lists.
 */
export const PULL_SCRIPT = `
if ARGV[2] ~= "" then
${MERGE}end
local now = tonumber(ARGV[3])
local marks = redis.call("HGETALL", KEYS[3])
local live = {}
for i = 1, #marks, 2 do
	if cjson.decode(marks[i + 1]).exp < now then
		redis.call("HDEL", KEYS[3], marks[i])
	else
		live[#live + 1] = marks[i]
		live[#live + 1] = marks[i + 1]
	end
end
return { redis.call("HGETALL", KEYS[1]), redis.call("HGETALL", KEYS[2]), live }
`;

/** settle: KEYS spend, held; ARGV machine, totals JSON, reservation id ("" for none), day key TTL. */
export const SETTLE_SCRIPT = `
if ARGV[3] ~= "" then redis.call("HDEL", KEYS[2], ARGV[3]) end
${MERGE}return 1
`;

/** hold: KEYS held; ARGV reservation id, hold JSON, key TTL. A reservation's price held for the team to see. */
export const HOLD_SCRIPT = `
redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
redis.call("PEXPIRE", KEYS[1], ARGV[3])
return 1
`;

/** mark: KEYS marks; ARGV field, mark JSON (with at and exp), at, key TTL. Newest wins. */
export const MARK_SCRIPT = `
local known = redis.call("HGET", KEYS[1], ARGV[1])
if known and cjson.decode(known).at > tonumber(ARGV[3]) then return 0 end
redis.call("HSET", KEYS[1], ARGV[1], ARGV[2])
redis.call("PEXPIRE", KEYS[1], ARGV[4])
return 1
`;

/** The keys of one team (a prefix) and day: spend totals by machine, held reservations, marks by field. */
export function teamKeys(prefix: string, day: string) {
	return { spend: `${prefix}spend:${day}`, held: `${prefix}held:${day}`, marks: `${prefix}marks` };
}
