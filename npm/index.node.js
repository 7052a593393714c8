// toolgate for Node (ESM).
import { makeInitialize } from "./lib/initialize.js";
import { mcpBuild } from "./lib/mcp.js";
import { loadNode, nodeValidatorSource } from "./lib/load-node.js";
export { ToolgateError } from "./lib/errors.js";

/** Loads toolgate (full build) and returns its API. Node. */
export const initialize = makeInitialize(
  "full",
  new URL("./toolgate.wasm", import.meta.url),
  loadNode,
  mcpBuild,
  new URL("./toolgate-validator.wasm", import.meta.url),
  nodeValidatorSource,
);
