// The per-instance context every module is handed: the GoInstance, the release of Go handles
// when their JS owners are collected, and the Tool objects by Go handle. Node and browser.

/** Releases one Go handle, unless its instance has restarted or stopped since (best effort). */
function release(inst, { op, handle, gen }) {
  if (gen !== inst.generation || inst.dead) return;
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
    this.registry = typeof FinalizationRegistry === "function" ? new FinalizationRegistry((held) => release(inst, held)) : null;
  }

  /** Calls Go's `op` on `handle` once `owner` is garbage-collected (same instance generation only). */
  track(owner, op, handle) {
    this.registry?.register(owner, { op, handle, gen: this.inst.generation });
  }

  /** Whether a handle made in generation `gen` is gone: the instance restarted or stopped since. */
  stale(gen) {
    return gen !== this.inst.generation || this.inst.dead;
  }
}
