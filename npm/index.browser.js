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
// The rest of the module graph, named here so an unbundled browser load fetches it all in one round
// instead of one level at a time (evaluated after the imports above, in the order they already imply).
// tests/node/plans.test.mjs holds this list to the graph.
import "./wasm_exec.js";
import "./lib/contract.js";
import "./lib/json.js";
import "./lib/host.js";
import "./lib/validator.js";
import "./lib/instance.js";
import "./lib/context.js";
import "./lib/schema.js";
import "./lib/evaluator-num.js";
import "./lib/evaluator-decimal.js";
import "./lib/evaluator-read.js";
import "./lib/evaluator-issues.js";
import "./lib/evaluator-check.js";
import "./lib/evaluator-lax-scalar.js";
import "./lib/evaluator-lax.js";
import "./lib/evaluator.js";
import "./lib/size-limits.js";
import "./lib/approval.js";
import "./lib/tool.js";
import "./lib/function-calling.js";
import "./lib/plan-cache.js";
import "./lib/tool-search.js";
import "./lib/branch.js";
import "./lib/provider-calls.js";
import "./lib/provider-result.js";
import "./lib/partial-json.js";
import "./lib/stream-calls.js";
import "./lib/provider-export.js";
import "./lib/version.js";
import "./lib/plans.js";
import "./lib/plan-build.js";
import "./lib/api.js";
import "./lib/mcp-policy.js";
import "./lib/jws.js";
import "./lib/dpop.js";
import "./lib/mcp-auth.js";
