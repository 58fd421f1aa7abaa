// The team store's writes, queued behind the call and sent together: at the next turn of the event loop (after the
// answer is handed back) as one pipeline in one socket write; holds, settles and releases ride in the next pull's own
// write instead when a pull starts first (marks and shared results wait for the pipeline). A hold and the settle or
// release of the same reservation in one batch are sent as the settle alone (or not at all), and a batch's settles
// push this machine's day totals once, encoded when the batch is sent.

import type { ChainableCommander } from "ioredis";
import type { TeamClient } from "./client.ts";
import type { teamKeys } from "./scripts.ts";
import type { StoredMark } from "./view.ts";

/** A pipeline with the team store's scripts (client.ts defines them on the client and its pipelines). */
export type TeamPipeline = ChainableCommander & {
	settleSpend(keys: [string, string], ...argv: string[]): TeamPipeline;
	hold(keys: [string], ...argv: string[]): TeamPipeline;
	mark(keys: [string], ...argv: string[]): TeamPipeline;
	share(keys: [string, string, string, string, string], ...argv: string[]): TeamPipeline;
};

export interface WriteDeps {
	/** The client while Redis is up, else undefined (the batch is dropped, its marks kept for later). */
	client(): TeamClient | undefined;
	keys(): ReturnType<typeof teamKeys>;
	machine: string;
	/** This machine's day totals as Redis keeps them (view.ts Totals), as JSON. */
	totals(): string;
	/** A batch failed: Redis is taken as down until a pull answers. */
	failed(): void;
	/** A mark that did not reach Redis, kept to send again. */
	unsent(field: string, mark: StoredMark): void;
	track(write: Promise<unknown>): void;
	dayKeyTtlMs: number;
	/** How long a hold stays in Redis if its settle never comes. */
	holdTtlMs: number;
}

export interface WriteQueue {
	hold(id: string, text: string): void;
	settle(id: string | undefined): void;
	release(id: string): void;
	mark(field: string, mark: StoredMark): void;
	/** Another command for the next batch (the shared cache's writes). */
	also(add: (pipe: TeamPipeline) => void): void;
	/**
	 * The queued holds, settles and releases as a pull's arguments (scripts.ts PULL_SCRIPT: ids to drop, hold TTL,
	 * holds), taken out of the queue; whether a settle was among them (the pull then pushes the totals).
	 */
	fold(): { argv: string[]; settled: boolean };
	/** Moves what is queued into `pipe`; the returned call reports whether the pipeline's writes all succeeded. */
	into(pipe: TeamPipeline): ((ok: boolean) => void) | undefined;
	/** Sends what is queued now, as its own pipeline. */
	flush(): void;
}

export function createWriteQueue(deps: WriteDeps): WriteQueue {
	let holds = new Map<string, string>();
	let settled: string[] = [];
	let settles = 0;
	let released: string[] = [];
	let marks = new Map<string, StoredMark>();
	let extras: Array<(pipe: TeamPipeline) => void> = [];
	let scheduled = false;
	const size = () => holds.size + settles + released.length + marks.size + extras.length;
	const queued = () => {
		if (scheduled) return;
		scheduled = true;
		setImmediate(() => {
			scheduled = false;
			queue.flush();
		});
	};
	/** The holds, settles and releases queued, handed over and forgotten. */
	const takeLedger = () => {
		const batch = { holds, settled, settles, released };
		holds = new Map();
		settled = [];
		settles = 0;
		released = [];
		return batch;
	};
	const take = () => {
		const batch = { ...takeLedger(), marks, extras };
		marks = new Map();
		extras = [];
		return batch;
	};

	const queue: WriteQueue = {
		hold(id, text) {
			holds.set(id, text);
			queued();
		},
		settle(id) {
			settles++;
			// Its hold never left this process: neither needs to reach Redis but the totals.
			if (id !== undefined && !holds.delete(id)) settled.push(id);
			queued();
		},
		release(id) {
			if (holds.delete(id)) return;
			released.push(id);
			queued();
		},
		mark(field, mark) {
			marks.set(field, mark);
			queued();
		},
		also(add) {
			extras.push(add);
			queued();
		},
		fold() {
			const batch = takeLedger();
			const argv = [[...batch.settled, ...batch.released].join(" "), String(deps.holdTtlMs)];
			for (const [id, text] of batch.holds) argv.push(id, text);
			return { argv, settled: batch.settles > 0 };
		},
		into(pipe) {
			if (size() === 0) return undefined;
			const batch = take();
			const keys = deps.keys();
			const holdTtl = String(deps.holdTtlMs);
			for (const [id, text] of batch.holds) pipe.hold([keys.held], id, text, holdTtl);
			if (batch.settles > 0) {
				const ttl = String(deps.dayKeyTtlMs);
				pipe.settleSpend([keys.spend, keys.held], deps.machine, deps.totals(), batch.settled.join(" "), ttl);
			}
			if (batch.released.length > 0) pipe.hdel(keys.held, ...batch.released);
			for (const [field, mark] of batch.marks) {
				const ttl = String(Math.max(deps.dayKeyTtlMs, mark.exp - mark.at));
				pipe.mark([keys.marks], field, JSON.stringify(mark), String(mark.at), ttl);
			}
			for (const add of batch.extras) add(pipe);
			return (ok) => {
				if (ok) return;
				for (const [field, mark] of batch.marks) deps.unsent(field, mark);
				deps.failed();
			};
		},
		flush() {
			if (size() === 0) return;
			const client = deps.client();
			if (client === undefined) {
				for (const [field, mark] of take().marks) deps.unsent(field, mark);
				return;
			}
			const pipe = client.pipeline() as TeamPipeline;
			const done = queue.into(pipe);
			deps.track(
				pipe.exec().then(
					(results) => done?.(results?.every(([error]) => error === null) ?? false),
					() => done?.(false),
				),
			);
		},
	};
	return queue;
}
