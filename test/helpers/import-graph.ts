// The repository's static import graph, for test/imports.test.ts: every import, export-from, side-effect import
// and dynamic `import("…")` with a literal specifier, type-only ones included (a cycle of types is still a tangle).
// Pure over a file map, so a synthetic graph can prove the scan, the cycle search and the layer rules.

import { posix } from "node:path";

/** Repository-relative path (`runtime/setup.ts`) → its source text. */
export type SourceFiles = ReadonlyMap<string, string>;

export interface ImportEdge {
	from: string;
	/** The specifier as written (`../engine/plan.ts`, `node:fs`, `typebox`). */
	spec: string;
	/** Repository-relative target for a relative specifier; undefined for packages and `node:` modules. */
	to?: string;
}

const IMPORT =
	/(?:^|[\s;}])(?:import|export)\s[^"'`;]*?from\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|^\s*import\s*["']([^"']+)["']/gm;
// Whole-line comments only: a string such as "*.example.com/*" must not open a block comment and hide imports.
const COMMENT = /^\s*\/\/[^\n]*|^\s*\/\*[\s\S]*?\*\//gm;

/** The specifiers one file imports, in source order. Comments are dropped first, so a cited path is not an edge. */
export function importsOf(source: string): string[] {
	const code = source.replace(COMMENT, "");
	return [...code.matchAll(IMPORT)].map((m) => (m[1] ?? m[2] ?? m[3]) as string);
}

export function importEdges(files: SourceFiles): ImportEdge[] {
	const edges: ImportEdge[] = [];
	for (const [from, source] of files) {
		for (const spec of importsOf(source)) {
			const to = spec.startsWith(".") ? posix.normalize(posix.join(posix.dirname(from), spec)) : undefined;
			edges.push(to === undefined ? { from, spec } : { from, spec, to });
		}
	}
	return edges;
}

/**
 * Every cycle among the files, one per strongly connected component, as a path that returns to its start
 * (`a.ts → b.ts → a.ts`). Tarjan's algorithm, iterative so a deep chain cannot overflow the stack.
 */
export function findCycles(edges: readonly ImportEdge[]): string[][] {
	const next = new Map<string, string[]>();
	for (const edge of edges) {
		if (edge.to === undefined) continue;
		next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to]);
		if (!next.has(edge.to)) next.set(edge.to, []);
	}
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const onStack = new Set<string>();
	const stack: string[] = [];
	const components: string[][] = [];
	for (const root of next.keys()) {
		if (index.has(root)) continue;
		const work: Array<{ node: string; child: number }> = [{ node: root, child: 0 }];
		index.set(root, index.size);
		low.set(root, index.get(root)!);
		stack.push(root);
		onStack.add(root);
		while (work.length > 0) {
			const frame = work[work.length - 1]!;
			const targets = next.get(frame.node)!;
			if (frame.child < targets.length) {
				const target = targets[frame.child++]!;
				if (!index.has(target)) {
					index.set(target, index.size);
					low.set(target, index.get(target)!);
					stack.push(target);
					onStack.add(target);
					work.push({ node: target, child: 0 });
				} else if (onStack.has(target)) {
					low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
				}
				continue;
			}
			work.pop();
			const parent = work[work.length - 1];
			if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
			if (low.get(frame.node) !== index.get(frame.node)) continue;
			const component: string[] = [];
			let member: string;
			do {
				member = stack.pop()!;
				onStack.delete(member);
				component.push(member);
			} while (member !== frame.node);
			const selfLoop = next.get(frame.node)!.includes(frame.node);
			if (component.length > 1 || selfLoop) components.push(component);
		}
	}
	return components.map((component) => cyclePath(component, next));
}

/** A shortest walk from the component's first file (alphabetically) back to itself, through the component. */
function cyclePath(component: string[], next: Map<string, string[]>): string[] {
	const members = new Set(component);
	const start = [...component].sort()[0]!;
	const cameFrom = new Map<string, string>();
	const queue = [start];
	for (let i = 0; i < queue.length; i++) {
		const node = queue[i]!;
		for (const target of next.get(node) ?? []) {
			if (!members.has(target)) continue;
			if (target === start) {
				const path: string[] = [];
				for (let at = node; at !== start; at = cameFrom.get(at)!) path.unshift(at);
				return [start, ...path, start];
			}
			if (!cameFrom.has(target)) {
				cameFrom.set(target, node);
				queue.push(target);
			}
		}
	}
	return [start, start];
}

/** A layer's rule: which repository folders and which packages its files may import. */
export interface LayerRule {
	/** Top-level folder the rule is for (`extension`). */
	layer: string;
	/** Folders it may import from (its own folder is always allowed). Absent: any folder not in `forbidden`. */
	allowed?: readonly string[];
	/** Folders it must never import from. */
	forbidden?: readonly string[];
	/** Package specifiers it may import (`node:` modules are always allowed); absent: any. */
	packages?: (spec: string) => boolean;
}

const topFolder = (path: string): string => path.split("/")[0] as string;

/** The edges that break a rule, as `from → spec` lines. */
export function layerViolations(edges: readonly ImportEdge[], rules: readonly LayerRule[]): string[] {
	const bad: string[] = [];
	for (const edge of edges) {
		const rule = rules.find((r) => r.layer === topFolder(edge.from));
		if (rule === undefined) continue;
		if (edge.to === undefined) {
			if (!edge.spec.startsWith("node:") && rule.packages && !rule.packages(edge.spec)) bad.push(line(edge));
			continue;
		}
		const target = topFolder(edge.to);
		if (target === rule.layer) continue;
		if (rule.forbidden?.includes(target) || (rule.allowed && !rule.allowed.includes(target))) bad.push(line(edge));
	}
	return bad;
}

const line = (edge: ImportEdge): string => `${edge.from} → ${edge.spec}`;
