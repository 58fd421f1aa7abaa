// Where pi-web-access's files are, for the shells (the host, the CLI): pi's agent dir and the config file. Light on
// purpose: it loads no loader, executor or provider.

export { agentDir, CONFIG_FILE_NAMES, chooseConfigFile } from "../schema/paths.ts";
