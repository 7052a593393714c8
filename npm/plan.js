// toolgate/plan: validating tool calls from plans (tg.buildPlans, the toolgate-plans command) in
// JS alone. It loads no WebAssembly, no loader and no Go instance. Node and browser.
export { loadPlans, Plans } from "./lib/plans.js";
export { ToolgateError } from "./lib/errors.js";
// The rest of the module graph, named here so an unbundled browser load fetches it all in one round
// instead of one level at a time (evaluated after the two above, in the order they already imply).
// tests/node/plans.test.mjs holds this list to the graph.
import "./lib/evaluator.js";
import "./lib/size-limits.js";
import "./lib/version.js";
import "./lib/contract.js";
import "./lib/evaluator-check.js";
import "./lib/evaluator-decimal.js";
import "./lib/evaluator-issues.js";
import "./lib/evaluator-lax.js";
import "./lib/evaluator-lax-scalar.js";
import "./lib/evaluator-num.js";
import "./lib/evaluator-read.js";
