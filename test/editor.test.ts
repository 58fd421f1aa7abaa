// The config as users edit it, checked with VS Code's own JSON engine (test/helpers/json-language.ts): examples are
// clean in its JSON-with-comments mode, its errors sit where our loader puts them, completion offers the provider
// types and each type's own options, and hovers explain keys. Plus the schema's editor annotations themselves.

import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { providerTypes } from "../providers/registry.ts";
import { loadConfigText } from "../schema/load.ts";
import { PACKAGE_NAME, SCHEMA_PACKAGE_PATH } from "../schema/schema-ref.ts";
import { complete, diagnose, editor, hover, REPO_SCHEMA } from "./helpers/json-language.ts";

const examples = join(import.meta.dirname, "..", "examples");
const exampleFiles = readdirSync(examples).filter((f) => /\.json[c5]?$/.test(f));
/** A file beside the examples, so `../schema/…` resolves as it does for them. */
const crafted = join(examples, "crafted.json");
const HEAD = '{\n\t"$schema": "../schema/pi-web-access.schema.json",\n';
const schema = JSON.parse(readFileSync(REPO_SCHEMA, "utf8")) as Record<string, unknown>;

type Node = Record<string, unknown>;
/** Every subschema, with its pointer. */
function* walk(node: unknown, pointer = ""): Generator<[string, Node]> {
	if (Array.isArray(node)) for (const [i, child] of node.entries()) yield* walk(child, `${pointer}/${i}`);
	else if (node !== null && typeof node === "object") {
		yield [pointer, node as Node];
		for (const [key, child] of Object.entries(node)) {
			if (key !== "examples" && key !== "default" && key !== "const") yield* walk(child, `${pointer}/${key}`);
		}
	}
}

describe("the schema, for editors", () => {
	it("describes every property it declares (a $ref carries its target's description)", () => {
		const missing: string[] = [];
		for (const [pointer, node] of walk(schema)) {
			const inIf = /\/if(\/|$)/.test(pointer);
			for (const [key, child] of Object.entries((node.properties as Record<string, Node>) ?? {})) {
				// Inside a type's branch, a key with only a default (timeoutMs, apiKey) is described by the common key.
				const annotated =
					child.description || child.$ref || (child.default !== undefined && Object.keys(child).length === 1);
				if (!inIf && !annotated) missing.push(`${pointer}/properties/${key}`);
			}
		}
		expect(missing).toEqual([]);
	});

	it("describes every value of every enum, one description per value", () => {
		const enums = [...walk(schema)].filter(([, node]) => Array.isArray(node.enum));
		expect(enums.length).toBeGreaterThan(15);
		for (const [pointer, node] of enums) {
			const descriptions = (node.markdownEnumDescriptions ?? node.enumDescriptions) as unknown[] | undefined;
			expect(descriptions?.length, pointer).toBe((node.enum as unknown[]).length);
		}
	});

	it("shows defaults and examples where a value has them: policy, site patterns, key expressions", () => {
		const defs = schema.$defs as Record<string, Node>;
		const policy = (defs.policy?.properties ?? {}) as Record<string, Node>;
		expect(policy.onEmpty?.default).toBe("next-if-filtered");
		expect(policy.maxAttempts?.default).toBe(6);
		expect(policy.hedgeAfterMs?.examples).toEqual([4000]);
		const sites = ((defs.rule?.properties as Record<string, Node> | undefined)?.sites?.items ?? {}) as Node;
		expect(sites.examples).toEqual(expect.arrayContaining(["github.com", ".cn", "*.github.io", "github.com/golang"]));
		expect(String(sites.markdownDescription)).toContain("| `=docs.python.org` | exactly that host |");
		expect(defs.keyExpression?.examples).toEqual(expect.arrayContaining(["$EXA_API_KEY", "!pass show exa"]));
	});
});

describe("VS Code's JSON language service on our files", () => {
	for (const file of exampleFiles) {
		it(`examples/${file}: no diagnostics in JSON-with-comments mode, with its $schema resolved`, async () => {
			const run = editor();
			expect(await diagnose(run, join(examples, file), readFileSync(join(examples, file), "utf8"))).toEqual([]);
			expect(run.requested).toEqual([`file://${REPO_SCHEMA}`]);
		});
	}

	it("the README's example is clean for our loader and for VS Code, its $schema resolved as pi installs the package", async () => {
		const readme = readFileSync(join(import.meta.dirname, "..", "README.md"), "utf8");
		const text = /```jsonc\n([\s\S]*?)```/.exec(readme)?.[1] ?? "";
		const agent = mkdtempSync(join(tmpdir(), "pwa-readme-"));
		const installed = join(agent, "npm", "node_modules", PACKAGE_NAME, SCHEMA_PACKAGE_PATH);
		mkdirSync(dirname(installed), { recursive: true });
		copyFileSync(REPO_SCHEMA, installed);
		const file = join(agent, "pi-web-access.json");
		expect(loadConfigText(text, file).diagnostics).toEqual([]);
		const run = editor();
		expect(await diagnose(run, file, text)).toEqual([]);
		expect(run.requested).toEqual([`file://${installed}`]);
	});

	it("reports JSON5-only syntax (unquoted keys, trailing commas): what the examples must avoid", async () => {
		const found = await diagnose(editor(), crafted, `${HEAD}\tproviders: { "exa": { "type": "exa", } }\n}`);
		expect(found.map((f) => `${f.line}:${f.col}`)).toEqual(["3:2", "3:37"]);
		expect(found.map((f) => f.message)).toEqual(["Property keys must be doublequoted", "Trailing comma"]);
	});

	it("reports a broken file's schema errors at exactly the positions our loader reports", async () => {
		const text = `${HEAD}\t"providers": {
		"exa": { "type": "exa", "timeoutMs": "fast", "searchDepth": "basic" },
		"t": { "type": "tavily", "searchDepth": "deepest" },
		"n": { "model": "x" },
		"b": { "type": "bing" },
		"s": { "type": "searxng" }
	},
	"policy": { "onEmpty": "sometimes", "maxAttempts": 0, "cooldown": { "baseMs": -1 } },
	"rules": [{ "name": "r", "sites": ["x.com"], "recency": ["decade"], "search": ["exa"], "bogus": 1 }],
	"fetchGuard": { "allowedRanges": ["nope"] },
	"search": ["exa", 3]
}`;
		const ours = loadConfigText(text, crafted).diagnostics.map((d) => `${d.line}:${d.col}`);
		const theirs = (await diagnose(editor(), crafted, text)).map((d) => `${d.line}:${d.col}`);
		expect(ours).toHaveLength(13);
		expect([...theirs].sort()).toEqual([...ours].sort());
	});

	it('completes every provider type after "type": ', async () => {
		const labels = await complete(editor(), crafted, `${HEAD}\t"providers": { "p": { "type": | } }\n}`);
		expect([...labels].sort()).toEqual(
			Object.keys(providerTypes)
				.map((t) => JSON.stringify(t))
				.sort(),
		);
	});

	it("offers an exa provider exa's options and not tavily's, and flags tavily's there", async () => {
		const run = editor();
		const labels = await complete(run, crafted, `${HEAD}\t"providers": { "p": { "type": "exa", | } }\n}`);
		expect(labels).toEqual(expect.arrayContaining(["searchType", "category", "maxAgeHours", "apiKey", "timeoutMs"]));
		expect(labels).not.toContain("searchDepth");
		expect(labels).not.toContain("topic");
		const tavily = await complete(run, crafted, `${HEAD}\t"providers": { "p": { "type": "tavily", | } }\n}`);
		expect(tavily).toEqual(expect.arrayContaining(["searchDepth", "topic"]));
		expect(tavily).not.toContain("searchType");
		const flagged = await diagnose(
			run,
			crafted,
			`${HEAD}\t"providers": { "p": { "type": "exa", "searchDepth": "basic" } }\n}`,
		);
		expect(flagged).toEqual([{ line: 3, col: 39, message: "Property searchDepth is not allowed." }]);
	});

	it("completes enum values with their descriptions and a type's defaults", async () => {
		const run = editor();
		const onEmpty = await complete(run, crafted, `${HEAD}\t"policy": { "onEmpty": | }\n}`);
		expect(onEmpty).toEqual(['"next"', '"stop"', '"next-if-filtered"']);
		const timeout = await complete(run, crafted, `${HEAD}\t"providers": { "p": { "type": "exa", "timeoutMs": | } }\n}`);
		expect(timeout).toContain("30000");
	});

	it("explains hedgeAfterMs on hover, and a site pattern with its forms", async () => {
		const run = editor();
		const text = await hover(run, crafted, `${HEAD}\t"policy": { "hedgeA|fterMs": 4000 }\n}`);
		expect(text).toContain("Start the next step too when the running one has not answered after this many ms");
		const site = await hover(
			run,
			crafted,
			`${HEAD}\t"rules": [{ "name": "r", "sites": ["go.d|ev"], "search": [] }]\n}`,
		);
		expect(site).toContain("`*.github.io`");
	});
});
