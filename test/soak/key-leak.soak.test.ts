// Key leakage, soak variant (`npm run soak`): per SOAK round 40 random keys through the services, 15 through the pi
// tools and /web-access, 10 through the CLI, every provider type; the fast variant is test/key-leak.test.ts.

import { afterAll, beforeAll, describe, it } from "vitest";
import { type EchoServer, startEchoServer } from "../helpers/echo-server.ts";
import { assertNoLeak, CLI_MODES, CLI_TYPES, newTally, removeLeakDirs, TYPES } from "../helpers/leak-run.ts";

const rounds = Math.max(1, Number.parseInt(process.env.SOAK ?? "", 10) || 1);
const KEYS = { services: 40 * rounds, tools: 15 * rounds, cli: 10 * rounds };
const TIMEOUT_MS = 3_600_000 * rounds;

describe.skipIf(!process.env.SOAK)("key leakage soak", () => {
	let echo: EchoServer;
	const tally = newTally();
	beforeAll(async () => {
		echo = await startEchoServer();
	});
	afterAll(async () => {
		await echo.close();
		removeLeakDirs();
		console.log(
			`soak key-leak: ${tally.keys} keys × provider types = ${tally.keyTypes}, ${tally.runs} configured runs`,
		);
	});

	it(
		`services: ${KEYS.services} keys × every type, key source and fault`,
		async () => {
			const sources = ["literal", "command", "pi"] as const;
			await assertNoLeak({
				path: "services",
				echo,
				numRuns: KEYS.services,
				types: TYPES,
				sources: [...sources],
				tally,
			});
		},
		TIMEOUT_MS,
	);

	it(
		`pi tools and /web-access: ${KEYS.tools} keys`,
		async () => {
			await assertNoLeak({ path: "tools", echo, numRuns: KEYS.tools, types: TYPES, sources: ["literal", "pi"], tally });
		},
		TIMEOUT_MS,
	);

	it(
		`CLI: ${KEYS.cli} keys`,
		async () => {
			const sources: Array<"literal" | "command"> = ["literal", "command"];
			await assertNoLeak({ path: "cli", echo, numRuns: KEYS.cli, types: CLI_TYPES, modes: CLI_MODES, sources, tally });
		},
		TIMEOUT_MS,
	);
});
