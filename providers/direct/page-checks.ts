// Pages a plain GET cannot read: anti-bot challenges (Cloudflare "Just a moment...", captchas) and apps that are
// empty without JavaScript. Both are failures, so the chain moves on to a provider that can render.

import type { PageStats } from "./page-types.ts";

/** Markers a challenge page carries whatever its status. */
const STRONG_MARKERS: RegExp[] = [
	/<title>\s*just a moment\.\.\.\s*<\/title>/i,
	/\b_?cf_chl_|\bcf-chl-|\/cdn-cgi\/challenge-platform\//i,
	/<title>\s*attention required! \| cloudflare\s*<\/title>/i,
	/captcha-delivery\.com|\bpx-captcha\b|\bdistil_r_captcha\b/i,
	/<title>\s*(?:ddos-guard|checking your browser)[^<]*<\/title>/i,
];

/** Weaker markers, only counted on a 403/429/503 answer (pages may mention captchas legitimately). */
const STATUS_MARKERS: RegExp[] = [
	/\bg-recaptcha\b|\bh-captcha\b|hcaptcha\.com\/1\/api|recaptcha\/api\.js|challenges\.cloudflare\.com\/turnstile/i,
	/checking (?:if the site connection is secure|your browser)/i,
	/verify (?:that )?you are (?:a )?human|are you a robot|unusual traffic from your computer/i,
	/\bcaptcha\b/i,
];

const CHALLENGE_STATUSES = new Set([403, 429, 503]);

/** Only the head of a body is scanned; challenge pages are small. */
const SCAN_CHARS = 64 * 1024;

/** A reason ("anti-bot challenge (HTTP 403)") when the answer is a challenge page, else undefined. */
export function challengeReason(status: number, headers: Record<string, string>, body: string): string | undefined {
	const label = `anti-bot challenge (HTTP ${status})`;
	if (/challenge/i.test(headers["cf-mitigated"] ?? "")) return label;
	const head = body.slice(0, SCAN_CHARS);
	if (STRONG_MARKERS.some((marker) => marker.test(head))) return label;
	if (CHALLENGE_STATUSES.has(status) && STATUS_MARKERS.some((marker) => marker.test(head))) return label;
	return undefined;
}

const JS_HINT =
	/enable javascript|javascript (?:is )?(?:required|disabled|must be enabled|is not enabled)|requires? javascript|turn on javascript|without javascript|javascript to (?:run|view|use)/i;

export const JS_ONLY_LIMITS = {
	/** Below this much visible text, an empty mount point or an "enable JavaScript" notice means JS-only. */
	hintedChars: 300,
	/** Below this much visible text, any script at all means JS-only. */
	bareChars: 40,
};

/** A reason when the page's readable content depends on JavaScript, else undefined. */
export function jsOnlyReason(stats: PageStats): string | undefined {
	const hinted = stats.emptyMount || JS_HINT.test(stats.noscriptText) || JS_HINT.test(stats.textSample);
	const jsOnly =
		(stats.textLength < JS_ONLY_LIMITS.hintedChars && hinted) ||
		(stats.textLength < JS_ONLY_LIMITS.bareChars && stats.scriptCount > 0);
	return jsOnly ? "page is empty without JavaScript" : undefined;
}
