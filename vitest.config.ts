// Vitest: one run covers unit, property and end-to-end tests; soak variants are opt-in (SOAK=1).
import { defineConfig } from "vitest/config";

export default defineConfig({
	test: {
		include: ["test/**/*.test.ts"],
		// Temp HOME, agent dir and TMPDIR for every worker; fails the run if the real home changed.
		globalSetup: ["test/global-setup.ts"],
		testTimeout: 30_000,
		hookTimeout: 30_000,
		pool: "forks",
	},
});
