// TUI rendering: pi-tui's Text once preloadRender ran (a TUI session; the host draws nothing of ours before it), and
// the component of the previous render reused.

import { Text } from "@earendil-works/pi-tui";
import { describe, expect, it } from "vitest";
import { preloadRender, renderFetchResult, renderReport, renderSearchCall } from "../extension/render.ts";

const theme = { fg: (_color: string, text: string) => text, bold: (text: string) => text };

describe("render", () => {
	it("refuses to draw before pi-tui is loaded, then draws with pi-tui's Text and reuses the last one", async () => {
		expect(() => renderSearchCall({ query: "golang generics" }, theme, {})).toThrow(/before preloadRender/);
		await preloadRender();
		const text = renderSearchCall({ query: "golang generics" }, theme, {});
		expect(text).toBeInstanceOf(Text);
		expect(text.render(80).join("\n")).toContain("web_search golang generics");
		expect(renderSearchCall({ query: "again" }, theme, { lastComponent: text })).toBe(text);
	});
});

describe("a /web-access report", () => {
	it("draws the report's text under a web-access title, and an empty entry without failing", async () => {
		await preloadRender();
		const drawn = renderReport(
			{ text: "config: /x/pi-web-access.json (loaded)\nsearch chain: exa", level: "info" },
			theme,
		);
		expect(drawn.render(80).map((line) => line.trimEnd())).toEqual([
			"web-access",
			"config: /x/pi-web-access.json (loaded)",
			"search chain: exa",
		]);
		expect(
			renderReport(undefined, theme)
				.render(80)
				.map((line) => line.trimEnd()),
		).toEqual(["web-access", ""]);
	});
});

describe("a failed call's collapsed line", () => {
	it("says cancelled for a cancelled call (pi's result for the error it threw), and the kind for a failure", async () => {
		await preloadRender();
		const cancelled = { content: [{ type: "text", text: "fetch cancelled" }], details: {} };
		const line = (result: Parameters<typeof renderFetchResult>[0]) =>
			renderFetchResult(result, { expanded: false }, theme, { isError: true }).render(120)[0]?.trimEnd();
		expect(line(cancelled)).toBe("✗ fetch cancelled");
		const failed = {
			content: [{ type: "text", text: "no fetch provider answered" }],
			details: { failure: { kind: "rate-limit" } },
		};
		expect(line(failed as Parameters<typeof renderFetchResult>[0])).toBe("✗ failed (rate-limit)");
	});
});
