// toolgate/plan: validating tool calls from plans (tg.buildPlans, the toolgate-plans command) in
// JS alone. It loads no WebAssembly, no loader and no Go instance. Node and browser.
export { loadPlans, Plans } from "./lib/plans.js";
export { ToolgateError } from "./lib/errors.js";
