// The validator module (toolgate-validator.wasm): the full JSON Schema
// validator, which the core and full modules are built without. They call
// it synchronously, through the imports validatorImports makes (which call
// ValidatorModule's `call`), only for schemas their compiled fast path does
// not cover. Internal.
import { Go } from "../wasm_exec.js";
import { ToolgateError } from "./errors.js";

const encoder = new TextEncoder();

/** An answer of status '2': the validator is not available, and why. */
function unavailable(message) {
  return encoder.encode("2" + message);
}

/** An answer of status '1': an internal error. */
function internal(message) {
  return encoder.encode("1" + JSON.stringify({ code: "internal", message }));
}

/**
 * The "toolgate" imports of a core or full module (jsbridge/wasm_exports.go's //go:wasmimport
 * functions): `validator_call(op, ptr, n)` calls the validator module with the n bytes at ptr and
 * returns the answer's length, keeping the answer (-1 when `getCall()` gives no validator);
 * `validator_answer(ptr, n)` then copies it to ptr. `getMemory()` is the calling module's memory.
 * No JS value crosses to Go, so nothing waits for a Go finalizer.
 */
export function validatorImports(getCall, getMemory) {
  let answer = null;
  return {
    validator_call(op, ptr, n) {
      const call = getCall();
      answer = null;
      if (typeof call !== "function") return -1;
      answer = call(op, new Uint8Array(getMemory().buffer, ptr >>> 0, n >>> 0));
      return answer.length;
    },
    validator_answer(ptr, n) {
      const a = answer;
      answer = null;
      if (a) new Uint8Array(getMemory().buffer, ptr >>> 0, n >>> 0).set(a.subarray(0, n >>> 0));
    },
  };
}

/**
 * The validator module of one initialize(): `mode` is "lazy" (Node reads
 * the file when a schema first needs it; browsers fetch it in the
 * background after initialize), "eager" (loaded and started by initialize)
 * or "never" (schemas outside the fast path are refused with `unsupported`).
 * `source` is { readSync(url) → bytes | null, fetch(url) → Promise<bytes> }.
 */
export class ValidatorModule {
  constructor(mode, url, module, source) {
    this.mode = mode;
    this.url = url;
    this.module = module ?? null;
    this.source = source;
    this.bytes = null;
    this.fetching = null;
    this.fetchError = null;
    this.ex = null;
    this.misses = 0; // calls answered "still downloading": awaitValidator retries the ones it saw
    this.call = (op, payload) => this._call(op, payload);
  }

  /** Fetches (or reads) the bytes and starts the module; initialize awaits this with "eager". */
  async load() {
    if (!this.module) {
      await this.prefetch();
      if (this.fetchError) throw this.fetchError;
      const module = this.module ?? (await WebAssembly.compile(this.bytes)); // a schema may have compiled it meanwhile
      this.module ??= module;
      this.bytes = null;
    }
    if (!this.ex) this._start();
  }

  /**
   * tg.ready("validator"): resolves once the module is compiled and started, so a server can pay
   * for its first use before taking traffic; rejects with `unsupported` when the mode is "never" or
   * the bytes could not be had (a later call fetches them again).
   */
  ready() {
    if (this.ex) return Promise.resolve();
    if (this.mode === "never") {
      return Promise.reject(new ToolgateError("unsupported", 'the full JSON Schema validator is left out by initialize({ validator: "never" }): only schemas the fast path covers compile'));
    }
    this.readying ??= (async () => {
      if (this.fetchError) this.fetching = this.fetchError = null; // fetch again
      try {
        await this.load();
      } catch (e) {
        throw new ToolgateError("unsupported", `the full JSON Schema validator (${this.url}) could not be loaded: ${e?.message ?? e}`, { cause: e });
      } finally {
        this.readying = null;
      }
    })();
    return this.readying;
  }

  /** Drops the running instance, as a failed call does: the next call starts a fresh one, which holds no schema (tests). */
  restart() {
    this.ex = null;
  }

  /** The number of schemas the module holds for the core or full module (0 when it is not running): the leak checks' count. */
  held() {
    if (!this.ex) return 0;
    const out = new TextDecoder().decode(this._call(4, new Uint8Array(0)));
    if (out[0] !== "0") throw new Error(`the validator module's count failed: ${out}`);
    return Number(out.slice(1));
  }

  /**
   * The download in flight (browsers, "lazy", before the bytes have arrived): a promise of its end
   * that never rejects; null when there is none to wait for. The async calls that compile schemas in
   * Go (MCP discovery) await it first, so a tool is not left out for a module still on its way.
   */
  arriving() {
    return this.fetching && !this.ex && !this.module && !this.bytes && !this.fetchError ? this.fetching : null;
  }

  /** Starts fetching the bytes in the background (browsers, "lazy"). */
  prefetch() {
    if (this.module || this.bytes || this.mode === "never") return Promise.resolve();
    if (!this.fetching) {
      this.fetching = this.source.fetch(this.url).then(
        (b) => {
          this.bytes = b;
        },
        (e) => {
          this.fetchError = e;
        },
      );
    }
    return this.fetching;
  }

  _start() {
    const go = new Go();
    go.exit = () => {
      for (const t of go._scheduledTimeouts?.values() ?? []) clearTimeout(t);
      go._scheduledTimeouts?.clear();
      this.ex = null; // the next call starts a fresh instance
    };
    const instance = new WebAssembly.Instance(this.module, go.importObject);
    go.run(instance).catch(() => {});
    if (go.exited) throw new Error("the validator module did not start");
    this.ex = instance.exports;
    this.inPtr = 0;
    this.inCap = 0;
  }

  /** Makes sure the module runs; returns why not, or "". */
  _ensure() {
    if (this.ex) return "";
    if (this.mode === "never") {
      return 'this schema needs the full JSON Schema validator, which initialize({ validator: "never" }) leaves out: only schemas the fast path covers compile';
    }
    if (!this.module) {
      let bytes = this.bytes;
      if (!bytes && this.source.readSync) {
        try {
          bytes = this.source.readSync(this.url);
        } catch (e) {
          return `this schema needs the full JSON Schema validator, and reading ${this.url} failed: ${e?.message ?? e}`;
        }
      }
      if (!bytes) {
        if (this.fetchError) return `this schema needs the full JSON Schema validator, and fetching ${this.url} failed: ${this.fetchError.message ?? this.fetchError}`;
        this.misses++;
        return `this schema needs the full JSON Schema validator (${this.url}), which is still downloading: invoke waits for it by itself; before a synchronous call (tool, register, validate, match) await tg.ready("validator"), or use initialize({ validator: "eager" })`;
      }
      this.module = new WebAssembly.Module(bytes);
      this.bytes = null;
    }
    this._start();
    return "";
  }

  _call(op, payload) {
    try {
      const why = this._ensure();
      if (why) return unavailable(why);
      const ex = this.ex;
      if (payload.length > this.inCap) {
        this.inPtr = ex.validator_buffer(payload.length) >>> 0;
        this.inCap = payload.length;
      }
      new Uint8Array(ex.mem.buffer).set(payload, this.inPtr);
      const p = ex.validator_call(op, payload.length) >>> 0;
      const buf = ex.mem.buffer;
      const len = new DataView(buf).getUint32(p, true);
      return new Uint8Array(buf, p + 4, len); // valid until the next call: the import copies it at once
    } catch (e) {
      this.ex = null;
      return internal(`the validator module failed: ${e && e.message}`);
    }
  }
}

