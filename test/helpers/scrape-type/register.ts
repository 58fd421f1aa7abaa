// Registers the test-only "scrape" type the way providers/index.ts lists each built-in type: its facts and a lazy
// loader for its implementation. Import it before anything that reads the registry's tables.

import { registerProviderType } from "../../../providers/registry.ts";
import { loadDefault } from "../../../providers/type-facts.ts";
import { installRegistrySchema } from "../../../schema/registry-schema.ts";
import scrape from "./facts.ts";

registerProviderType({ ...scrape, load: () => loadDefault(import("./scrape.ts")) });
installRegistrySchema();
