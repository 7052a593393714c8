// One Go WebAssembly instance and the byte-level calls into it. Internal.
import { Go } from "../wasm_exec.js";
import { ToolgateError, errorFromGo, errorFromData } from "./errors.js";
import { parseExact } from "./json.js";
import { HostTable } from "./host.js";
import { validatorImports } from "./validator.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const BOOT = "__toolgate_boot";

/**
 * Runs one Go instance. Synchronous calls go through //go:wasmexport
 * functions over linear memory; asynchronous ones through boot.async, which
 * calls back the function it is given with the answer. If the Go program ever exits, pending calls reject with
 * `internal` and the next call starts a fresh instance (state held in Go is
 * rebuilt by the callers, which watch `generation`).
 */
export class GoInstance {
  /** `expectedOps` is the build's synchronous operation table as the package was generated with (contract.js). */
  constructor(module, expectedVersion, expectedOps) {
    this.module = module;
    this.expectedVersion = expectedVersion;
    this.expectedOps = expectedOps;
    this.generation = 0;
    this.pending = new Set();
    this.ex = null;
    /** The validator module's call (validator.js's ValidatorModule.call), if any: Go reaches it through the "toolgate" imports. */
    this.validator = undefined;
    /** The ValidatorModule itself (validator.js), when initialize made one. */
    this.validatorModule = null;
    this.hosts = new HostTable();
  }

  /** How many JS values the Go program holds references to (wasm_exec's table): the leak checks' count. */
  liveRefs() {
    return this._go?._ids?.size ?? NaN;
  }

  /** The number Go calls `fn` by (a hook given as an option); `what` names it in errors. See host.js. */
  hostFunction(fn, what) {
    return this.hosts.add(fn, what);
  }

  /** Starts the Go program; browsers refuse synchronous instantiation of large modules, so this is async. */
  async startAsync() {
    const go = this._newGo();
    const instance = await WebAssembly.instantiate(this.module, go.importObject);
    this._run(go, instance);
  }

  /** Restarts the Go program synchronously (Node; small modules in browsers). */
  start() {
    const go = this._newGo();
    this._run(go, new WebAssembly.Instance(this.module, go.importObject));
  }

  _newGo() {
    const go = new Go();
    this._go = go;
    // Go's core.RemoteValidator: two imports over linear memory, so no JS value is handed to Go
    // per call (Go would release it only from a finalizer, which synchronous calls never give time).
    go.importObject.toolgate = validatorImports(
      () => this.validator,
      () => go._inst.exports.mem,
    );
    const gojs = go.importObject.gojs;
    const schedule = gojs["runtime.scheduleTimeoutEvent"];
    if (typeof schedule === "function") {
      gojs["runtime.scheduleTimeoutEvent"] = (sp) => {
        schedule(sp);
        const t = go._scheduledTimeouts?.get(go._nextCallbackTimeoutID - 1); // the one just set
        if (this.pending.size === 0 && typeof t?.unref === "function") t.unref();
      };
    }
    go.exit = (code) => {
      // wasm_exec keeps Go's timers as JS timeouts; after an exit they would
      // resume a dead program and throw from a timer, so clear them.
      for (const t of go._scheduledTimeouts?.values() ?? []) clearTimeout(t);
      go._scheduledTimeouts?.clear();
      this._exited(code);
    };
    return go;
  }

  /**
   * Lets Go's timers keep Node's event loop alive only while an asynchronous call is in flight.
   * Go's js/wasm scheduler leaves the JS timeout it set for a timer scheduled after that timer is
   * stopped (runtime.beforeIdle replaces it only with a sooner one), so an MCP request's 60 s
   * deadline would hold the process open long after the call and tg.mcp.cleanup() ended. With no call
   * in flight nothing waits on a Go timer, so they are unref()'d; browsers have no unref, and no exit.
   * Called when the first call starts and when the last one ends; a timer set in between is held
   * (Node's default), one set with no call in flight is unref()'d as it is set.
   */
  _holdTimers() {
    const hold = this.pending.size > 0;
    for (const t of this._go?._scheduledTimeouts?.values() ?? []) {
      if (typeof t?.ref === "function") hold ? t.ref() : t.unref();
    }
  }

  _run(go, instance) {
    const boot = {};
    this.hosts.install(boot); // boot.host*: Go calling hooks (host.js)
    globalThis[BOOT] = boot;
    try {
      go.run(instance).catch(() => {});
    } finally {
      delete globalThis[BOOT];
    }
    if (go.exited || typeof boot.async !== "function") {
      throw new ToolgateError("internal", "the WebAssembly module did not start");
    }
    if (boot.version !== this.expectedVersion) {
      throw new ToolgateError(
        "internal",
        `version mismatch: the JS package is ${this.expectedVersion} but the WebAssembly module is ${boot.version}; reinstall toolgate`,
      );
    }
    this.go = go;
    this.boot = boot;
    this.ex = instance.exports;
    this.dead = false;
    this.inPtr = 0;
    this.inCap = 0;
    this.generation++;
    const names = JSON.parse(this._raw(0, 0, "").slice(1));
    if (this.expectedOps && names.join() !== this.expectedOps.join()) {
      throw new ToolgateError("internal", "the WebAssembly module's operations are not the ones this package was built with; reinstall toolgate");
    }
    this.ops = new Map(names.map((n, i) => [n, i]));
  }

  _exited(code) {
    this.dead = true;
    this.ex = null;
    const err = new ToolgateError("internal", `the WebAssembly instance stopped (exit code ${code}); the next call starts a fresh one`);
    for (const reject of this.pending) reject(err);
    this.pending.clear();
  }

  /**
   * Makes sure a live instance exists. After an exit it restarts
   * synchronously; where the host refuses that (a browser's main thread and
   * a large module), it restarts in the background and this call throws
   * `internal` — the next call after the restart succeeds.
   */
  _ensure() {
    if (!this.dead && this.ex) return;
    if (this.restarting) throw new ToolgateError("internal", "the WebAssembly instance is restarting; retry the call");
    try {
      this.start();
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      this.restarting = this.startAsync().finally(() => {
        this.restarting = null;
      });
      this.restarting.catch(() => {});
      throw new ToolgateError("internal", "the WebAssembly instance is restarting; retry the call", { cause: e });
    }
  }

  /**
   * Go's count of registry changes (core.RegistryChanges, read from linear memory without a call),
   * or NaN when there is no live instance or the module does not share it.
   */
  changes() {
    const ex = this.ex;
    if (this.dead || !ex || typeof this.boot?.changes !== "number") return NaN;
    const buf = ex.mem.buffer;
    if (this._changesBuf !== buf) {
      this._changesBuf = buf;
      this._changesView = new Uint32Array(buf, this.boot.changes, 2);
    }
    return this._changesView[0] + this._changesView[1] * 2 ** 32;
  }

  _raw(op, handle, payload) {
    const ex = this.ex;
    // Small payloads are encoded straight into Go's buffer (sized for the
    // worst case of 3 bytes per UTF-16 unit); large ones are encoded first so
    // the buffer, which WebAssembly memory never gives back, is only as big
    // as the bytes.
    const bytes = payload.length > 1 << 20 ? encoder.encode(payload) : null;
    const need = bytes ? bytes.length + 1 : payload.length * 3 + 1;
    if (need > this.inCap) {
      this.inPtr = ex.toolgate_buffer(need) >>> 0; // a wasm32 address: unsigned, up to 4 GiB
      this.inCap = need;
    }
    const mem = this._bytes();
    let written;
    if (bytes) {
      mem.set(bytes, this.inPtr);
      written = bytes.length;
    } else {
      written = encoder.encodeInto(payload, mem.subarray(this.inPtr, this.inPtr + need)).written;
    }
    const p = ex.toolgate_call(op, handle, written) >>> 0;
    const out = this._bytes(); // the call may have grown memory
    const len = out[p] | (out[p + 1] << 8) | (out[p + 2] << 16) | (out[p + 3] << 24);
    return decoder.decode(out.subarray(p + 4, p + 4 + (len >>> 0)));
  }

  /** A byte view of linear memory, made again only when memory grew (growing detaches the old buffer). */
  _bytes() {
    const buf = this.ex.mem.buffer;
    if (this.memView?.buffer !== buf) this.memView = new Uint8Array(buf);
    return this.memView;
  }

  /** Calls a synchronous Go operation; returns its JSON text or throws. */
  call(opName, handle, payload) {
    this._ensure();
    const op = this.ops.get(opName);
    if (op === undefined) throw new ToolgateError("unsupported", `${opName} is not available in this build`);
    let out;
    try {
      out = this._raw(op, handle | 0, payload);
    } catch (e) {
      if (this.dead) throw new ToolgateError("internal", "the WebAssembly instance stopped during the call", { cause: e });
      throw new ToolgateError("internal", `WebAssembly call failed: ${e && e.message}`, { cause: e });
    }
    if (out.charCodeAt(0) === 48) return out.slice(1);
    throw errorFromGo(out.slice(1));
  }

  /** Calls a synchronous op and parses its JSON result. */
  callJSON(opName, handle, payload) {
    return JSON.parse(this.call(opName, handle, payload));
  }

  /** Calls an asynchronous Go operation; an AbortSignal cancels its context. */
  async callAsync(opName, handle, payload, signal) {
    if (this.restarting) await this.restarting;
    this._ensure();
    const boot = this.boot;
    let onAbort;
    const out = await new Promise((resolve, reject) => {
      this.pending.add(reject);
      if (this.pending.size === 1) this._holdTimers(); // the first call in flight: hold them
      // Go calls done with its answer (jsbridge/wasm_exports.go asyncEntry): no promise of Go's to chain.
      const done = (v) => {
        this.pending.delete(reject);
        if (this.pending.size === 0) this._holdTimers(); // the last one done: let go
        resolve(v);
      };
      const cancelID = boot.async(opName, handle | 0, payload, done);
      if (signal) {
        onAbort = () => boot.cancel(cancelID);
        if (signal.aborted) onAbort();
        else signal.addEventListener("abort", onAbort, { once: true });
      }
    }).finally(() => {
      if (signal && onAbort) signal.removeEventListener("abort", onAbort);
    });
    if (out.charCodeAt(0) === 48) return parseExact(out.slice(1)); // an MCP result may hold integers beyond 2^53
    throw asyncError(out.slice(1));
  }
}

/** An async operation's error: an MCP tool-error's result may hold integers beyond 2^53 too. */
function asyncError(text) {
  if (!text.includes('"result":')) return errorFromGo(text);
  try {
    return errorFromData(parseExact(text));
  } catch {
    return errorFromGo(text);
  }
}
