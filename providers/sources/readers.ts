// The source readers, one line each (its module holds its URL match and its read). A URL is read by the first
// reader whose source is switched on, owns the URL's host and matches its path (providers/sources/route.ts).

import { arxivPaper } from "./arxiv.ts";
import type { SourceReader } from "./contract.ts";
import { cratesCrate } from "./crates.ts";
import { docsrsCrate } from "./docsrs.ts";
import { githubCommit } from "./github-commit.ts";
import { githubIssue } from "./github-issue.ts";
import { githubRelease } from "./github-release.ts";
import { goPackage } from "./go.ts";
import { npmPackage } from "./npm.ts";
import { pypiProject } from "./pypi.ts";
import { stackoverflowQuestion } from "./stackoverflow.ts";

export const READERS: readonly SourceReader[] = [
	githubIssue,
	githubRelease,
	githubCommit,
	npmPackage,
	pypiProject,
	cratesCrate,
	stackoverflowQuestion,
	arxivPaper,
	// Last: their paths are any path of their hosts (a Go import path, a crate name), so on a host shared with other
	// sources (a mirror, the bench's loopback) the readers of narrower paths match first.
	docsrsCrate,
	goPackage,
];
