// A markdown page's YAML front matter (a docs twin's title, slug, sidebar position): left out of what the model reads,
// its title and description kept as heading and first line unless the page says them, its title, author and date as
// the page's facts. Pure; only a block closed within the first 4 KB counts.

export const FRONT_MATTER_DEFAULTS = { maxChars: 4096 };

export interface WithoutFrontMatter {
	text: string;
	/** The front matter's title, author and date (ISO), when it has them: the page's facts. */
	title?: string;
	author?: string;
	publishedAt?: string;
}

/** `text` without its front matter; `text` as is when it opens with none. */
export function withoutFrontMatter(text: string): WithoutFrontMatter {
	const block = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(
		text.slice(0, FRONT_MATTER_DEFAULTS.maxChars),
	);
	// A rule then text is no front matter: its lines must read as keys.
	if (!block || !/^[\w-]+:/.test(block[1]!)) return { text };
	const title = field(block[1]!, "title");
	const description = field(block[1]!, "description");
	const body = text.slice(block[0].length).replace(/^\s*\n/, "");
	// The page's own heading stays first; else the title is its heading. The description follows the heading.
	const heading = /^#[ \t][^\n]*/.exec(body)?.[0];
	let rest = heading === undefined ? body : body.slice(heading.length).replace(/^\s*\n/, "");
	if (description && !body.replace(/\s+/g, " ").includes(description)) rest = `${description}\n\n${rest}`;
	const lead = heading ?? (title ? `# ${title}` : undefined);
	const shown = lead === undefined ? rest : `${lead}\n\n${rest}`;
	const out: WithoutFrontMatter = { text: shown };
	if (title) out.title = title;
	const author = field(block[1]!, "author");
	if (author) out.author = author;
	const date = Date.parse(field(block[1]!, "date") ?? "");
	if (!Number.isNaN(date)) out.publishedAt = new Date(date).toISOString();
	return out;
}

/** A one-line `key: value` of the block, its quotes taken off; undefined when absent or empty. */
function field(block: string, key: string): string | undefined {
	const found = new RegExp(`^${key}:[ \\t]*(.+?)[ \\t]*$`, "m").exec(block)?.[1];
	const value = found?.replace(/^(["'])(.*)\1$/, "$2").trim();
	return value ? value.slice(0, 500) : undefined;
}
