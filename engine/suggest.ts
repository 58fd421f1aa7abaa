// "Did you mean" for unknown keys and names: the closest candidate by edit distance, if close enough.

/** Levenshtein distance, case-insensitive. */
export function editDistance(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	let previous = Array.from({ length: y.length + 1 }, (_, i) => i);
	for (let i = 1; i <= x.length; i++) {
		const current = [i];
		for (let j = 1; j <= y.length; j++) {
			const cost = x[i - 1] === y[j - 1] ? 0 : 1;
			current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost);
		}
		previous = current;
	}
	return previous[y.length] ?? 0;
}

/** The best candidate within a third of the word's length (at least 1, at most 3 edits). */
export function suggest(word: string, candidates: Iterable<string>): string | undefined {
	const limit = Math.min(3, Math.max(1, Math.floor(word.length / 3)));
	let best: string | undefined;
	let bestDistance = Number.POSITIVE_INFINITY;
	for (const candidate of candidates) {
		// The distance is at least the difference in length: skip hopeless candidates without the O(n·m) table,
		// so a megabyte-long unknown key costs nothing.
		if (Math.abs(word.length - candidate.length) > limit) continue;
		const distance = editDistance(word, candidate);
		if (distance < bestDistance && distance <= limit) {
			best = candidate;
			bestDistance = distance;
		}
	}
	return best;
}
