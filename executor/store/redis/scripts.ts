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
 * pull: KEYS spend, held, marks[, cache entries…, pending]; ARGV machine, totals JSON ("" to read only), now, day key
 * TTL, pending ms and process token ("" without cache keys), reservation ids to drop (space separated), hold TTL,
 * then holds as id, JSON pairs. Takes in the writes queued since the last call (writes.ts), merges this machine's
 * totals, drops expired marks, returns [spend, held, marks] as HGETALL lists; with cache keys also the first entry
 * found and its PTTL, or "" and 1 when this process now holds the pending mark (SET NX PX), "" and 0 when another does.
 */
export const PULL_SCRIPT = `
for i = 9, #ARGV, 2 do redis.call("HSET", KEYS[2], ARGV[i], ARGV[i + 1]) end
if #ARGV > 8 then redis.call("PEXPIRE", KEYS[2], ARGV[8]) end
for id in string.gmatch(ARGV[7], "%S+") do redis.call("HDEL", KEYS[2], id) end
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
local out = { redis.call("HGETALL", KEYS[1]), redis.call("HGETALL", KEYS[2]), live }
if #KEYS > 3 then
	for i = 4, #KEYS - 1 do
		local text = redis.call("GET", KEYS[i])
		if text then
			out[4] = text
			out[5] = redis.call("PTTL", KEYS[i])
			return out
		end
	end
	out[4] = ""
	out[5] = redis.call("SET", KEYS[#KEYS], ARGV[6], "NX", "PX", ARGV[5]) and 1 or 0
end
return out
`;

/** settle: KEYS spend, held; ARGV machine, totals JSON, settled reservation ids (space separated), day key TTL. */
export const SETTLE_SCRIPT = `
for id in string.gmatch(ARGV[3], "%S+") do redis.call("HDEL", KEYS[2], id) end
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

/**
 * share: KEYS entry, pending, index, sizes, bytes; ARGV member, text ("" shares nothing), TTL, now, max entries, max
 * bytes, entry prefix, process token. Stores the entry with its TTL (PX), indexes it by expiry, drops what expired
 * and then the soonest to expire while the cache is over either cap, and clears this process's pending mark.
 */
export const SHARE_SCRIPT = `
if redis.call("GET", KEYS[2]) == ARGV[8] then redis.call("DEL", KEYS[2]) end
if ARGV[2] == "" then return 0 end
local now = tonumber(ARGV[4])
local ttl = tonumber(ARGV[3])
local bytes = tonumber(redis.call("GET", KEYS[5]) or "0")
local function drop(member)
	bytes = bytes - tonumber(redis.call("HGET", KEYS[4], member) or "0")
	redis.call("HDEL", KEYS[4], member)
	redis.call("ZREM", KEYS[3], member)
end
for _, member in ipairs(redis.call("ZRANGEBYSCORE", KEYS[3], "-inf", now)) do drop(member) end
drop(ARGV[1])
redis.call("SET", KEYS[1], ARGV[2], "PX", ttl)
redis.call("ZADD", KEYS[3], now + ttl, ARGV[1])
redis.call("HSET", KEYS[4], ARGV[1], #ARGV[2])
bytes = bytes + #ARGV[2]
while redis.call("ZCARD", KEYS[3]) > tonumber(ARGV[5]) or bytes > tonumber(ARGV[6]) do
	local first = redis.call("ZRANGE", KEYS[3], 0, 0)[1]
	if not first then break end
	drop(first)
	redis.call("DEL", ARGV[7] .. first)
end
if bytes < 0 then bytes = 0 end
redis.call("SET", KEYS[5], bytes)
for i = 3, 5 do
	if redis.call("PTTL", KEYS[i]) < ttl then redis.call("PEXPIRE", KEYS[i], ttl) end
end
return 1
`;

/** cacheSize: KEYS index, sizes; ARGV now. The live entries and their bytes (read only). */
export const CACHE_SIZE_SCRIPT = `
local members = redis.call("ZRANGEBYSCORE", KEYS[1], "(" .. ARGV[1], "+inf")
local bytes = 0
for _, member in ipairs(members) do bytes = bytes + tonumber(redis.call("HGET", KEYS[2], member) or "0") end
return { #members, bytes }
`;

/**
 * The keys of one team (a prefix) and day: spend totals by machine, held reservations, marks by field; the shared
 * result cache's index (members by expiry), their sizes and the total of their bytes; and, per hashed cache key, an
 * entry and a pending mark.
 */
export function teamKeys(prefix: string, day: string) {
	return {
		spend: `${prefix}spend:${day}`,
		held: `${prefix}held:${day}`,
		marks: `${prefix}marks`,
		cacheIndex: `${prefix}cache:index`,
		cacheSizes: `${prefix}cache:sizes`,
		cacheBytes: `${prefix}cache:bytes`,
		entryPrefix: `${prefix}r:`,
		pendingPrefix: `${prefix}p:`,
	};
}
