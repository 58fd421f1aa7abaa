// Where pi-web-access's files are, for the shells: pi's agent dir and the config file. Light on purpose: the
// extension's factory reads the tool names through it at pi start-up, so it loads no loader, executor or provider.

export { agentDir, CONFIG_FILE_NAMES, chooseConfigFile, configPath } from "../schema/paths.ts";
