// The package readers (npm, PyPI, crates.io) through the direct provider against loopback registries answering
// recorded documents (test/fixtures/sources/<source>/): latest version, every version with its date, license,
// repository and README; a named version; a scoped npm name; the page when the registry fails.

import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDirectProvider } from "../providers/direct/provider.ts";
import { cratesCrate } from "../providers/sources/crates.ts";
import { npmPackage } from "../providers/sources/npm.ts";
import { pypiProject } from "../providers/sources/pypi.ts";
import { request, send } from "./direct-helpers.ts";
import { fixture, json, type SourceWorld, startSourceWorld } from "./helpers/source-world.ts";

const MATCHES: Array<[typeof npmPackage, string, Record<string, string> | undefined]> = [
	[npmPackage, "https://www.npmjs.com/package/tinyparse", { name: "tinyparse" }],
	[
		npmPackage,
		"https://www.npmjs.com/package/@acme/tiny-parse/v/1.0.0",
		{ name: "@acme/tiny-parse", version: "1.0.0" },
	],
	[npmPackage, "https://www.npmjs.com/package/%40acme%2Ftiny-parse", { name: "@acme/tiny-parse" }],
	[npmPackage, "https://www.npmjs.com/search?q=parse", undefined],
	[pypiProject, "https://pypi.org/project/tinyparse/", { name: "tinyparse" }],
	[pypiProject, "https://pypi.org/project/tinyparse/1.0.0/", { name: "tinyparse", version: "1.0.0" }],
	[pypiProject, "https://pypi.org/search/?q=tinyparse", undefined],
	[cratesCrate, "https://crates.io/crates/tinyparse", { name: "tinyparse" }],
	[cratesCrate, "https://crates.io/crates/tinyparse/2.0.0", { name: "tinyparse", version: "2.0.0" }],
	[cratesCrate, "https://crates.io/categories/parsing", undefined],
];

describe("package reader URL matches", () => {
	for (const [reader, url, expected] of MATCHES) {
		it(`${reader.name}: ${url}`, () => {
			expect(reader.match(new URL(url))).toEqual(expected);
		});
	}
});

let world: SourceWorld;
const provider = createDirectProvider();
const at = (path: string) => `http://127.0.0.1:${world.page.port}${path}`;

beforeAll(async () => {
	world = await startSourceWorld();
	const { api, page } = world;
	api.route("/tinyparse", json(fixture("npm", "tinyparse.json")));
	api.route(
		"/@acme%2Ftiny-parse",
		json(fixture("npm", "tinyparse.json").replace('"name": "tinyparse"', '"name": "@acme/tiny-parse"')),
	);
	api.route("/pypi/tinyparse/json", json(fixture("pypi", "tinyparse.json")));
	api.route("/pypi/tinyparse/1.0.0/json", json(fixture("pypi", "tinyparse-1.0.0.json")));
	api.route("/api/v1/crates/tinyparse", json(fixture("crates", "tinyparse.json")));
	api.route("/api/v1/crates/tinyparse/2.1.0/readme", send(fixture("crates", "readme-2.1.0.html")));
	api.route("/api/v1/crates/broken", json("{ not json", 200));
	page.route("/crates/broken", send("<html><title>broken</title><body><p>The crate page itself.</p></body></html>"));
});
afterAll(() => world.close());
beforeEach(() => {
	world.api.hits.length = 0;
	world.page.hits.length = 0;
});

/** The npm reader's text for the recorded packument as `change` leaves it, served under `name`. */
async function readChanged(name: string, change: (doc: Record<string, unknown>) => void): Promise<string> {
	const doc = JSON.parse(fixture("npm", "tinyparse.json"));
	change(doc);
	world.api.route(`/${name}`, json(JSON.stringify(doc)));
	return (await provider.fetch!(request(at(`/package/${name}`)), world.call("npm"))).content;
}

describe("npm-package reader", () => {
	it("reads the packument: latest, dist-tags, license, repository, dependencies, every version dated under its year, README", async () => {
		const result = await provider.fetch!(request(at("/package/tinyparse")), world.call("npm"));
		const text = result.content;
		expect(result.title).toBe("tinyparse");
		expect(text).toContain("Latest: 2.1.0  \n");
		expect(text).toContain("Dist-tags: latest 2.1.0, next 3.0.0-beta.1");
		expect(text).toContain("License: MIT");
		// A URL's https:// says nothing its host and path do not: left out (an http:// one keeps its scheme).
		expect(text).toContain("Repository: github.com/acme/tinyparse  \n");
		expect(text).toContain("## Dependencies of 2.1.0 (2)\n\nkleur ^4.1.5, mri ^1.2.0");
		expect(text).toContain(
			"## Versions (5)\n\n2026: 3.0.0-beta.1 03-05, 2.1.0 03-04\n\n2025: 2.0.0 01-20\n\n2024: 1.1.0 06-11 deprecated, 1.0.0 02-01\n",
		);
		// The README's title only repeats the package's heading: said once.
		expect(text).toContain('## README\n\n```js\nimport { parse } from "tinyparse";');
		expect(world.api.hits).toEqual(["/tinyparse"]);
		expect(world.page.hits).toEqual([]);
	});

	it("leaves out the registry's publisher accounts and a homepage that is the repository's README", async () => {
		const text = (await provider.fetch!(request(at("/package/tinyparse")), world.call("npm"))).content;
		expect(text).not.toContain("Maintainers");
		expect(text).not.toContain("alice");
		expect(text).not.toContain("Homepage");
		expect(text).toContain("Repository: github.com/acme/tinyparse  \n");
	});

	it("keeps a homepage of its own", async () => {
		const text = await readChanged("own-home", (doc) => {
			doc.homepage = "https://tinyparse.dev";
		});
		expect(text).toContain("Homepage: tinyparse.dev  \n");
	});

	it("asks for a scoped name with its slash encoded, and shows a named version's own facts", async () => {
		const result = await provider.fetch!(request(at("/package/@acme/tiny-parse/v/2.0.0")), world.call("npm"));
		expect(world.api.hits).toEqual(["/@acme%2Ftiny-parse"]);
		expect(result.content).toContain("# @acme/tiny-parse@2.0.0");
		expect(result.content).toContain("## Dependencies of 2.0.0 (1)\n\nkleur ^4.1.5");
	});
});

describe("npm-package reader, a README's noise", () => {
	it("writes the README's image tags as markdown and its tables unpadded, as GitHub bodies are", async () => {
		const readme = [
			'<p align="center"><img src="https://raw.githubusercontent.com/acme/tinyparse/main/logo.png" width="120" alt="tinyparse logo"></p>',
			"",
			"| Option     | Default |",
			"| ---------- | ------- |",
			"| `eof`      | `true`  |   ",
		].join("\n");
		const text = await readChanged("noisy-readme", (doc) => {
			doc.readme = readme;
		});
		expect(text).toContain(
			"## README\n\n![tinyparse logo](raw.githubusercontent.com/acme/tinyparse/main/logo.png)\n\n| Option | Default |\n| --- | --- |\n| `eof` | `true` |\n",
		);
	});
});

describe("npm-package reader, a README's indented code", () => {
	it("keeps an indented code block as written: its HTML is the example's text", async () => {
		const text = await readChanged("indented-readme", (doc) => {
			doc.readme = 'Embed it:\n\n    <img src="logo.png" width="100">\n    <br>\n\nThen<br>reload.';
		});
		expect(text).toContain('Embed it:\n\n    <img src="logo.png" width="100">\n    <br>\n\nThen\nreload.');
	});
});

describe("npm-package reader, one dist-tag", () => {
	it("says no Dist-tags line when latest is the only tag (the Latest line says it)", async () => {
		const text = await readChanged("solo", (doc) => {
			doc["dist-tags"] = { latest: "2.1.0" };
		});
		expect(text).toContain("Latest: 2.1.0  \nLicense: MIT");
		expect(text).not.toContain("Dist-tags");
	});
});

describe("package readers' version lists", () => {
	const readers: Array<[string, string, "npm" | "pypi" | "crates"]> = [
		["npm-package", "/package/tinyparse", "npm"],
		["pypi-project", "/project/tinyparse/", "pypi"],
		["crates-crate", "/crates/tinyparse", "crates"],
	];
	for (const [name, path, source] of readers) {
		it(`${name}: a version's day follows it without parentheses, and the heading counts them (the days say the order)`, async () => {
			const text = (await provider.fetch!(request(at(path)), world.call(source))).content;
			expect(text).toMatch(/^## Versions \(\d+\)$/m);
			expect(text).toMatch(/^2026: [^\n]*\b2\.1\.0 03-04\b/m);
			expect(text).not.toMatch(/\(\d\d-\d\d/);
		});

		it(`${name}: the Latest line names the version and leaves its day to the version list`, async () => {
			const text = (await provider.fetch!(request(at(path)), world.call(source))).content;
			expect(text).toContain("Latest: 2.1.0  \n");
			expect(text).not.toContain("2026-03-04");
		});
	}
});

describe("pypi-project reader", () => {
	it("reads the JSON API: latest, license, Python requirement, project URLs, versions with dates (yanked marked), README", async () => {
		const result = await provider.fetch!(request(at("/project/tinyparse/")), world.call("pypi"));
		const text = result.content;
		expect(text).toContain("Latest: 2.1.0  \n");
		expect(text).toContain("License: MIT");
		expect(text).toContain("Requires Python: >=3.9");
		expect(text).toContain("Project URLs: Repository github.com/acme/tinyparse, Changelog");
		expect(text).toContain(
			"## Versions (4)\n\n2026: 2.1.0 03-04\n\n2025: 2.0.0 01-20\n\n2024: 1.1.0 06-11 yanked, 1.0.0 02-01\n",
		);
		expect(text).toContain("## README\n\n```python\nfrom tinyparse import parse");
	});

	it("keeps a reStructuredText description's table as drawn, where padding is its grid", async () => {
		const rst = JSON.parse(fixture("pypi", "tinyparse.json"));
		rst.info.description_content_type = "text/x-rst";
		rst.info.description = "+------+-----+\n| eof  | yes |\n+------+-----+";
		world.api.route("/pypi/rst-readme/json", json(JSON.stringify(rst)));
		const text = (await provider.fetch!(request(at("/project/rst-readme/")), world.call("pypi"))).content;
		expect(text).toContain("+------+-----+\n| eof  | yes |\n+------+-----+");
	});

	it("leaves out the author, no fact a coder reads a package page for", async () => {
		const text = (await provider.fetch!(request(at("/project/tinyparse/")), world.call("pypi"))).content;
		expect(text).not.toContain("Author");
		expect(text).not.toContain("Alice Example");
	});

	it("asks for a named version beside the project at once and shows that version's README", async () => {
		const result = await provider.fetch!(request(at("/project/tinyparse/1.0.0/")), world.call("pypi"));
		expect([...world.api.hits].sort()).toEqual(["/pypi/tinyparse/1.0.0/json", "/pypi/tinyparse/json"]);
		expect(result.content).toContain("# tinyparse 1.0.0");
		expect(result.content).toContain("Requires Python: >=3.8");
		expect(result.content).toContain("# tinyparse 1.0\n\nThe first release.");
		expect(result.content).toContain("Latest: 2.1.0");
	});
});

describe("crates-crate reader", () => {
	it("reads the crate and its rendered README: latest, license, repository, documentation, versions, README as markdown", async () => {
		const result = await provider.fetch!(request(at("/crates/tinyparse")), world.call("crates"));
		const text = result.content;
		expect(text).toContain("Latest: 2.1.0  \n");
		expect(text).toContain("License: MIT OR Apache-2.0");
		expect(text).toContain("Repository: github.com/acme/tinyparse  \n");
		expect(text).toContain("Documentation: docs.rs/tinyparse  \n");
		// The rendered README is read as the fragment it is: its prose and its code block kept, its title (the name) once.
		expect(text).toContain(
			'## README\n\nTokenize with `tinyparse::parse("a b c")`.\n\n```rust\nlet tokens = tinyparse::parse("a b c");\nassert_eq!(tokens.len(), 3);\n```',
		);
		expect(text).toContain(
			"## Versions (4)\n\n2026: 2.1.0 03-04\n\n2025: 2.0.0 01-20\n\n2024: 1.1.0 06-11 yanked, 1.0.0 02-01\n",
		);
		expect(text).toMatch(/## README\n\n[\s\S]*let tokens = tinyparse::parse\("a b c"\);/);
		expect(world.api.hits).toEqual(["/api/v1/crates/tinyparse", "/api/v1/crates/tinyparse/2.1.0/readme"]);
	});

	it("keeps the facts when the README is missing", async () => {
		const result = await provider.fetch!(request(at("/crates/tinyparse/2.0.0")), world.call("crates"));
		expect(result.content).toContain("# tinyparse 2.0.0");
		expect(result.content).toContain("## README\n\n_(no README)_");
	});

	it("reads the page when the API's answer is not JSON, saying why", async () => {
		const result = await provider.fetch!(request(at("/crates/broken")), world.call("crates"));
		expect(result.content).toContain("The crate page itself.");
		expect(result.warnings?.[0]).toMatch(
			/^crates-crate reader failed \(crates-crate: invalid JSON\); read the page instead$/,
		);
	});
});
