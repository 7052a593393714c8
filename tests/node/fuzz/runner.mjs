// Runs one fuzz case against the public API of its build and checks it with the oracles: every
// synchronous call returns or throws a coded ToolgateError, validate never throws, invoke settles
// to a terminal FunctionCalling or rejects as match would, records serialise, nothing is
// `internal`, and a known-good call still works afterwards.
import { isDeepStrictEqual } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { initialize as initializeFull } from "toolgate";
import { initialize as initializeCore } from "toolgate/core";
import { tg, tgCore } from "../helpers.mjs";
import { materialize, toText } from "./tagged.mjs";
import { Runtime, delayOf, canHang, isUserThrown } from "./runtime.mjs";
import { reliableTimeout } from "./gen-options.mjs";
import { Recorder, norm, kindOf } from "./oracle.mjs";

export const APIS = { full: tg, core: tgCore };
const INITIALIZE = { full: initializeFull, core: initializeCore };
const isTG = (e) => tg.ToolgateError.isInstance(e);

/** A failure of the harness itself (a case it cannot build), kept apart from the library's. */
class HarnessError extends Error {}

/** One case's live state: its API, runtime, and the objects the tagged references point at. */
class Env {
  static #others = {};
  constructor(build) {
    this.build = build;
    this.api = APIS[build];
    this.runtime = new Runtime(this.api, this);
    this.tool = undefined;
    this.fn = undefined;
    this.options = {};
  }
  /** A Tool of the other build's API (a Tool of another instance). */
  otherTool() {
    const other = this.build === "full" ? "core" : "full";
    return (Env.#others[other] ??= APIS[other].tool(function other(a) { return a; }));
  }
  mat(v) {
    try {
      return materialize(v, this);
    } catch (e) {
      throw new HarnessError(`cannot materialize ${JSON.stringify(v)?.slice(0, 200)}: ${e.message}`);
    }
  }
}

/** The tool's getters and records: each returns or throws coded, and each record serialises. */
function checkTool(rec, tool, t) {
  for (const prop of ["function", "toolSchema", "requiredFields", "minimumAcceptableFields", "strictFuncCall", "id", "createdAt", "metadata"]) {
    const r = rec.sync(`tool.${prop}`, () => tool[prop]);
    if (!r.ok && isTG(r.e) && prop === "requiredFields" && r.e.code !== "invalid-schema") rec.fail("tool.requiredFields", `threw ${r.e.code}, want invalid-schema`);
  }
  if (typeof tool.function !== "string") rec.fail("tool.function", "is not a string");
  rec.serialises("tool.toolSchema", () => tool.toolSchema);
  for (const mode of ["python", "json", "db"]) rec.serialises(`tool.toDict(${mode})`, () => tool.toDict(mode));
  if (t.dictMode !== undefined) rec.serialises("tool.toDict(mode)", () => tool.toDict(t.dictMode));
}

/** tg.tool for the case's tool spec; sets env.tool (and env.fn, env.options) when it is made. */
function makeTool(rec, env, t) {
  let first;
  let second;
  const two = t.extra !== undefined || t.options !== undefined;
  if (t.path === "typed") first = env.mat(t.spec);
  else if (t.path === "raw") first = env.fn = env.mat(t.fn);
  else first = env.mat(t.value);
  if (two) second = env.mat(t.extra ?? t.options);
  env.options = (t.path === "typed" ? first : second) ?? {};
  const r = rec.sync("tg.tool", () => (two ? env.api.tool(first, second) : env.api.tool(first)));
  if (!r.ok) return;
  env.tool = r.v;
  checkTool(rec, r.v, t);
}

/** tg.branch with the case's options; falls back to an empty branch holding the tool. */
function makeBranch(rec, env, c) {
  const r = rec.sync("tg.branch", () => (c.branch !== undefined ? env.api.branch(env.mat(c.branch)) : env.api.branch()));
  const b = r.ok ? r.v : env.api.branch();
  if (env.tool) {
    const has = rec.sync("b.has", () => b.has(env.tool));
    if (has.ok && !has.v) rec.sync("b.register", () => b.register(env.tool));
  }
  return b;
}

/** A thrown value's code, or its kind when it is not a ToolgateError. */
const codeOf = (e) => (isTG(e) ? e.code : kindOf(e));

/** validate and match of the same request must agree (and validate must never throw). */
function agree(rec, v, m) {
  if (v.ok && !m.ok) return rec.fail("b.validate/b.match", `validate accepted, match threw ${codeOf(m.e)}`);
  if (!v.ok && !m.ok && v.error?.code !== m.e?.code) return rec.fail("b.validate/b.match", `validate refused ${v.error?.code}, match threw ${codeOf(m.e)}`);
  if (!v.ok && m.ok) {
    const kws = (v.error?.issues ?? []).map((i) => i.keyword);
    if (v.error?.code !== "invalid-arguments" || !kws.length || kws.some((k) => k !== "signature")) {
      rec.fail("b.validate/b.match", `validate refused ${v.error?.code} [${[...new Set(kws)]}], match accepted`);
    }
    return;
  }
  if (v.ok && m.ok && !isDeepStrictEqual(v.arguments, m.v.arguments)) rec.fail("b.validate/b.match", "the arguments differ");
}

function opCheck(rec, env, b, op) {
  const v = rec.sync("b.validate", () => b.validate(env.mat(op.request)));
  if (!v.ok) {
    if (isTG(v.e)) rec.fail("b.validate", `threw ToolgateError ${v.e.code}`);
    return;
  }
  rec.validation("b.validate", v.v);
  const m = rec.sync("b.match", () => b.match(env.mat(op.request)));
  if (v.v && typeof v.v.ok === "boolean") agree(rec, v.v, m);
  if (m.ok) rec.serialises("fc.toDict() before invoke", () => m.v.toDict());
}

/** Whether invoke's options are valid: "yes", "no", or "either" (a duck-typed signal). */
function optionsValid(op, opts) {
  if (op.opts === undefined || opts === null) return "yes";
  if (typeof opts !== "object" || Array.isArray(opts) || Object.keys(opts).some((k) => k !== "signal")) return "no";
  const s = opts.signal;
  if (s === undefined || s === null || s instanceof AbortSignal) return "yes";
  return op.opts.signal?.kind === "duck" ? "either" : "no";
}

/** invoke rejected: with what match threw, or unsupported-type for bad options. */
function checkRejection(rec, e, m, valid) {
  if (!isTG(e)) return;
  if (valid === "no" && e.code === "unsupported-type") return;
  if (!m.ok && e.code === m.e?.code) return;
  rec.fail("b.invoke", `rejected ${e.code} though match ${m.ok ? "accepted" : `threw ${codeOf(m.e)}`}${valid === "no" ? " (bad options)" : ""}`);
}

/** What a resolved invoke must honour: aborted signals, timeouts, validate's promise, cancellation. */
async function checkRun(rec, env, fc, ctx) {
  if (ctx.abortedBefore) {
    if (fc.status !== "cancelled") rec.fail("b.invoke", `an aborted signal ended the call ${fc.status}`);
    if (env.runtime.calls !== ctx.callsBefore) rec.fail("b.invoke", "an aborted signal still ran the tool's code");
  }
  const ms = env.options?.timeoutMs;
  if (fc.status === "cancelled" && isTG(fc.error) && fc.error.code === "timeout" && typeof ms === "number" && fc.duration * 1000 < ms - 1) {
    rec.fail("b.invoke", "cancelled by its timeout before timeoutMs passed", `timeoutMs ${ms}, duration ${fc.duration * 1000} ms`);
  }
  const pre = typeof env.options?.preprocessor === "function";
  if (ctx.validated && !pre && fc.status === "failed" && !isUserThrown(fc.error) && fc.error instanceof TypeError && /unexpected keyword argument/.test(fc.error.message)) {
    rec.fail("b.validate/b.invoke", "validate accepted a key the function refused", fc.error.message);
  }
  if (fc.status === "cancelled" && ctx.maxDelay > 0) {
    const calls = env.runtime.calls;
    await sleep(ctx.maxDelay + 5);
    if (env.runtime.calls > calls) rec.fail("b.invoke", "a stage started after the call was cancelled");
  }
}

async function opInvoke(rec, env, b, op, c) {
  const quiet = (fn) => { try { return { ok: true, v: fn() }; } catch (e) { return { ok: false, e }; } };
  const m = quiet(() => b.match(env.mat(op.request)));
  const val = quiet(() => b.validate(env.mat(op.request)));
  const req = env.mat(op.request);
  const opts = op.opts !== undefined ? env.mat(op.opts) : undefined;
  const valid = optionsValid(op, opts);
  const ctx = { callsBefore: env.runtime.calls, abortedBefore: opts?.signal instanceof AbortSignal && opts.signal.aborted, validated: val.ok && val.v?.ok, maxDelay: maxDelayOf(c) };
  let p;
  try {
    p = op.opts !== undefined ? b.invoke(req, opts) : b.invoke(req);
  } catch (e) {
    return rec.fail("b.invoke", `threw synchronously: ${e?.code ?? e}`);
  }
  const r = await rec.settle("b.invoke", p);
  if (r.hung) return;
  if (!r.ok) return checkRejection(rec, r.e, m, valid);
  if (valid === "no" || !m.ok) rec.fail("b.invoke", valid === "no" ? "resolved though its options are not valid" : `resolved though match threw ${codeOf(m.e)}`);
  rec.functionCalling("b.invoke", r.v);
  await checkRun(rec, env, r.v, ctx);
}

/** The behaviour a raw function's body runs (gen-function writes __tgFuzz.run(<json>, [...arguments])). */
function behaviourOfSource(src) {
  const json = /__tgFuzz\.run\((.*), \[(?:\.\.\.arguments)?\]\)/s.exec(src ?? "")?.[1];
  try {
    return json ? JSON.parse(json) : null;
  } catch {
    return null;
  }
}

/** The behaviours of a case's tool: handler (or raw function body), preprocessor, postprocessor. */
function behavioursOf(c) {
  const o = (c.tool.path === "typed" ? c.tool.spec : c.tool.options) ?? {};
  return { list: [o?.handler?.b, o?.preprocessor?.b, o?.postprocessor?.b, behaviourOfSource(c.tool.fn?.src)], timeoutMs: o?.timeoutMs };
}

/**
 * Whether running case c could leave an invoke pending forever: a behaviour that may never settle,
 * no timeout that surely ends it, and an invoke whose signal never aborts. The generator never
 * writes such a case; the shrinker must not make one.
 */
export function mayHang(c) {
  const { list, timeoutMs } = behavioursOf(c);
  if (!list.some(canHang) || reliableTimeout(timeoutMs)) return false;
  return c.ops.some((op) => op.op === "invoke" && !["aborted", "later"].includes(op.opts?.signal?.kind));
}

/** The longest any behaviour of the case's tool waits, in ms. */
function maxDelayOf(c) {
  return behavioursOf(c).list.reduce((n, b) => n + delayOf(b), 0);
}

/** The registry operations: register, has, getToolSchema, clone. */
function opRegistry(rec, env, b, op) {
  const args = [env.mat(op.value), ...(op.opts !== undefined ? [env.mat(op.opts)] : [])];
  if (op.op === "register") rec.sync("b.register", () => b.register(...args));
  if (op.op === "getToolSchema") rec.serialises("b.getToolSchema", () => b.getToolSchema(...args));
  if (op.op === "has") {
    const r = rec.sync("b.has", () => b.has(args[0]));
    if (r.ok && typeof r.v !== "boolean") rec.fail("b.has", `returned ${typeof r.v}`);
  }
}

/** The API-level operations: fromDict, reviveRecord, a second initialize. */
async function opApi(rec, env, op) {
  if (op.op === "fromDict") {
    const r = rec.sync(`${op.which}.fromDict`, () => env.api[op.which].fromDict(env.mat(op.value)));
    if (r.ok || (isTG(r.e) && r.e.code !== "not-restorable")) rec.fail(`${op.which}.fromDict`, r.ok ? "returned" : `threw ${r.e.code}, want not-restorable`);
  }
  if (op.op === "revive") rec.sync("JSON.parse(text, tg.reviveRecord)", () => JSON.parse(toText(op.value), env.api.reviveRecord));
  if (op.op === "initialize") {
    const r = await rec.settle("initialize", op.opts !== undefined ? INITIALIZE[op.which](env.mat(op.opts)) : INITIALIZE[op.which]());
    if (r.ok && !(op.opts !== undefined) && r.v !== APIS[op.which]) rec.fail("initialize", "a second initialize() returned another API");
  }
}

async function runOp(rec, env, b, op, c) {
  switch (op.op) {
    case "check": return opCheck(rec, env, b, op);
    case "invoke": return opInvoke(rec, env, b, op, c);
    case "clone": {
      const r = rec.sync("b.clone", () => b.clone());
      if (r.ok && !isDeepStrictEqual([...r.v.tools.keys()], [...b.tools.keys()])) rec.fail("b.clone", "holds other tools");
      return;
    }
    case "fromDict": case "revive": case "initialize": return opApi(rec, env, op);
    default: return opRegistry(rec, env, b, op);
  }
}

const GOOD = {};
/** A fixed tool, validated and invoked in both builds: the library still works after the case. */
async function knownGood(rec) {
  for (const build of ["full", "core"]) {
    const api = APIS[build];
    const b = (GOOD[build] ??= api.branch({ tools: [api.tool(function add(a, b) { return a + b; })] }));
    const call = { function: "add", arguments: { a: 1, b: 2 } };
    const v = rec.sync(`known-good ${build}`, () => b.validate(call));
    if (!v.ok || !v.v.ok || !isDeepStrictEqual(v.v.arguments, call.arguments)) rec.fail(`known-good ${build}`, "validate no longer accepts add(1, 2)", v.v?.error?.message);
    const r = await rec.settle(`known-good ${build}`, b.invoke(call));
    if (r.ok && (r.v.status !== "completed" || r.v.response !== 3)) rec.fail(`known-good ${build}`, `invoke ended ${r.v.status}`, r.v.error);
  }
}

/**
 * Runs case c; returns its failures (each {call, outcome, signature, detail}), one per signature.
 * `boundMs` (fuzz mode): the longest a call may block or stay pending.
 */
export async function runCase(c, { boundMs = null, stats = null } = {}) {
  const rec = new Recorder({ boundMs, stats });
  try {
    const env = new Env(c.build);
    makeTool(rec, env, c.tool);
    const b = makeBranch(rec, env, c);
    for (const op of c.ops) await runOp(rec, env, b, op, c);
    rec.sync("b.tools", () => b.tools);
    rec.serialises("b.schemaList", () => b.schemaList);
  } catch (e) {
    rec.fail("harness", e instanceof HarnessError ? norm(e.message) : `${e?.name}: ${norm(e?.message)}`, e?.stack);
  }
  await knownGood(rec);
  const seen = new Set();
  return rec.failures.filter((f) => !seen.has(f.signature) && seen.add(f.signature));
}
