// Request limits, defined once: the tool schemas, the CLI flags, request validation and the fetch window read
// them. A module of its own with no imports, so the extension's factory can build its schemas from it without
// loading the site-pattern engine.

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
