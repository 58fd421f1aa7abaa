// The team store: this machine's local store (the call path's ledger, kept whatever Redis does) joined to a Redis
// that several machines share. Before a call one pull (one round trip, bounded by REDIS_DEFAULTS.timeoutMs) brings
// the other machines' spend, held reservations and marks, pushes this machine's day totals and asks the shared result
// cache; reservations, settles, marks and shared results are queued (writes.ts), never awaited. Redis away: calls go on
// with the local store, said once.

import { createHash } from "node:crypto";
import { hostname } from "node:os";
import { formatUsd, utcDay } from "../../spend.ts";
import type {
	CooldownMark,
	KeyMark,
	SharedAnswer,
	SharedLookup,
	StateStore,
	StoreChanges,
	StoreHealth,
} from "../contract.ts";
import { LEDGER_DEFAULTS } from "../ledger.ts";
import { createTeamCache, type TeamCacheCaps } from "./cache.ts";
import { type Connection, connect, REDIS_DEFAULTS } from "./client.ts";
import { teamKeys } from "./scripts.ts";
import { redactStoreUrl } from "./url.ts";
import { decodeView, emptyView, othersUsd, type StoredMark, type TeamView, teamDay, totalsOf } from "./view.ts";
import { createWriteQueue } from "./writes.ts";

const DAY_KEY_TTL_MS = 2 * 86_400_000;
/** A cleared mark stays this long, so every process that knew the mark reads that it is gone. */
const CLEARED_MARK_MS = 10 * 60_000;
/** An exhausted key without an end is kept a day: a key's quota resets daily at most providers. */
const EXHAUSTED_MARK_MS = 86_400_000;

export interface RedisStoreOptions {
	url: string;
	/** This machine's store (local/), where every record also goes. */
	local: StateStore;
	/** Where the local store lives: with the host name, it names this machine in Redis (hashed). */
	dir: string;
	now?: () => number;
	timeoutMs?: number;
	/** Team keys' prefix, so teams (or tests) can share one Redis. */
	prefix?: string;
	/** For `status`: pulls without pushing this machine's totals and writes nothing. */
	readOnly?: boolean;
	/** The shared result cache's caps (executor/store/redis/cache.ts TEAM_CACHE_DEFAULTS); false: results are not shared. */
	cache?: Partial<TeamCacheCaps> | false;
}

export type RedisStore = StateStore &
	Required<Pick<StateStore, "refresh" | "notice" | "drain">> & {
		/** The shared result cache's size, read once (bounded); undefined without one or while Redis is away. */
		cacheSize(): Promise<StoreHealth["cache"]>;
	};

export function createRedisStore(options: RedisStoreOptions): RedisStore {
	const { url, local, now = Date.now, timeoutMs = REDIS_DEFAULTS.timeoutMs, prefix = "pwa:" } = options;
	const machine = createHash("sha256").update(`${hostname()}\0${options.dir}`).digest("hex").slice(0, 16);
	const shown = redactStoreUrl(url);
	// Back after an outage: pull at once, so what this machine spent meanwhile reaches the team without a call.
	const connection: Connection = connect(url, timeoutMs, () => {
		// A new connection may reach a server that restarted empty: the next pull hands the totals over again.
		unpushed = true;
		if (up === false) void pullOnce();
	});
	let view: TeamView = emptyView();
	let viewDay = utcDay(now());
	let seen = new Map<string, number>();
	let up: boolean | undefined;
	let notice: string | undefined;
	let pulling: Promise<SharedAnswer | undefined> | undefined;
	/** Whether Redis may lack this machine's latest day totals (a new connection, or a settle not sent). */
	let unpushed = true;
	const writes = new Set<Promise<unknown>>();
	/** Marks not yet in Redis (sent again once it answers); newest per field. */
	const unsent = new Map<string, StoredMark>();

	const down = () => {
		const why = connection.lastError() ?? `no answer within ${timeoutMs} ms`;
		return `team store ${shown} unreachable (${why}): calls use this machine's store and reconnect on their own`;
	};
	const setUp = (value: boolean) => {
		if (up === value) return;
		const was = up;
		up = value;
		if (!value) notice = down();
		else if (was === false)
			notice = `team store ${shown} reachable again: this machine's spend is counted in the team's`;
	};
	const track = (write: Promise<unknown> | undefined) => {
		if (write === undefined) return;
		const held = write.then(
			() => undefined,
			() => setUp(false),
		);
		writes.add(held);
		void held.finally(() => writes.delete(held));
	};
	const client = () => (up === true ? connection.client() : undefined);
	// The day's keys, built again only when the UTC day turns (every pull and spend read asks for them).
	let keysOf: { day: string; keys: ReturnType<typeof teamKeys> } | undefined;
	const keys = () => {
		const day = utcDay(now());
		if (keysOf?.day !== day) keysOf = { day, keys: teamKeys(prefix, day) };
		return keysOf.keys;
	};
	const queue = createWriteQueue({
		client,
		keys,
		machine,
		totals: () => JSON.stringify(totalsOf(local.today())),
		failed: () => {
			unpushed = true;
			setUp(false);
		},
		unsent: (field, mark) => unsent.set(field, mark),
		track,
		dayKeyTtlMs: DAY_KEY_TTL_MS,
		holdTtlMs: LEDGER_DEFAULTS.holdMs * 2,
	});
	const sendMark = (field: string, mark: StoredMark) => {
		if (client() === undefined || options.readOnly) unsent.set(field, mark);
		else queue.mark(field, mark);
	};

	const cache =
		options.cache === false || options.readOnly
			? undefined
			: createTeamCache({ client, prefix, now, queue, ...(options.cache ? { caps: options.cache } : {}) });

	const pull = async (lookup?: SharedLookup): Promise<SharedAnswer | undefined> => {
		// Connected (the usual call): no turn of the event loop spent asking.
		if (connection.client()?.status !== "ready") {
			const waitMs = connection.everReady() ? timeoutMs : REDIS_DEFAULTS.connectTimeoutMs;
			if (!(await connection.ready(waitMs))) {
				setUp(false);
				return undefined;
			}
		}
		const sender = connection.client()!;
		const { spend, held, marks } = keys();
		const day = utcDay(now());
		// The holds, settles and releases queued since the last call ride in this pull (one command, one write).
		const folded = queue.fold();
		// Settles push the totals with the next write; a pull pushes them only when Redis may not have them: a
		// settle folded into it, a new connection (a server restarted empty) or a settle that could not be sent.
		// Reading them costs a read of the day's log, so a pull with nothing to push does not.
		const push = !options.readOnly && (unpushed || folded.settled);
		const totals = push ? JSON.stringify(totalsOf(local.today())) : "";
		const extra = cache?.pullArgs(lookup) ?? { keys: [], argv: ["", ""] };
		const args = [spend, held, marks, ...extra.keys, machine, totals, String(now()), String(DAY_KEY_TTL_MS)];
		try {
			const reply = await sender.pull(3 + extra.keys.length, ...args, ...extra.argv, ...folded.argv);
			if (totals !== "") unpushed = false;
			view = decodeView([reply[0], reply[1], reply[2]], machine, now());
			viewDay = day;
			setUp(true);
			for (const [field, mark] of [...unsent]) {
				unsent.delete(field);
				sendMark(field, mark);
			}
			return cache?.answer(reply);
		} catch {
			// What was folded into it may not have reached Redis: the totals go again with the next pull.
			if (folded.settled) unpushed = true;
			setUp(false);
			return undefined;
		}
	};
	/** The pull of calls without a lookup: one at a time, shared by the calls that come meanwhile. */
	const pullOnce = () => {
		pulling ??= pull().finally(() => {
			pulling = undefined;
		});
		return pulling;
	};
	const currentView = () => (viewDay === utcDay(now()) ? view : emptyView());

	return {
		async refresh(lookup) {
			// A call with a lookup pulls on its own (its keys are its own); the others share one pull.
			if (lookup === undefined || cache === undefined || up === false) {
				const pulled = pullOnce();
				// While Redis is away a call does not wait for it: the pull goes on beside the call.
				if (up !== false) await pulled;
				return undefined;
			}
			return pull(lookup);
		},
		awaitShared: (lookup, waitMs, signal) =>
			cache === undefined ? Promise.resolve({ kind: "run" }) : cache.awaitShared(lookup, waitMs, signal),
		share(put) {
			if (cache === undefined || options.readOnly) return;
			cache.share(put);
		},
		async cacheSize() {
			if (cache === undefined && !options.readOnly) return undefined;
			const reader = cache ?? createTeamCache({ client, prefix, now, queue });
			return reader.size();
		},
		notice() {
			const said = notice;
			notice = undefined;
			return said;
		},
		sync(): StoreChanges {
			const changes = local.sync();
			for (const [field, mark] of currentView().marks) {
				if ((seen.get(field) ?? -1) >= mark.at) continue;
				seen.set(field, mark.at);
				if ("c" in mark) changes.cooldowns.push(mark.c);
				else changes.keys.push(mark.k);
			}
			if (seen.size > 10_000) seen = new Map();
			return changes;
		},
		reserve(request) {
			const team = currentView();
			const mine = request.providerDayUsd === undefined ? 0 : othersUsd(team, request.provider);
			const all = request.totalDayUsd === undefined ? 0 : othersUsd(team);
			// The local ledger decides, against the budgets less what the other machines spent and hold (a budget
			// left at 0 refuses: the log keeps amounts, never a negative one).
			const verdict = local.reserve({
				...request,
				...(request.providerDayUsd === undefined ? {} : { providerDayUsd: Math.max(0, request.providerDayUsd - mine) }),
				...(request.totalDayUsd === undefined ? {} : { totalDayUsd: Math.max(0, request.totalDayUsd - all) }),
			});
			if (!verdict.granted) {
				const day = teamDay(local.today(), team);
				const spent = (provider?: string) =>
					day.providers.reduce((sum, e) => (provider === undefined || e.provider === provider ? sum + e.usd : sum), 0);
				const own = request.providerDayUsd;
				const reason =
					own !== undefined && spent(request.provider) + mine >= own - 1e-12
						? `budget reached: ${formatUsd(spent(request.provider))} of ${formatUsd(own)} today over the team (the provider's own budget)`
						: `budget reached: ${formatUsd(spent())} of ${formatUsd(request.totalDayUsd ?? 0)} today over the team`;
				return { granted: false, reason: team.others.size + team.othersHeld.size > 0 ? reason : verdict.reason };
			}
			if (client() !== undefined && !options.readOnly) {
				const hold = JSON.stringify({ p: request.provider, usd: request.usd, at: now(), m: machine });
				queue.hold(verdict.id, hold);
			}
			return verdict;
		},
		settle(provider, usd, estimated, id) {
			local.settle(provider, usd, estimated, id);
			if (options.readOnly) return;
			if (client() !== undefined) queue.settle(id);
			else unpushed = true;
		},
		release(id) {
			local.release(id);
			if (client() !== undefined && !options.readOnly) queue.release(id);
		},
		putCooldown(mark: CooldownMark) {
			local.putCooldown(mark);
			const at = now();
			const exp = mark.untilMs === 0 ? at + CLEARED_MARK_MS : Math.max(mark.untilMs, at) + CLEARED_MARK_MS;
			sendMark(`c:${mark.provider}`, { at, exp, c: mark });
		},
		putKey(mark: KeyMark) {
			local.putKey(mark);
			const at = now();
			const end =
				mark.state === "exhausted" && mark.untilMs === undefined ? at + EXHAUSTED_MARK_MS : (mark.untilMs ?? at);
			sendMark(`k:${mark.fingerprint}`, { at, exp: Math.max(end, at) + CLEARED_MARK_MS, k: mark });
		},
		today: () => teamDay(local.today(), currentView()),
		health(): StoreHealth {
			const machineDay = local.today();
			const base = { kind: "redis", location: shown };
			const spend = { machine: machineDay.providers, team: teamDay(machineDay, currentView()).providers };
			const localHealth = local.health();
			const localNote = localHealth.state === "ok" ? "" : `; this machine's store: ${localHealth.detail ?? "degraded"}`;
			if (up === true) {
				return localHealth.state === "ok"
					? { ...base, state: "ok", spend }
					: { ...base, state: "degraded", detail: localNote.slice(2), spend };
			}
			const detail = up === undefined ? `not reached yet${localNote}` : `${down()}${localNote}`;
			return { ...base, state: "degraded", detail, spend };
		},
		flush: () => local.flush(),
		async drain() {
			local.flush();
			queue.flush();
			// Spend settled while Redis was away: one last try to hand this machine's totals over (bounded).
			if (up === false && !options.readOnly) await pullOnce();
			const bound = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
			await Promise.race([Promise.allSettled([...writes]), bound]);
			await connection.close();
			local.close();
		},
		close() {
			void connection.close();
			local.close();
		},
	};
}
