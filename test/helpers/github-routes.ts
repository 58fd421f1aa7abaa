// The recorded GitHub pull request of test/fixtures/sources/github/ routed on a loopback API server, for the tests of
// the github-issue reader that read it (test/sources-github.test.ts, test/sources-github-compact.test.ts).

import type { TestServer } from "../direct-helpers.ts";
import { fixture, json } from "./source-world.ts";

const gh = (name: string) => fixture("github", name);

/**
 * Pull request 9 of acme/widget served as pull request `number`: its issue, comments, pull, files, reviews and review
 * comments (`bare`: no reviews and no review comments).
 */
export function routePull(api: TestServer, number: number, bare = false): void {
	const issue = `/repos/acme/widget/issues/${number}`;
	const pull = `/repos/acme/widget/pulls/${number}`;
	api.route(issue, json(gh("pull-9-issue.json")));
	api.route(`${issue}/comments`, json(gh("pull-9-comments.json")));
	api.route(pull, json(gh("pull-9.json")));
	api.route(`${pull}/files`, json(gh("pull-9-files.json")));
	api.route(`${pull}/reviews`, json(bare ? "[]" : gh("pull-9-reviews.json")));
	api.route(`${pull}/comments`, json(bare ? "[]" : gh("pull-9-review-comments.json")));
}
