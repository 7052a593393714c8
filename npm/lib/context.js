// The per-instance context every module is handed: the GoInstance, the release of Go handles
// when their JS owners are collected, and the Tool objects by Go handle. Node and browser.

/**
 * Releases one Go handle, unless its instance has restarted or stopped since (best effort), or,
 * for a tool, a newer wrapper of the same handle is alive (the handle then stays until that one
 * goes): a wrapper can be collected and a new one made for its handle before the collection's
 * callback runs.
 */
function release(ctx, { op, handle, gen, ref }) {
  const inst = ctx.inst;
  if (gen !== inst.generation || inst.dead) return;
  if (ref !== undefined) {
    if (ctx.tools.get(handle) !== ref) return;
    ctx.tools.delete(handle);
    ctx.releases++; // the handles a branch's list cache holds may be among them
  }
  try {
    inst.call(op, handle, "");
  } catch {
    /* best effort */
  }
}

/**
 * The state of one API over one GoInstance; passed explicitly to every class and function that
 * talks to Go. Node and browser.
 */
export class Context {
  /** @param {import("./instance.js").GoInstance} inst */
  constructor(inst) {
    /** The Go instance. */
    this.inst = inst;
    /** Go handle → WeakRef<Tool>, so a handle Go returns maps back to its Tool object. */
    this.tools = new Map();
    /** The API object over this context (createApi sets it): the SDK adapters reach tg through it. */
    this.api = null;
    /** How many tool handles have been released: a list of handles read before a release may hold one. */
    this.releases = 0;
    this.registry = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((held) => release(this, held)) : null;
  }

  /**
   * Calls Go's `op` on `handle` once `owner` is garbage-collected (same instance generation only);
   * `ref`, for a tool, is the WeakRef this.tools holds for it, so that only the wrapper that
   * holds the handle last releases it.
   */
  track(owner, op, handle, ref) {
    this.registry?.register(owner, { op, handle, gen: this.inst.generation, ref });
  }

  /** Whether a handle made in generation `gen` is gone: the instance restarted or stopped since. */
  stale(gen) {
    return gen !== this.inst.generation || this.inst.dead;
  }
}
