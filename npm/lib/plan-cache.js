// The plans of one branch's JS pre-check: for the name of a plain call, the typed JS tool Go
// resolved it to, so that a later call of that name may be answered by the tool's pre-check
// (precheck.js) without crossing to Go. Go alone decides which names may have a plan: its match
// answer says `precheck: true` (jsbridge/ops_branch.go, precheckable; core.Manager.ResolvesDirectly:
// the name is registered, no exported alias stands for it, its tool has no argument restore).
// Plans hold while Go's registry change counter (core.RegistryChanges, read from memory without a
// call) stays what it was when Go answered: a registration, a replacement, a removal or an export
// in any branch changes it and drops them all. Node and browser.
import { isToolOf } from "./tool.js";

/** The name a plain {function, arguments} request asks for (a string or a Tool of this API), else undefined. */
function plainName(ctx, request) {
  if (request === null || typeof request !== "object" || Object.getPrototypeOf(request) !== Object.prototype) return undefined;
  const keys = Object.keys(request);
  if (keys.length !== 2 || !Object.hasOwn(request, "function") || !Object.hasOwn(request, "arguments")) return undefined;
  const f = request.function;
  if (typeof f === "string") return f;
  return isToolOf(ctx, f) ? f.function : undefined;
}

/**
 * One branch's plans. `changes` is Go's registry change count while the branch's handle is
 * current, else NaN (then nothing is learned or answered). Node and browser. @internal
 */
export class PlanCache {
  #ctx;
  #changes;
  #plans = new Map(); // name -> typed JS Tool with a pre-check, as Go resolved it at #stamp
  #stamp = NaN; // the change count #plans holds for
  #answered = 0; // matches and validations the pre-check answered (for the differential tests)
  constructor(ctx, changes) {
    this.#ctx = ctx;
    this.#changes = changes;
  }
  /** The change count now: read it before calling Go, and hand it to learn with Go's answer. */
  stamp() {
    return this.#changes();
  }
  /** Drops every plan (the branch was rebuilt in a new instance, whose counter means nothing here). */
  clear() {
    this.#plans.clear();
    this.#stamp = NaN;
  }
  /** Remembers the tool of Go's match answer `m` for a plain request, when Go says so and nothing changed since `stamp`. */
  learn(request, m, stamp) {
    if (!m.precheck || stamp !== stamp || this.#changes() !== stamp) return;
    const name = plainName(this.#ctx, request);
    const t = name === undefined ? undefined : this.#ctx.tools.get(m.tool)?.deref();
    if (!t || !t._precheck) return;
    if (this.#stamp !== stamp) {
      this.#plans.clear();
      this.#stamp = stamp;
    }
    this.#plans.set(name, t);
  }
  /**
   * A plain request answered in JS, as {tool, function, arguments}: its name has a plan (the
   * registry unchanged since) and the tool's pre-check finds the arguments certainly valid (what
   * Go's validate accepts, its match accepts too); else undefined, and the call goes to Go.
   */
  answer(request) {
    if (this.#plans.size === 0) return undefined;
    if (this.#changes() !== this.#stamp) {
      this.clear();
      return undefined;
    }
    const name = plainName(this.#ctx, request);
    const t = name === undefined ? undefined : this.#plans.get(name);
    if (!t) return undefined;
    const a = request.arguments;
    let args;
    if (typeof a === "string") args = t._precheck.text(a);
    else if (a !== null && typeof a === "object" && !Array.isArray(a)) args = t._precheck.object(a);
    if (args === undefined) return undefined;
    this.#answered++;
    return { tool: t, function: t.function, arguments: args };
  }
  /** How many matches and validations the pre-check answered. */
  get answered() {
    return this.#answered;
  }
}
