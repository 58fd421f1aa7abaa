// Request and output limits, defined once: the tool schemas, the CLI flags, request validation, the fetch window,
// the config schema and the text output read them. A module of its own with no imports, so the extension's
// factory can build its schemas from it without loading the site-pattern engine.

export const REQUEST_LIMITS = {
	maxQueryChars: 2000,
	maxDomains: 200,
	maxResultsDefault: 5,
	maxResultsMax: 20,
	maxUrlChars: 8192,
	maxCharsDefault: 20000,
	maxCharsMin: 1000,
	maxCharsMax: 100000,
};

/** The text the model sees (and the CLI prints): its hard cap (config `output.maxChars`) and how URLs are shown. */
export const OUTPUT_DEFAULTS = {
	maxChars: 30000,
	/** URLs in text output are cut to this length (the full URL stays in structuredContent and --json). */
	urlShownChars: 300,
};
