// Path globs of site patterns (`github.com/*/*/issues`, `docs.rs/**/src`), matched segment by segment in time
// bounded by pattern length × path length: a model-written `site:` operator must never freeze the process.
// Semantics (docs/site-patterns.md): `**` as a whole segment spans any number of segments; elsewhere `*` spans
// characters within one segment; a segment made only of `*` needs at least one character.

/** One compiled pattern segment. */
export type GlobSegment =
	| { kind: "globstar" }
	/** `pieces` are the decoded literal parts between the segment's `*`s (one piece: no `*`, a literal segment). */
	| { kind: "segment"; pieces: string[] };

/** A counter of the matcher's elementary steps (character comparisons and table cells), for bounds in tests. */
export interface GlobOps {
	count: number;
}

/** `pieces.length === 3` and all empty: the raw segment was `**`. */
function globSegment(pieces: string[]): GlobSegment {
	return pieces.length === 3 && pieces[0] === "" && pieces[1] === "" && pieces[2] === ""
		? { kind: "globstar" }
		: { kind: "segment", pieces };
}

/**
 * Compiles a path's raw segments as the URL parser writes them: each split on `*` before decoding (an encoded `%2A`
 * stays a literal star), its pieces then percent-decoded (`decode`). Loops, no callback per segment or piece: a
 * first load compiles a big config's globs in code not yet optimised.
 */
export function compileRawGlob(segments: readonly string[], decode: (piece: string) => string): GlobSegment[] {
	const out = new Array<GlobSegment>(segments.length);
	for (let i = 0; i < segments.length; i++) {
		const pieces = (segments[i] as string).split("*");
		for (let k = 0; k < pieces.length; k++) {
			const piece = pieces[k] as string;
			if (piece.includes("%")) pieces[k] = decode(piece);
		}
		out[i] = globSegment(pieces);
	}
	return out;
}

/** A piece as canonical glob text: `%`, `*` and `/` encoded (most pieces hold none of them: no replace then). */
function pieceSource(text: string): string {
	return text.includes("%") || text.includes("*") || text.includes("/")
		? text.replace(/[%*/]/g, (c) => encodeURIComponent(c))
		: text;
}

/** A canonical text for a compiled glob: equal texts, equal globs (used to compare patterns). */
export function globSourceOf(glob: GlobSegment[]): string {
	let source = "";
	for (let i = 0; i < glob.length; i++) {
		const segment = glob[i] as GlobSegment;
		if (i > 0) source += "/";
		if (segment.kind === "globstar") {
			source += "**";
			continue;
		}
		for (let k = 0; k < segment.pieces.length; k++)
			source += k === 0 ? pieceSource(segment.pieces[0] as string) : `*${pieceSource(segment.pieces[k] as string)}`;
	}
	return source;
}

/** Does `text` contain `piece` at `at`? Counts one step per character compared. */
function occursAt(text: string, at: number, piece: string, ops: GlobOps): boolean {
	for (let i = 0; i < piece.length; i++) {
		ops.count++;
		if (text.charCodeAt(at + i) !== piece.charCodeAt(i)) return false;
	}
	return true;
}

/**
 * One path segment against one pattern segment. The first piece must start it, the last end it, and the middle
 * pieces occur in order between them; taking each middle piece at its leftmost occurrence is optimal, so there is
 * no backtracking: at most |text| × |pattern segment| character comparisons.
 */
export function matchSegment(pieces: string[], text: string, ops: GlobOps = { count: 0 }): boolean {
	ops.count++;
	const first = pieces[0] ?? "";
	if (pieces.length === 1) return text.length === first.length && occursAt(text, 0, first, ops);
	const last = pieces[pieces.length - 1] ?? "";
	if (text.length < first.length + last.length) return false;
	// A segment written only of `*` never matches an empty segment (`github.com/*` is not `github.com/`).
	if (text.length === 0) return false;
	if (!occursAt(text, 0, first, ops) || !occursAt(text, text.length - last.length, last, ops)) return false;
	let from = first.length;
	const end = text.length - last.length;
	for (let p = 1; p < pieces.length - 1; p++) {
		const piece = pieces[p] ?? "";
		let found = -1;
		for (let at = from; at + piece.length <= end; at++) {
			if (occursAt(text, at, piece, ops)) {
				found = at;
				break;
			}
		}
		if (found < 0) return false;
		from = found + piece.length;
	}
	return true;
}

/**
 * Does some segment-prefix (one segment or more) of `path` match the whole glob? A table over (pattern segment,
 * path position): each cell is visited once and each (pattern segment, path segment) pair compared at most once.
 */
export function matchGlob(glob: GlobSegment[], path: string[], ops: GlobOps = { count: 0 }): boolean {
	const n = path.length;
	// reach[j]: the pattern segments so far match the first j path segments exactly.
	let reach: boolean[] = new Array<boolean>(n + 1).fill(false);
	reach[0] = true;
	for (const segment of glob) {
		const next: boolean[] = new Array<boolean>(n + 1).fill(false);
		let any = false;
		if (segment.kind === "globstar") {
			let seen = false;
			for (let j = 0; j <= n; j++) {
				ops.count++;
				seen ||= reach[j] === true;
				next[j] = seen;
				any ||= seen;
			}
		} else {
			for (let j = 0; j < n; j++) {
				ops.count++;
				if (reach[j] && matchSegment(segment.pieces, path[j] ?? "", ops)) {
					next[j + 1] = true;
					any = true;
				}
			}
		}
		if (!any) return false;
		reach = next;
	}
	return reach.some((hit, j) => hit && j > 0);
}
