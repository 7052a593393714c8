// toolgate for browsers and bundlers (ESM).
import { makeInitialize } from "./lib/initialize.js";
import { mcpBuild } from "./lib/mcp.js";
import { loadBrowser, browserValidatorSource } from "./lib/load-browser.js";
export { ToolgateError } from "./lib/errors.js";

/** Loads toolgate (full build) and returns its API. Browser. */
export const initialize = makeInitialize(
  "full",
  new URL("./toolgate.wasm", import.meta.url),
  loadBrowser,
  mcpBuild,
  new URL("./toolgate-validator.wasm", import.meta.url),
  browserValidatorSource,
);
