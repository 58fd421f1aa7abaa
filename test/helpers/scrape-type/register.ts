// Registers the test-only "scrape" type: the one line a type needs besides its folder (providers/index.ts has the
// same line for each built-in type). Import it before anything that reads the registry's tables.

import { registerProviderType } from "../../../providers/registry.ts";
import scrape from "./facts.ts";

registerProviderType(scrape);
