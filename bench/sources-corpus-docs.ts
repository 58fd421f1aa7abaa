// The "sources" bench's package documentation pages (bench/sources-corpus.ts calls these): a pkg.go.dev package as
// pkgsite renders it (the unit page and its versions tab, the module proxy's @latest answer) and a docs.rs crate root
// as rustdoc and docs.rs render it, both with the sites' usual chrome, around facts the readers and the HTML share.

import { pick } from "./stats.ts";

/** One recorded documentation page, in bench/sources-corpus.ts's CorpusPage shape. */
export interface DocsCorpusPage {
	name: string;
	kind: "go" | "docsrs";
	path: string;
	api: Record<string, unknown>;
	html: string;
	facts: string[];
}

const esc = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pkgsiteDate = (day: number) => {
	const date = new Date(Date.UTC(2024, 0, 1 + day));
	return `${MONTHS[date.getUTCMonth()]} ${date.getUTCDate()}, ${date.getUTCFullYear()}`;
};

interface Item {
	name: string;
	signature: string;
	doc: string;
}

function items(random: () => number, words: readonly string[], sentence: (r: () => number) => string, n: number) {
	return Array.from({ length: n }, (_, i): Item => {
		const name = `${pick(random, words).replace(/^./, (c) => c.toUpperCase())}${pick(random, words)}${i}`;
		return {
			name,
			signature: `func ${name}(${pick(random, words)} string) (int, error)`,
			doc: `${name} ${sentence(random).toLowerCase()}`,
		};
	});
}

const GO_CHROME_HEAD = (title: string) =>
	`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)} - Go Packages</title><link href="/static/frontend/frontend.min.css" rel="stylesheet"><script src="/static/frontend/frontend.js" defer></script></head><body><header class="go-Header"><nav class="go-Header-nav"><a href="https://go.dev/"><img src="/static/shared/logo/go-white.svg" alt="Go"></a><ul class="go-Header-menu"><li><a href="https://go.dev/solutions/">Why Go</a></li><li><a href="https://go.dev/learn/">Learn</a></li><li><a href="https://go.dev/doc">Docs</a></li><li><a href="/">Packages</a></li><li><a href="https://go.dev/play">Community</a></li></ul><form action="/search" role="search"><input name="q" placeholder="Search packages or symbols"></form></nav></header><main class="go-Main">`;
const GO_FOOT = `</main><footer class="go-Footer"><div class="go-Footer-links"><a href="https://go.dev/solutions/">Why Go</a><a href="https://go.dev/solutions/case-studies">Use Cases</a><a href="https://go.dev/learn/">Get Started</a><a href="https://go.dev/play">Playground</a><a href="https://go.dev/tour/">Tour</a><a href="https://go.dev/blog">Blog</a></div><div class="go-Footer-bottom"><a href="https://go.dev/tos">Terms of Service</a><a href="https://www.google.com/intl/en/policies/privacy/">Privacy Policy</a><a href="https://go.dev/s/pkgsite-feedback">Report an Issue</a></div></footer></body></html>`;

export function goPage(
	random: () => number,
	index: number,
	words: readonly string[],
	sentence: (r: () => number) => string,
): DocsCorpusPage {
	const module = `github.com/${pick(random, ["acme", "tinyco", "opensrc"])}/${pick(random, words)}-go`;
	const pkg = pick(random, words);
	const path = `${module}/${pkg}`;
	const funcs = items(random, words, sentence, 4 + Math.floor(random() * 6));
	const overview = `Package ${pkg} ${sentence(random).toLowerCase()}`;
	const versions = Array.from({ length: 6 + Math.floor(random() * 20) }, (_, i) => ({
		version: `v1.${Math.floor(i / 3)}.${i % 3}`,
		day: i * 17,
	})).reverse();
	const latest = versions[0]!;
	const item = (f: Item) =>
		`<div class="Documentation-function"><h4 tabindex="-1" id="${f.name}" data-kind="function" class="Documentation-functionHeader"><span>func <a class="Documentation-source" href="https://${module}/blob/${latest.version}/${pkg}/${pkg}.go#L${Math.floor(random() * 400)}">${f.name}</a> <a class="Documentation-idLink" href="#${f.name}">¶</a></span></h4><div class="Documentation-declaration"><pre>${esc(f.signature)}</pre></div><p>${esc(f.doc)}</p></div>`;
	const doc = `<div class="Documentation-content js-docContent"><section class="Documentation-overview"><h3 tabindex="-1" id="pkg-overview" class="Documentation-overviewHeader">Overview <a href="#pkg-overview">¶</a></h3><p>${esc(overview)}</p></section><section class="Documentation-index"><h3 id="pkg-index" class="Documentation-indexHeader">Index <a href="#pkg-index">¶</a></h3><ul class="Documentation-indexList">${funcs.map((f) => `<li class="Documentation-indexFunction"><a href="#${f.name}">${esc(f.signature)}</a></li>`).join("")}</ul></section><h3 tabindex="-1" id="pkg-constants" class="Documentation-constantsHeader">Constants <a href="#pkg-constants">¶</a></h3><section class="Documentation-constants"><p class="Documentation-empty">This section is empty.</p></section><h3 tabindex="-1" id="pkg-variables" class="Documentation-variablesHeader">Variables <a href="#pkg-variables">¶</a></h3><section class="Documentation-variables"><p class="Documentation-empty">This section is empty.</p></section><h3 tabindex="-1" id="pkg-functions" class="Documentation-functionsHeader">Functions <a href="#pkg-functions">¶</a></h3><section class="Documentation-functions">${funcs.map(item).join("")}</section><h3 tabindex="-1" id="pkg-types" class="Documentation-typesHeader">Types <a href="#pkg-types">¶</a></h3><section class="Documentation-types"><p class="Documentation-empty">This section is empty.</p></section></div>`;
	const header = `<header class="go-Main-header"><nav class="go-Main-headerBreadcrumb" aria-label="Breadcrumb"><ol><li><a href="/${module}">${module}</a></li><li><a href="/${path}" aria-current="location">${pkg}</a></li></ol></nav><div class="go-Main-headerContent"><div class="go-Main-headerTitle"><h1 class="UnitHeader-titleHeading" data-test-id="UnitHeader-title">${pkg}</h1><span class="go-Chip go-Chip--inverted">package</span></div><div class="go-Main-headerDetails"><span class="go-Main-headerDetailItem" data-test-id="UnitHeader-version"><a href="?tab=versions" aria-label="Version: ${latest.version}"><span class="go-textSubtle" aria-hidden="true">Version: </span>${latest.version}</a></span><span class="go-Main-headerDetailItem" data-test-id="UnitHeader-commitTime">Published: ${pkgsiteDate(latest.day)}</span><span class="go-Main-headerDetailItem" data-test-id="UnitHeader-licenses">License: <a href="/${path}?tab=licenses" data-test-id="UnitHeader-license">MIT</a></span>
  <div class="screen-reader-only" id="license-description" hidden>Opens a new window with license information.</div><span class="go-Main-headerDetailItem" data-test-id="UnitHeader-imports"><a href="/${path}?tab=imports" aria-label="Imports: 3"><span class="go-textSubtle">Imports: </span>3</a></span><span class="go-Main-headerDetailItem" data-test-id="UnitHeader-importedby"><a href="/${path}?tab=importedby" aria-label="Imported By: 42"><span class="go-textSubtle">Imported by: </span>42</a></span></div></div></header>`;
	const aside = `<aside class="go-Main-aside"><div class="UnitMeta"><h2 class="go-textLabel">Details</h2><ul class="UnitMeta-details"><li><details class="go-Tooltip"><summary>Valid go.mod file</summary><p>The Go module system was introduced in Go 1.11 and is the official dependency management solution for Go.</p></details></li><li><details class="go-Tooltip"><summary>Redistributable license</summary><p>Redistributable licenses place minimal restrictions on how software can be used, modified, and redistributed.</p></details></li><li><details class="go-Tooltip"><summary>Tagged version</summary><p>Modules with tagged versions give importers more predictable builds.</p></details></li><li><details class="go-Tooltip"><summary>Stable version</summary><p>When a project reaches major version v1 it is considered stable.</p></details></li><li><a href="/about#best-practices">Learn more about best practices</a></li></ul><h2 class="go-textLabel">Repository</h2><div class="UnitMeta-repo"><a href="https://${module}" title="https://${module}" target="_blank" rel="noopener">${module}</a></div><h2 class="go-textLabel">Links</h2><ul class="UnitMeta-links"><li><a href="https://deps.dev/go/x">Open Source Insights</a></li></ul></div></aside><nav class="go-Main-nav" aria-label="Outline"><ul class="go-Tree"><li><a href="#section-documentation">Documentation</a><ul><li><a href="#pkg-overview">Overview</a></li><li><a href="#pkg-index">Index</a></li><li><a href="#pkg-functions">Functions</a></li></ul></li><li><a href="#section-sourcefiles">Source Files</a></li></ul></nav>`;
	const html = `${GO_CHROME_HEAD(`${pkg} package - ${path}`)}${header}${aside}<article class="go-Main-article"><div class="UnitDoc"><h2 class="UnitDoc-title" id="section-documentation">Documentation <a class="UnitDoc-idLink" href="#section-documentation">¶</a></h2><div class="Documentation js-documentation">${doc}</div></div><div class="UnitFiles"><h2 class="UnitFiles-title" id="section-sourcefiles">Source Files</h2><ul class="UnitFiles-fileList"><li><a href="https://${module}/blob/${latest.version}/${pkg}/${pkg}.go">${pkg}.go</a></li></ul></div></article>${GO_FOOT}`;
	const versionsTab = `${GO_CHROME_HEAD(`${pkg} package - ${path}`)}<article class="go-Main-article"><div class="Versions"><div class="Versions-title"><h2 class="go-textTitle">Versions in this module</h2><button class="go-Button js-versionsExpand">Expand all</button><button class="go-Button js-versionsCollapse">Collapse all</button></div><div class="Versions-list">${versions.map((v, i) => `<div class="Version-major">${i === 0 ? "<strong>v1</strong>" : ""}</div><div class="Version-tag"><a class="js-versionLink" href="/${module}@${v.version}/${pkg}">${v.version}</a></div><div class="Version-dot"></div><div class="Version-commitTime">${pkgsiteDate(v.day)}</div>`).join("")}</div></div></article>${GO_FOOT}`;
	return {
		name: `go-${index}`,
		kind: "go",
		path: `/${path}`,
		api: {
			[`/${path}`]: html,
			[`/${path}?tab=versions`]: versionsTab,
			[`/${module}/@latest`]: {
				Version: latest.version,
				Time: new Date(Date.UTC(2024, 0, 1 + latest.day, 12)).toISOString(),
				Origin: { VCS: "git", URL: `https://${module}`, Ref: `refs/tags/${latest.version}`, Hash: "0".repeat(40) },
			},
		},
		html,
		facts: [overview, latest.version, ...funcs.flatMap((f) => [f.signature, f.doc])],
	};
}

export function docsrsPage(
	random: () => number,
	index: number,
	words: readonly string[],
	sentence: (r: () => number) => string,
): DocsCorpusPage {
	const crate = `${pick(random, ["tiny", "fast", "safe"])}-${pick(random, words)}-${index}`;
	const lib = crate.replace(/-/g, "_");
	const version = `${1 + Math.floor(random() * 3)}.${Math.floor(random() * 20)}.${Math.floor(random() * 9)}`;
	const paragraphs = Array.from(
		{ length: 2 + Math.floor(random() * 3) },
		() => `${sentence(random)} ${sentence(random)}`,
	);
	const kinds = ["mod", "struct", "enum", "trait", "fn", "macro"] as const;
	const headings: Record<(typeof kinds)[number], string> = {
		mod: "Modules",
		struct: "Structs",
		enum: "Enums",
		trait: "Traits",
		fn: "Functions",
		macro: "Macros",
	};
	const groups = kinds.map((kind) => ({
		kind,
		items: Array.from({ length: 1 + Math.floor(random() * 5) }, (_, i) => ({
			name: `${kind === "struct" || kind === "enum" || kind === "trait" ? pick(random, words).replace(/^./, (c) => c.toUpperCase()) : pick(random, words)}${i}`,
			desc: sentence(random),
		})),
	}));
	const topbar = `<div class="nav-container"><div class="container"><div class="pure-menu pure-menu-horizontal" role="navigation"><form action="/releases/search" method="GET" id="nav-search-form"><a href="/" class="pure-menu-heading pure-menu-link docsrs-logo" aria-label="Docs.rs"><span class="title">Docs.rs</span></a><ul class="pure-menu-list"><script id="crate-metadata" type="application/json">{"name": "${crate}", "version": "${version}"}</script><li class="pure-menu-item pure-menu-has-children"><a href="#" class="pure-menu-link crate-name" title="${esc(paragraphs[0]!)}"><span class="title">${crate}-${version}</span></a><div class="pure-menu-children package-details-menu"><ul class="pure-menu-list menu-item-divided"><li class="pure-menu-heading" id="crate-title">${crate} ${version}</li><li class="pure-menu-item"><a href="/crate/${crate}/latest" class="pure-menu-link description" id="permalink">Permalink</a></li><li class="pure-menu-item"><a href="/crate/${crate}/latest" class="pure-menu-link description">Docs.rs crate page</a></li><li class="pure-menu-item">
	<span class="pure-menu-text description"><a href="https://spdx.org/licenses/MIT" class="pure-menu-sublink">MIT</a> OR <a href="https://spdx.org/licenses/Apache-2.0" class="pure-menu-sublink">Apache-2.0</a></span>
	</li></ul><div class="pure-g menu-item-divided"><ul class="pure-menu-list"><li class="pure-menu-heading">Links</li><li class="pure-menu-item"><a href="https://github.com/acme/${crate}" class="pure-menu-link"> Repository
	</a></li><li class="pure-menu-item"><a href="https://crates.io/crates/${crate}" class="pure-menu-link">crates.io</a></li><li class="pure-menu-item"><a href="/crate/${crate}/latest/source/" class="pure-menu-link">Source</a></li></ul><ul class="pure-menu-list"><li class="pure-menu-heading">Owners</li><li class="pure-menu-item"><a href="https://crates.io/users/alice" class="pure-menu-link">alice</a></li></ul><ul class="pure-menu-list"><li class="pure-menu-heading">Dependencies</li><li class="pure-menu-item"><a href="/memchr/^2.7/" class="pure-menu-link">memchr ^2.7 normal</a></li><li class="pure-menu-item"><a href="/serde/^1/" class="pure-menu-link">serde ^1 normal</a></li></ul><ul class="pure-menu-list"><li class="pure-menu-heading">Versions</li></ul></div></div></li></ul><ul class="pure-menu-right pure-menu-list"><li class="pure-menu-item"><a href="/releases" class="pure-menu-link">Rust</a></li><li class="pure-menu-item"><a href="/about" class="pure-menu-link">About docs.rs</a></li><li class="pure-menu-item"><a href="https://foundation.rust-lang.org/policies/privacy-policy/#docs.rs" class="pure-menu-link">Privacy policy</a></li></ul></form></div></div></div>`;
	const sidebar = `<nav class="sidebar"><div class="sidebar-crate"><h2><a href="../${lib}/index.html">${lib}</a><span class="version">${version}</span></h2></div><div class="sidebar-elems"><ul class="block"><li><a id="all-types" href="all.html">All Items</a></li></ul><section id="rustdoc-toc"><h3><a href="#">Sections</a></h3><h3><a href="#modules">Crate Items</a></h3><ul class="block">${groups.map((g) => `<li><a href="#${g.kind}">${headings[g.kind]}</a></li>`).join("")}</ul></section></div></nav>`;
	const main = `<section id="main-content" class="content"><div class="main-heading"><h1>Crate <span>${lib}</span><button id="copy-path" title="Copy item path to clipboard">Copy item path</button></h1><rustdoc-toolbar></rustdoc-toolbar><span class="sub-heading"><a class="src" href="../src/${lib}/lib.rs.html#1-200">Source</a> </span></div><details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary><div class="docblock">${paragraphs.map((p) => `<p>${esc(p)}</p>`).join("")}</div></details>${groups.map((g) => `<h2 id="${g.kind}" class="section-header">${headings[g.kind]}<a href="#${g.kind}" class="anchor">§</a></h2><dl class="item-table">${g.items.map((it) => `<dt><a class="${g.kind}" href="${g.kind}.${it.name}.html" title="${g.kind} ${lib}::${it.name}">${it.name}</a></dt><dd>${esc(it.desc)}</dd>`).join("")}</dl>`).join("")}</section>`;
	const html = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="generator" content="rustdoc"><title>${lib} - Rust</title><link rel="stylesheet" href="/-/rustdoc.static/rustdoc.css"><script src="/-/rustdoc.static/main.js"></script></head><body class="rustdoc-page">${topbar}<div class="rustdoc mod crate container-rustdoc" id="rustdoc_body_wrapper"><nav class="mobile-topbar"><button class="sidebar-menu-toggle" title="show sidebar"></button></nav>${sidebar}<div class="sidebar-resizer"></div><main><div class="width-limiter"><rustdoc-search></rustdoc-search>${main}</div></main></div></body></html>`;
	return {
		name: `docsrs-${index}`,
		kind: "docsrs",
		path: `/${crate}`,
		api: { [`/${crate}/latest/${lib}/`]: html },
		html,
		facts: [...paragraphs, ...groups.flatMap((g) => g.items.flatMap((it) => [it.name, it.desc]))],
	};
}
