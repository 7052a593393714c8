// The oracles: what every call of the public API must do whatever it is handed, as
// docs/contract.md says. A Recorder runs calls, checks what they return or throw, and keeps each
// failure as {call, outcome}; the signature "call: outcome" names the bug, not the input.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { isUserThrown } from "./runtime.mjs";
import { tg } from "../helpers.mjs";

/** The closed set of error codes, read from the installed package's generated contract.d.ts. */
function errorCodes() {
  const pkg = createRequire(import.meta.url).resolve("toolgate/package.json");
  const dts = readFileSync(join(dirname(pkg), "contract.d.ts"), "utf8");
  const union = /export type ErrorCode =([^;]*);/.exec(dts);
  if (!union) throw new Error("fuzz: no ErrorCode union in toolgate's contract.d.ts");
  return new Set([...union[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]));
}
export const CODES = errorCodes();
export const TERMINAL = new Set(["completed", "failed", "cancelled"]);

/** Whether e is a ToolgateError: the library's own check, which never throws (a revoked Proxy is not one). */
const isTG = (e) => tg.ToolgateError.isInstance(e);

/** A stable summary of a message: first line, quoted text and numbers elided, bounded. */
export function norm(message) {
  return String(message).split("\n")[0]
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, "…")
    .replace(/0x[0-9a-f]+/gi, "N")
    .replace(/\d+(\.\d+)?/g, "N")
    .slice(0, 120);
}

/** What kind of value was thrown: its class, or typeof; never throws itself. */
export function kindOf(e) {
  try {
    if (e === null) return "null";
    if (typeof e !== "object" && typeof e !== "function") return typeof e;
    return e.constructor?.name ?? "Object";
  } catch {
    return "unreadable";
  }
}

function messageOf(e) {
  try {
    return e && typeof e === "object" && "message" in e ? String(e.message) : String(e);
  } catch {
    return "(unreadable message)";
  }
}

/** Runs and checks the calls of one case. `boundMs` (fuzz mode only): the longest a call may take. */
export class Recorder {
  constructor({ boundMs = null, stats = null } = {}) {
    this.failures = [];
    this.boundMs = boundMs;
    this.stats = stats; // a Map "call outcome" → count, to see what a run covered
  }
  count(call, outcome) {
    if (this.stats) this.stats.set(`${call} ${outcome}`, (this.stats.get(`${call} ${outcome}`) ?? 0) + 1);
  }
  fail(call, outcome, detail = "") {
    this.failures.push({ call, outcome, signature: `${call}: ${outcome}`, detail: String(detail).slice(0, 500) });
  }
  /** Checks a value a call threw (or rejected with): a ToolgateError with a code of the set, not internal. */
  thrown(call, e, verb = "threw") {
    if (!isTG(e)) return this.fail(call, `${verb} ${kindOf(e)}: ${norm(messageOf(e))}`, e?.stack ?? e);
    if (!CODES.has(e.code)) return this.fail(call, `ToolgateError with code ${e.code} outside the set`, e.message);
    if (e.code === "internal") this.fail(call, `internal: ${norm(e.message)}`, e.message);
  }
  /** Runs fn; returns {ok: true, v} or {ok: false, e}, checking what it threw and how long it took. */
  sync(call, fn) {
    const t0 = performance.now();
    try {
      const v = fn();
      this.count(call, "ok");
      return { ok: true, v };
    } catch (e) {
      this.count(call, isTG(e) ? e.code : "threw");
      this.thrown(call, e);
      return { ok: false, e };
    } finally {
      this.timed(call, t0);
    }
  }
  timed(call, t0) {
    const ms = performance.now() - t0;
    if (this.boundMs !== null && ms > this.boundMs) this.fail(call, `blocked longer than ${this.boundMs} ms`, `${ms.toFixed(0)} ms`);
  }
  /** Awaits p; in fuzz mode a call still pending after boundMs is a failure (and is left behind). */
  async settle(call, p) {
    const t0 = performance.now();
    let timer;
    const bound = this.boundMs === null ? null : new Promise((res) => { timer = setTimeout(() => res({ hung: true }), this.boundMs); });
    try {
      const r = await Promise.race([p.then((v) => ({ ok: true, v }), (e) => ({ ok: false, e })), ...(bound ? [bound] : [])]);
      this.count(call, r.hung ? "pending" : r.ok ? (r.v?.status ?? "ok") : isTG(r.e) ? r.e.code : "threw");
      if (r.hung) this.fail(call, `still pending after ${this.boundMs} ms`);
      else if (!r.ok) this.thrown(call, r.e, "rejected");
      return r;
    } finally {
      clearTimeout(timer);
      this.timed(call, t0);
    }
  }
  /** JSON.stringify of a record must not throw. */
  serialises(call, makeRecord) {
    const r = this.sync(call, makeRecord);
    if (!r.ok) return;
    try {
      JSON.stringify(r.v);
    } catch (e) {
      this.fail(`JSON.stringify(${call})`, `threw ${kindOf(e)}: ${norm(messageOf(e))}`, e?.stack);
    }
  }
  /** validate's result: {ok: true, function, arguments} or {ok: false, error} with a coded error. */
  validation(call, v) {
    if (v === null || typeof v !== "object" || typeof v.ok !== "boolean") return this.fail(call, "returned something that is not a ValidationResult");
    this.count(`${call} →`, v.ok ? "ok" : v.error?.code);
    if (v.ok) {
      if (typeof v.function !== "string" || v.arguments === null || typeof v.arguments !== "object") this.fail(call, "ok without function and arguments");
      return;
    }
    this.thrown(`${call} error`, v.error);
  }
  /** A FunctionCalling after invoke: a terminal status, a duration, an error the library made that is not internal. */
  functionCalling(call, fc) {
    if (!fc || typeof fc !== "object") return this.fail(call, "resolved to something that is not a FunctionCalling");
    if (!TERMINAL.has(fc.status)) this.fail(call, `resolved with status ${fc.status}`);
    if (typeof fc.duration !== "number" || !(fc.duration >= 0)) this.fail(call, `duration ${fc.duration}`);
    if (isTG(fc.error) && !isUserThrown(fc.error) && (fc.error.code === "internal" || !CODES.has(fc.error.code))) {
      this.fail(call, `call error ${fc.error.code}: ${norm(fc.error.message)}`, fc.error.message);
    }
    this.serialises("fc.toDict()", () => fc.toDict());
  }
}
