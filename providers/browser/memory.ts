// The browser's processes and their memory, read from /proc (Linux): the launched browser is found by a marker
// argument among this process's children, and its resident memory is the sum over it and its descendants
// (renderers, GPU and network services). Elsewhere nothing is read, and only V8's heap cap bounds a renderer.

import { readdirSync, readFileSync } from "node:fs";

const PAGE_BYTES = 4096;

interface ProcEntry {
	pid: number;
	ppid: number;
}

function entries(): ProcEntry[] | undefined {
	let names: string[];
	try {
		names = readdirSync("/proc");
	} catch {
		return undefined;
	}
	const out: ProcEntry[] = [];
	for (const name of names) {
		if (name.charCodeAt(0) < 48 || name.charCodeAt(0) > 57) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "latin1");
			// The command name (field 2) is in parentheses and may hold spaces: fields after its last ")" are fixed.
			const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			out.push({ pid: Number(name), ppid: Number(rest[1]) });
		} catch {
			// the process ended while we read
		}
	}
	return out;
}

/** The pid of our child process whose command line holds `marker`, or undefined (not Linux, or not found). */
export function childWithMarker(marker: string, parent = process.pid): number | undefined {
	for (const { pid, ppid } of entries() ?? []) {
		if (ppid !== parent) continue;
		try {
			if (readFileSync(`/proc/${pid}/cmdline`, "latin1").includes(marker)) return pid;
		} catch {
			// ended
		}
	}
	return undefined;
}

/** `root` and every process below it. */
export function processTree(root: number): number[] {
	const all = entries() ?? [];
	const children = new Map<number, number[]>();
	for (const { pid, ppid } of all) {
		const list = children.get(ppid);
		if (list) list.push(pid);
		else children.set(ppid, [pid]);
	}
	const tree: number[] = [];
	const stack = [root];
	while (stack.length > 0 && tree.length < 4096) {
		const pid = stack.pop()!;
		tree.push(pid);
		stack.push(...(children.get(pid) ?? []));
	}
	return tree;
}

/**
 * Memory of the tree under `root` in MB, or undefined when it cannot be read. Summed resident sizes count the pages
 * Chromium's processes share once per process, so a sum past `confirmAboveMb` is read again as proportional set
 * size (smaps_rollup: slower, shared pages split), which is what the bound compares.
 */
export function treeMemoryMb(root: number, confirmAboveMb = Number.POSITIVE_INFINITY): number | undefined {
	const tree = processTree(root);
	let pages = 0;
	let read = false;
	for (const pid of tree) {
		try {
			pages += Number(readFileSync(`/proc/${pid}/statm`, "latin1").split(" ")[1]);
			read = true;
		} catch {
			// ended
		}
	}
	if (!read) return undefined;
	const rssMb = (pages * PAGE_BYTES) / (1024 * 1024);
	return rssMb > confirmAboveMb ? (proportionalMb(tree) ?? rssMb) : rssMb;
}

function proportionalMb(tree: number[]): number | undefined {
	let kb = 0;
	for (const pid of tree) {
		try {
			const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "latin1"));
			if (!match) return undefined;
			kb += Number(match[1]);
		} catch {
			// ended
		}
	}
	return kb / 1024;
}
