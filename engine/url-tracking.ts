// Click and campaign identifiers that ad, analytics and newsletter tools append to links for attribution: the
// server returns the same document without them, so they are noise wherever a URL is shown or compared. Pure.

/**
 * Google Analytics campaign tags (`utm_*`), ad click ids (Google `gclid`/`dclid`/`gbraid`/`wbraid`, Microsoft
 * `msclkid`, Yandex `yclid`), social click ids (Facebook `fbclid`, Instagram `igshid`) and newsletter ids (Mailchimp
 * `mc_cid`/`mc_eid`, HubSpot `_hsenc`/`_hsmi`).
 */
export const TRACKING_PARAM =
	/^(?:utm_.*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|igshid|mc_cid|mc_eid|_hsenc|_hsmi)$/i;

/** A URL's `search` (`?a=1&utm_source=x`) without tracking parameters; the others keep their exact spelling. */
export function withoutTrackingParams(search: string): string {
	if (search === "" || search === "?") return "";
	const kept = search
		.slice(1)
		.split("&")
		.filter((pair) => {
			const name = pair.split("=", 1)[0] ?? "";
			let decoded = name;
			try {
				decoded = decodeURIComponent(name);
			} catch {
				// A malformed escape: the name as written is not a tracking parameter's.
			}
			return pair !== "" && !TRACKING_PARAM.test(decoded);
		});
	return kept.length === 0 ? "" : `?${kept.join("&")}`;
}
