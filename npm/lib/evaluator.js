// TEMPORARY shim (wt/plans): replaced by the evaluator at merge
// The evaluator's signature over today's pre-check (precheck.js): it answers only the calls the
// pre-check finds certainly valid, and undefined (not modelled) for everything else. Node and browser.
import { compilePrecheck } from "./precheck.js";

/**
 * Compiles Go's exported program for `toolName` into {object(args), text(json)}, each returning
 * {ok: true, arguments} | {ok: false, error} | undefined (not modelled). @internal
 */
export function compileEvaluator(program, _toolName) {
  const p = compilePrecheck(program);
  const wrap = (args) => (args === undefined ? undefined : { ok: true, arguments: args });
  return {
    object: (args) => wrap(p.object(args)),
    text: (json) => wrap(p.text(json)),
  };
}
