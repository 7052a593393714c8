// toolgate/core for Node (ESM).
import { makeInitialize } from "./lib/initialize.js";
import { loadNode, nodeValidatorSource } from "./lib/load-node.js";
export { ToolgateError } from "./lib/errors.js";

/** Loads toolgate (core build) and returns its API. Node. */
export const initialize = makeInitialize(
  "core",
  new URL("./toolgate-core.wasm", import.meta.url),
  loadNode,
  undefined,
  new URL("./toolgate-validator.wasm", import.meta.url),
  nodeValidatorSource,
);
