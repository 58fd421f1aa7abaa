#!/usr/bin/env node
// Entry for `pi-web-access`: runs the TypeScript CLI under Node's type stripping (Node >= 22.19).
import { main } from "./main.ts";

process.exitCode = await main(process.argv.slice(2), {
	stdout: (text) => process.stdout.write(text),
	stderr: (text) => process.stderr.write(text),
	env: process.env,
});
