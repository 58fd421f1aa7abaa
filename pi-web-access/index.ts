// pi's entry for this package (package.json `pi.extensions`): pi names an extension in its start-up listing after
// the folder of its index.ts, so this folder gives it the name pi-web-access. The extension is extension/index.ts.

export { default } from "../extension/index.ts";
