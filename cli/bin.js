#!/usr/bin/env node
// Entry for `pi-web-access`. Plain JavaScript that any Node can parse, so an old Node gets one line naming the
// requirement instead of an import error. An installed copy runs the built `dist/` (Node refuses to strip types
// under node_modules); a checkout runs its TypeScript sources, so what it runs is never a stale build.

const REQUIRED = [22, 19];
const [major, minor] = process.versions.node.split(".").map(Number);
if (major < REQUIRED[0] || (major === REQUIRED[0] && minor < REQUIRED[1])) {
	process.stderr.write(`pi-web-access needs Node ≥ ${REQUIRED.join(".")}; this is ${process.versions.node}\n`);
	process.exit(2);
}

const installed = import.meta.url.includes("/node_modules/");
const { main } = await import(installed ? "../dist/cli/main.js" : "./main.ts");
process.exitCode = await main(process.argv.slice(2), {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	env: process.env,
});
