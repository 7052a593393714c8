// toolgate for browsers and bundlers (ESM).
import { makeInitialize } from "./lib/initialize.js";
import { mcpBuild } from "./lib/mcp.js";
import { loadBrowser } from "./lib/load-browser.js";
export { ToolgateError } from "./lib/errors.js";

/** Loads toolgate (full build) and returns its API. Browser. */
export const initialize = makeInitialize("full", new URL("./toolgate.wasm", import.meta.url), loadBrowser, mcpBuild);
