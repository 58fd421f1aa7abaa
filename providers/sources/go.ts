// pkg.go.dev package pages (`pkg.go.dev/<import path>`, `@<version>`) through pkgsite's page (the documentation
// section, version, publish date, license, repository), its versions tab (every version with its date) and the Go
// module proxy's `@latest` (GOPROXY protocol: the module path and its latest version), all asked at once. Without
// pkg.go.dev (a network that reaches only a GOPROXY mirror) the proxy's `@v/list` gives the versions in one more round.

import type { ReaderOutput, ReaderTarget, SourceApi, SourceReader } from "./contract.ts";
import {
	bareHtml,
	bodyText,
	factLines,
	itemBody,
	obj,
	oneLine,
	READER_LIMITS,
	shortUrl,
	type VersionEntry,
	versionSection,
} from "./format.ts";
import { docFragment, tabVersions, unitFacts } from "./go-pkgsite.ts";

const SEGMENT = "[A-Za-z0-9._~+-]+";
/** `/<path>`, `/<module>@<version>/<subpath>`, `/mod/<module>`; pkgsite's own pages are not packages. */
const PATH = new RegExp(`^/(?:mod/)?(${SEGMENT}(?:/${SEGMENT})*?)(?:@(${SEGMENT})((?:/${SEGMENT})*))?/?$`);
const SITE_PAGES = new Set([
	"search",
	"about",
	"license-policy",
	"badge",
	"static",
	"third_party",
	"vuln",
	"styleguide",
]);
/** Module paths tried for a package path: the path and up to three parents (a package sits in a module's tree). */
const MAX_MODULE_GUESSES = 4;

function match(url: URL): ReaderTarget | undefined {
	const tab = url.searchParams.get("tab");
	if (tab !== null && tab !== "doc") return undefined;
	const found = PATH.exec(url.pathname);
	if (!found || SITE_PAGES.has(found[1]!.split("/")[0]!.toLowerCase())) return undefined;
	const [, head, version, tail] = found;
	const path = `${head}${tail ?? ""}`;
	return version ? { path, page: `${head}@${version}${tail ?? ""}`, version } : { path, page: path };
}

/** A module path or version as the proxy protocol asks it: each capital letter as `!` and its lower case. */
const escapePath = (path: string) => path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);

/** The proxy's `@latest` for the longest of the path's prefixes it knows as a module; undefined for none. */
async function latestModule(proxy: SourceApi | undefined, path: string) {
	const segments = path.split("/");
	// The standard library (no dot in the first element) is not served by module proxies.
	if (!proxy || !segments[0]!.includes(".")) return undefined;
	const guesses = segments
		.map((_, i) => segments.slice(0, segments.length - i).join("/"))
		.filter((guess) => guess.includes("/"))
		.slice(0, MAX_MODULE_GUESSES);
	const answers = await Promise.all(
		guesses.map((guess) =>
			proxy.json(`/${escapePath(guess)}/@latest`).then(
				(answer) => obj(answer.body),
				() => undefined,
			),
		),
	);
	const at = answers.findIndex((answer) => typeof answer?.Version === "string");
	if (at < 0) return undefined;
	const latest = answers[at]!;
	return {
		module: guesses[at]!,
		version: oneLine(latest.Version, 120),
		...(typeof latest.Time === "string" ? { time: latest.Time } : {}),
		repository: oneLine(obj(latest.Origin).URL, 500),
	};
}

async function read(target: ReaderTarget, api: SourceApi): Promise<ReaderOutput> {
	const page = target.page ?? "";
	const [unit, tab, latest] = await Promise.allSettled([
		api.text(`/${page}`, "text/html"),
		api.text(`/${page}?tab=versions`, "text/html"),
		latestModule(api.second, target.path ?? ""),
	]);
	const proxied = latest.status === "fulfilled" ? latest.value : undefined;
	if (unit.status === "rejected") {
		// pkg.go.dev failed: what the module proxy knows, when it knows the module; else the page's failure stands.
		if (!proxied || !api.second) throw unit.reason;
		return proxyOnly(target, api.second, proxied, unit.reason);
	}
	const facts = unitFacts(bodyText(unit.value));
	const title = facts.title || (target.path ?? "").split("/").at(-1) || "package";
	const shown = facts.version || target.version || "";
	const latestText = proxied && proxied.version !== shown ? latestLine(proxied) : "";
	const versions = tab.status === "fulfilled" ? tabVersions(bodyText(tab.value)) : [];
	// Said once: the version's day where the version list dates it, the repository where the module path names it.
	const listed = versions.some((v) => v.version === shown && v.date !== undefined);
	const day = facts.published && !listed ? ` (${facts.published})` : "";
	const repository = shortUrl(facts.repository || proxied?.repository);
	const lines = [
		`# ${title}`,
		"",
		`${target.path}${proxied ? ` · module ${proxied.module}` : ""} · ${shown}${day}  `,
		...factLines([
			["Latest", latestText],
			["License", facts.license],
			["Repository", repository === proxied?.module ? "" : repository],
			["Imports", facts.imports && `${facts.imports} · imported by ${facts.importedBy || "?"}`],
			["Warning", facts.warning],
		]),
	];
	const fragment = docFragment(bodyText(unit.value));
	const docs = fragment ? await api.markdown(bareHtml(fragment)) : "";
	lines.push("", "## Documentation", "", docs.trim() ? itemBody(docs, READER_LIMITS.maxDocChars) : "_(none)_");
	lines.push(...versionLines(versions, tab.status === "rejected" ? "the versions tab could not be read" : ""));
	const output: ReaderOutput = { title, markdown: `${lines.join("\n")}\n`, finalUrl: unit.value.url };
	if (facts.published) output.publishedAt = facts.published;
	return output;
}

function latestLine(latest: { version: string; time?: string }): string {
	return `${latest.version}${latest.time ? ` (${latest.time.slice(0, 10)})` : ""}`;
}

/** The versions section; `order` where the list's days cannot say it (the proxy's list is undated). */
function versionLines(versions: readonly VersionEntry[], missing: string, order = ""): string[] {
	if (missing) return ["", "## Versions", "", `_(${missing})_`];
	return versionSection(versions, order);
}

/** Semantic versions, newest first (the proxy's list has no order): numbers compared as numbers, a release first. */
function newerFirst(a: string, b: string): number {
	const parts = (v: string) => v.replace(/^v/, "").split(/[.+-]/);
	const [pa, pb] = [parts(a), parts(b)];
	for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
		const [x, y] = [pa[i], pb[i]];
		if (x === y) continue;
		if (x === undefined) return i === 3 ? -1 : 1;
		if (y === undefined) return i === 3 ? 1 : -1;
		const [nx, ny] = [Number(x), Number(y)];
		if (!Number.isNaN(nx) && !Number.isNaN(ny)) return ny - nx;
		return y < x ? -1 : 1;
	}
	return 0;
}

/** The module as the proxy knows it: its latest version and every version it lists (the list carries no dates). */
async function proxyOnly(
	target: ReaderTarget,
	proxy: SourceApi,
	latest: NonNullable<Awaited<ReturnType<typeof latestModule>>>,
	failure: unknown,
): Promise<ReaderOutput> {
	const list = await proxy.text(`/${escapePath(latest.module)}/@v/list`).then(bodyText, () => "");
	const versions = list
		.split("\n")
		.map((line) => oneLine(line, 120))
		.filter((line) => line !== "")
		.sort(newerFirst)
		.map(
			(version): VersionEntry =>
				version === latest.version && latest.time ? { version, date: latest.time } : { version },
		);
	const why = oneLine(failure instanceof Error ? failure.message : String(failure), 200);
	const lines = [
		`# ${target.path}`,
		"",
		`module ${latest.module}  `,
		...factLines([
			["Latest", latestLine(latest)],
			["Repository", shortUrl(latest.repository)],
		]),
		"",
		`_(pkg.go.dev could not be read (${why}): no documentation; the module proxy's versions only)_`,
		...versionLines(versions, "", "newest first"),
	];
	const output: ReaderOutput = {
		title: target.path ?? latest.module,
		markdown: `${lines.join("\n")}\n`,
		finalUrl: `${proxy.origin}/${escapePath(latest.module)}/@v/list`,
	};
	if (latest.time) output.publishedAt = latest.time;
	return output;
}

export const goPackage: SourceReader = { name: "go-package", source: "go", match, read };
