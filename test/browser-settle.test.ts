// How long a rendered page's network must be quiet before it is read (providers/browser/settle.ts quietNeeded):
// the short idle quiet only for a page with no short timer or idle callback queued and a still DOM.

import { describe, expect, it } from "vitest";
import { RENDER_DEFAULTS } from "../providers/browser/render.ts";
import { quietNeeded } from "../providers/browser/settle.ts";

const { networkQuietMs, idleQuietMs } = RENDER_DEFAULTS;
const quietFrom = 1_000_000;

describe("the network quiet a page needs", () => {
	it("is the short idle quiet for a page with nothing queued whose DOM last changed before its network went quiet", () => {
		expect(idleQuietMs).toBeLessThan(networkQuietMs);
		expect(quietNeeded({ queued: 0, lastChange: quietFrom - 50 }, quietFrom, RENDER_DEFAULTS)).toBe(idleQuietMs);
	});

	it("is the whole network quiet while the page has a short timer or idle callback queued", () => {
		expect(quietNeeded({ queued: 1, lastChange: quietFrom - 500 }, quietFrom, RENDER_DEFAULTS)).toBe(networkQuietMs);
	});

	it("waits for the DOM to be still for the idle quiet too, never longer than the whole network quiet", () => {
		// The DOM changed 30 ms after the network went quiet: still for idleQuietMs from then.
		expect(quietNeeded({ queued: 0, lastChange: quietFrom + 30 }, quietFrom, RENDER_DEFAULTS)).toBe(idleQuietMs + 30);
		// A DOM that keeps changing (an animation) leaves the page to the network rule alone.
		expect(quietNeeded({ queued: 0, lastChange: quietFrom + 10_000 }, quietFrom, RENDER_DEFAULTS)).toBe(networkQuietMs);
	});
});
