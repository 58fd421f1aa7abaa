// The source readers, one line each (its module holds its URL match and its read). A URL is read by the first
// reader whose source is switched on, owns the URL's host and matches its path (providers/sources/route.ts).

import type { SourceReader } from "./contract.ts";
import { githubIssue } from "./github-issue.ts";

export const READERS: readonly SourceReader[] = [githubIssue];
