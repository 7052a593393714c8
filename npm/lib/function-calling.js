// One call of a tool: the FunctionCalling record, the mapping of named arguments onto a JS
// function's parameters, and the invoke lifecycle (pre → handler → post). Node and browser.
import { approveCall } from "./approval.js";
import { ToolgateError, describe, readInput, wrapThrown, thrownValue } from "./errors.js";
import { toJSON, recordValue } from "./json.js";
import { OP, PARAM, STATUS } from "./contract.js";

function newUUID() {
  if (globalThis.crypto && typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID();
  const b = new Uint8Array(16);
  globalThis.crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * The thrown value of a call as a record names it, for Go's core.RecordedError: a ToolgateError as
 * {name: "ToolgateError", message, code, issues?, result?}, an Error under its name, any other
 * value under its typeof with String(v) as its message, and a failed call that threw undefined or
 * null as {name: "undefined" | "null"}. Go decides what the record shows of it.
 */
function thrownRecord(fcError, failed) {
  const err = thrownValue(fcError);
  if (err == null) return failed ? { name: String(err), message: String(err) } : null;
  try {
    if (ToolgateError.isInstance(err)) {
      const out = { name: "ToolgateError", message: String(err.message), code: String(err.code) };
      if (err.issues !== undefined) out.issues = recordValue(err.issues);
      if (err.result !== undefined) out.result = recordValue(err.result);
      return out;
    }
    if (err instanceof Error) return { name: String(err.name || "Error"), message: String(err.message) };
    return { name: typeof err, message: String(err) };
  } catch {
    return { name: typeof err, message: "<unprintable error>" }; // Go's safeErrorText says the same
  }
}

/**
 * The metadata of a record, each value made JSON by recordValue (one value that cannot serialise
 * spoils only itself; a function, symbol or undefined member is left out, as JSON leaves it out of
 * any object); metadata that is not an object crosses as it is, and Go refuses it.
 */
function metadataValue(meta) {
  if (meta == null) return {};
  try {
    if (typeof meta === "object" && !Array.isArray(meta)) {
      const kept = Object.keys(meta).filter((k) => !["function", "symbol", "undefined"].includes(typeof meta[k]));
      return Object.fromEntries(kept.map((k) => [k, recordValue(meta[k])]));
    }
  } catch {
    // a revoked Proxy or a throwing getter: what recordValue says of the whole
  }
  return recordValue(meta);
}

/** The record of one call: status, response, error, duration. Node and browser. */
export class FunctionCalling {
  constructor(toolObj, m, ctx) {
    this.id = newUUID();
    this.createdAt = Date.now() / 1000;
    this.metadata = {};
    this.function = m.function;
    this.arguments = m.arguments;
    this.status = STATUS.pending;
    this.response = null;
    this.error = null;
    this.duration = null;
    if (m.conversions) this.conversions = m.conversions;
    if (m.id) this.callId = m.id;
    Object.defineProperty(this, "tool", { value: toolObj, enumerable: false });
    Object.defineProperty(this, "_ctx", { value: ctx, enumerable: false });
  }
  /**
   * The event record, written by Go's core.CallRecord from this event's state (its values made
   * JSON here): {id, created_at, metadata, execution, function, arguments}, then call_id when the
   * call came with a provider call id (not a LionAGI key). Mode "db" names metadata node_metadata.
   */
  toDict(mode = "python") {
    const state = {
      mode,
      id: this.id,
      createdAt: this.createdAt,
      metadata: metadataValue(this.metadata),
      function: this.function,
      arguments: recordValue(this.arguments),
      status: this.status,
      duration: this.duration,
      response: recordValue(this.response ?? null),
      error: thrownRecord(this.error, this.status === STATUS.failed),
    };
    if (this.callId) state.callId = this.callId;
    // Every integer in the answer was a JS number (BigInts cross as {"$bigint"}): plain JSON.parse.
    return JSON.parse(this._ctx.inst.call(OP.eventToDict, 0, toJSON(state, { code: "unsupported-type", what: `the record of ${this.function}` })));
  }
  /**
   * What a model is sent of this call's response: the tool's toModelOutput(response, {function,
   * callId}) when it has that hook, else the response itself; the record (toDict) keeps the
   * response. tg.toolResult and the adapters send this. Throws invalid-result naming the tool when
   * the hook throws (its message is never quoted).
   */
  toModelOutput() {
    const hook = this.tool?._spec?.toModelOutput;
    if (!hook) return this.response;
    try {
      return hook(this.response, { function: this.function, callId: this.callId ?? null });
    } catch (e) {
      throw new ToolgateError("invalid-result", `the toModelOutput hook of tool ${JSON.stringify(this.function)} threw ${e instanceof Error ? e.name : typeof e}`,
        { tool: this.function, callId: this.callId ?? undefined });
    }
  }
  /** Always throws not-restorable. */
  static fromDict() {
    throw new ToolgateError("not-restorable", "Cannot recreate an event once it's done.");
  }
}

/**
 * The value of one destructured parameter ({a, b} or {a, ...rest}); marks the keys it takes in
 * st.used. st.takesRest stays set for the parameters after one with a rest field.
 */
function destructured(p, args, st) {
  const obj = {};
  const names = new Set();
  for (const f of p.fields || []) {
    if (f.kind === PARAM.keywords) st.takesRest = true;
    else names.add(f.name);
  }
  for (const k of Object.keys(args)) {
    if (names.has(k) || st.takesRest) {
      obj[k] = args[k];
      st.used.add(k);
    }
  }
  return obj;
}

/**
 * Maps named arguments onto the positional parameters of a JS function's signature (as Go
 * parsed it); a key no parameter takes is Python's TypeError. Node and browser.
 */
export function positional(sig, args) {
  const out = [];
  const st = { used: new Set(), takesRest: false };
  const used = st.used;
  for (const p of sig.params) {
    if (p.kind === PARAM.destructured) {
      out.push(destructured(p, args, st));
    } else if (p.kind === PARAM.rest) {
      if (Object.hasOwn(args, p.name)) {
        used.add(p.name);
        const v = args[p.name];
        if (Array.isArray(v)) out.push(...v);
        else out.push(v);
      }
    } else {
      if (Object.hasOwn(args, p.name)) used.add(p.name);
      out.push(Object.hasOwn(args, p.name) ? args[p.name] : undefined);
    }
  }
  for (const k of Object.keys(args)) {
    if (!used.has(k)) throw new TypeError(`${sig.name}() got an unexpected keyword argument '${k}'`);
  }
  return out;
}

/** Calls a tool with named arguments: the typed handler, the JS function, or Go (an MCP tool). Node and browser. */
export async function callTool(ctx, toolObj, args, signal, onProgress, call) {
  const spec = toolObj._spec;
  if (spec.kind === "typed") return spec.handler(args, call ?? { context: undefined, signal, callId: null, function: toolObj.function });
  if (spec.kind === "function") return spec.fn(...positional(toolObj._signature, args));
  const text = toJSON(args, { code: "invalid-arguments", what: `the arguments of ${toolObj.function}` });
  if (onProgress && OP.mcpInvoke) {
    // An MCP tool's call with its own progress listener (jsbridge/mcpops/hooks.go).
    const payload = `{"arguments":${text},"onProgress":${ctx.inst.hostFunction(onProgress, "onProgress")}}`;
    return ctx.inst.callAsync(OP.mcpInvoke, toolObj._handle(), payload, signal);
  }
  return ctx.inst.callAsync(OP.toolInvoke, toolObj._handle(), text, signal);
}

/** Why a call stopped early: an abort or the timeout; reason becomes fc.error. */
/** The rejection that ends a call by its signal or timeout; told apart by membership, never by instanceof (a thrown revoked Proxy cannot be asked). */
const cancellations = new WeakSet();
function cancellation(reason) {
  const c = { reason };
  cancellations.add(c);
  return c;
}

/** pre → handler → post for fc; a preprocessor's result replaces fc.arguments. */
async function pipeline(ctx, fc, spec, signal, onProgress, context) {
  let args = fc.arguments;
  if (spec.preprocessor) {
    args = await spec.preprocessor(args, spec.preprocessorKwargs);
    if (signal?.aborted) return undefined; // cancelled meanwhile: no later stage starts
    if (args === null || typeof args !== "object" || Array.isArray(args)) {
      throw new TypeError(`preprocessor of ${fc.function} must return an arguments object, got ${describe(args)}`);
    }
    fc.arguments = args;
  }
  if (spec.approval) {
    await approveCall(fc, spec.approval, args, signal, context);
    if (signal?.aborted) return undefined;
  }
  const call = { context, signal, callId: fc.callId ?? null, function: fc.function };
  let res = await callTool(ctx, fc.tool, args, signal, onProgress, call);
  if (signal?.aborted) return undefined;
  if (spec.postprocessor) res = await spec.postprocessor(res, spec.postprocessorKwargs);
  return res;
}

/**
 * Runs pre → handler → post for fc under its AbortSignal and the tool's timeoutMs; total: every
 * outcome becomes a status (completed, failed, cancelled), with duration set. Node and browser.
 */
export async function run(ctx, fc, signal, onProgress, context) {
  if (fc.status !== STATUS.pending) return;
  const spec = fc.tool._spec;
  if (signal?.aborted) {
    // Aborted before it started: nothing runs.
    fc.status = STATUS.cancelled;
    fc.error = wrapThrown(signal.reason ?? new ToolgateError("timeout", "cancelled"), fc.function);
    fc.duration = 0;
    return;
  }
  fc.status = STATUS.processing;
  const t0 = performance.now();
  const cancellable = !!signal || !!spec.timeoutMs;
  const ctrl = cancellable ? new AbortController() : null;
  let timer;
  let onAbort;
  try {
    const work = pipeline(ctx, fc, spec, ctrl?.signal, onProgress, context);
    if (!cancellable) {
      fc.response = await work;
    } else {
      const cancelled = new Promise((_, reject) => {
        if (signal) {
          onAbort = () => reject(cancellation(signal.reason));
          if (signal.aborted) onAbort();
          else signal.addEventListener("abort", onAbort, { once: true });
        }
        if (spec.timeoutMs) {
          timer = setTimeout(
            () => reject(cancellation(new ToolgateError("timeout", `tool ${fc.function} did not finish within ${spec.timeoutMs} ms.`, { tool: fc.function }))),
            spec.timeoutMs,
          );
        }
      });
      work.catch(() => {}); // a late rejection after cancellation is not unhandled
      fc.response = await Promise.race([work, cancelled]);
    }
    fc.status = STATUS.completed;
  } catch (e) {
    if (cancellations.has(e)) {
      ctrl.abort(e.reason);
      fc.status = STATUS.cancelled;
      fc.error = wrapThrown(e.reason ?? new ToolgateError("timeout", "cancelled"), fc.function);
    } else {
      fc.status = STATUS.failed;
      fc.error = wrapThrown(e, fc.function);
    }
  } finally {
    clearTimeout(timer);
    if (signal && onAbort) signal.removeEventListener("abort", onAbort);
    fc.duration = (performance.now() - t0) / 1000;
  }
}

/** Refuses a `signal` option that is not an AbortSignal, before anything runs. Node and browser. */
export function checkSignal(signal, call) {
  if (signal === undefined || signal === null) return undefined;
  const ok = readInput(call, "signal", "unsupported-type", () => typeof signal === "object" && typeof signal.aborted === "boolean" &&
    typeof signal.addEventListener === "function" && typeof signal.removeEventListener === "function");
  if (!ok) throw new ToolgateError("unsupported-type", `${call}: option signal must be an AbortSignal, got ${describe(signal)}`);
  return signal;
}

/**
 * Runs `attempt` (a synchronous call into Go) and returns what it returns. When it threw because a
 * schema needed the validator module while that was still downloading (a browser right after
 * initialize; ValidatorModule's `misses` counts those answers), awaits the module as
 * tg.ready("validator") does and runs `attempt` once more: invoke waits where the synchronous calls
 * throw. A download that failed rejects with the `unsupported` error naming the URL.
 */
export async function awaitValidator(ctx, attempt) {
  const validator = ctx.inst.validatorModule;
  const before = validator?.misses ?? 0;
  try {
    return attempt();
  } catch (e) {
    if (!validator || validator.misses === before || e?.code !== "unsupported") throw e;
    await validator.ready();
    return attempt();
  }
}
