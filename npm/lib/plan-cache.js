// The plans of one branch's JS evaluator: for the name of a plain call, the typed JS tool Go
// resolved it to, so that a later call of that name may be answered, valid or refused, by the
// tool's evaluator (evaluator.js) without crossing to Go. Go alone decides which names may have a plan: its match
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
  #plans = new Map(); // name -> typed JS Tool, as Go resolved it at #stamp (its evaluator built on the first call it may answer)
  #stamp = NaN; // the change count #plans holds for
  #answered = 0; // matches and validations the evaluator answered (for the differential tests)
  #enabled = true; // false: every call crosses to Go (the differential tests' reference)
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
    if (!t || t._spec.kind !== "typed") return; // its program is asked of Go when a later call needs it
    if (this.#stamp !== stamp) {
      this.#plans.clear();
      this.#stamp = stamp;
    }
    this.#plans.set(name, t);
  }
  /**
   * A plain request answered in JS, as {tool, verdict}: its name has a plan (the registry unchanged
   * since) and the tool's evaluator gives a verdict ({ok: true, arguments, conversions?} or {ok:
   * false, error}, what Go's match and validate answer alike for a typed tool); else undefined, and
   * the call goes to Go.
   */
  answer(request) {
    if (this.#plans.size === 0 || !this.#enabled) return undefined;
    if (this.#changes() !== this.#stamp) {
      this.clear();
      return undefined;
    }
    const name = plainName(this.#ctx, request);
    const t = name === undefined ? undefined : this.#plans.get(name);
    if (!t) return undefined;
    const ev = t._evaluator;
    if (!ev) {
      this.#plans.delete(name); // Go exported no program: its calls cross to Go
      return undefined;
    }
    const a = request.arguments;
    let verdict;
    if (typeof a === "string") verdict = ev.text(a);
    else if (a !== null && typeof a === "object" && !Array.isArray(a)) verdict = ev.object(a);
    if (verdict === undefined) return undefined;
    this.#answered++;
    return { tool: t, verdict };
  }
  /** How many matches and validations the evaluator answered. */
  get answered() {
    return this.#answered;
  }
  /** Turns the evaluator off (every call crosses to Go) or on again; for the differential tests. */
  set enabled(on) {
    this.#enabled = !!on;
  }
}
