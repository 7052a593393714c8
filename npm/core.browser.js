// toolgate/core for browsers and bundlers (ESM).
import { makeInitialize } from "./lib/initialize.js";
import { loadBrowser, browserValidatorSource } from "./lib/load-browser.js";
export { ToolgateError } from "./lib/errors.js";

/** Loads toolgate (core build) and returns its API. Browser. */
export const initialize = makeInitialize(
  "core",
  new URL("./toolgate-core.wasm", import.meta.url),
  loadBrowser,
  undefined,
  new URL("./toolgate-validator.wasm", import.meta.url),
  browserValidatorSource,
);
