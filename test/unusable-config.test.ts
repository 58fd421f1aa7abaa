// A config file that cannot be used (syntax error, not an object) never takes the keyless defaults down: the
// zero-config set-up runs and every message says so; diagnostics reach the user in every pi mode, always with the
// fix (one formatter); a failed call names the file and its first error; a broken reload keeps the last good config.

import { describe, expect, it } from "vitest";
import { plan } from "../engine/plan.ts";
import { fetchRequest } from "../engine/requests.ts";
import { configErrorNote, reportDiagnostics } from "../extension/report-diagnostics.ts";
import { createSetup } from "../runtime/setup.ts";
import { waitFor } from "./e2e/fakes.ts";
import { loadExtension, useSandbox } from "./helpers/fake-pi.ts";

const box = useSandbox();
const SYNTAX = '{\n  providers: {\n    exa: { type: "exa" ,, }\n  }\n}\n';

/** The machine's own browser left out, so zero-config is the same on every machine. */
const NO_BROWSER = { PI_WEB_ACCESS_BROWSER: "none" };

describe("an unusable file", () => {
	it.each([
		[
			"a syntax error",
			SYNTAX,
			/^pi-web-access\.json is not usable \(3:\d+ syntax error: .*\): running on zero-config$/,
		],
		["not an object", "[1, 2]\n", /^pi-web-access\.json is not usable \(1:1 .*\): running on zero-config$/],
	])("with %s runs zero-config: keyless direct fetch is ready", (_what, text, notice) => {
		const file = box.writeConfig(text);
		const setup = createSetup({ configFile: file, env: NO_BROWSER });
		expect(setup.zeroConfig).toBe(true);
		expect(setup.notice).toMatch(notice);
		const fetch = plan(setup.table, fetchRequest({ url: "https://docs.example.org/page" }), setup.context);
		expect(fetch.steps.map((s) => [s.provider, s.status])).toEqual([["direct", "ready"]]);
	});

	it("is said in /web-access and at session start, and a later broken reload keeps the running set-up", async () => {
		const file = box.writeConfig(SYNTAX);
		const ext = loadExtension();
		await ext.emit("session_start");
		// With a UI the host loads in the background after session_start; the notice follows when it is loaded.
		await waitFor("the start-up notice", () => (ext.notes.length > 0 ? true : undefined), 20_000);
		expect(ext.notes).toHaveLength(1);
		expect(ext.notes[0]?.message).toMatch(/^pi-web-access: pi-web-access\.json is not usable .*running on zero-config/);
		expect(ext.notes[0]?.message).toContain(`${file}:3:`);
		expect(ext.notes[0]?.message, "the fix is shown, as the CLI shows it").toMatch(/\(fix: fix the syntax/);
		const status = (await ext.command("status")).map((n) => n.message).join("\n");
		expect(status).toContain("NOT usable — running on zero-config until it is fixed");
		expect(status).toContain("fetch chain: direct");

		box.writeConfig({ providers: { exa: box.exa(box.first) }, search: ["exa"], state: { persist: false } });
		await ext.command("reload");
		box.writeConfig("{ oops");
		const kept = (await ext.command("reload")).map((n) => n.message).join("\n");
		expect(kept).toMatch(/is not usable \(1:\d+ syntax error.*\): keeping the last good config/);
		expect((await ext.command("status")).map((n) => n.message).join("\n")).toContain("search chain: exa");
		await ext.emit("session_shutdown");
	});
});

describe("diagnostics in every mode", () => {
	const setup = () =>
		createSetup({ configFile: box.writeConfig('{ provders: { exa: { type: "exa" } } }'), env: NO_BROWSER });

	it("go to stderr once, file:line:col: severity: message (fix: …), when pi has no UI (print, json)", () => {
		const written: string[] = [];
		const notified: string[] = [];
		reportDiagnostics(setup(), { hasUI: false, ui: { notify: (m) => notified.push(m) } }, (t) => written.push(t));
		expect(notified).toEqual([]);
		expect(written).toHaveLength(1);
		expect(written[0]).toMatch(/\n.*pi-web-access\.json:1:3: warning: unknown key "provders".* \(fix: .*\)\n$/);
	});

	it("go through pi's UI when it has one (TUI, rpc)", () => {
		const written: string[] = [];
		const notified: string[] = [];
		reportDiagnostics(setup(), { hasUI: true, ui: { notify: (m) => notified.push(m) } }, (t) => written.push(t));
		expect(written).toEqual([]);
		expect(notified[0]).toMatch(/unknown key "provders".*\(fix: /);
	});

	it("name the file and its first error in a failed call's message", () => {
		const broken = createSetup({ configFile: box.writeConfig(SYNTAX), env: NO_BROWSER });
		expect(configErrorNote(broken)).toMatch(/running on zero-config: .*pi-web-access\.json:3:\d+: error: syntax error/);
		const fine = createSetup({ configFile: box.writeConfig({ providers: {} }), env: NO_BROWSER });
		expect(configErrorNote(fine)).toBe("");
	});
});
