// The handler worker: its own toolgate core instance (from the module the page compiled), the
// branch built from the page's definitions (cached by version), and b.invoke for each call, so a
// handler that loops or blocks never freezes the page. Messages:
//   in  {type: "invoke", id, module, defs, version, view, text}  |  {type: "abort", id}
// view ({target, options}) is the provider export the page validates on: the worker invokes on the
// branch as that export left it (its aliases and strict restores), as the page validates.
//   out {type: "done", id, outcomes}                        |  {type: "abort-ack", id}
import { buildBranch } from "./define.js";
import { splitCalls } from "./call-split.js";
import { exportBranch, viewKey } from "./export-view.js";

const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];
let tgPromise = null;
let built = null; // {version, branch, entries, views: Map(viewKey -> exported branch)}
const running = new Map(); // id -> AbortController

function core(module) {
  if (!tgPromise) {
    tgPromise = import("/npm/core.browser.js").then(({ initialize }) => initialize({ wasmModule: module, validator: "eager" }));
    tgPromise.catch(() => (tgPromise = null));
  }
  return tgPromise;
}

function branchFor(tg, defs, version, view) {
  if (!built || built.version !== version) built = { version, ...buildBranch(tg, defs), views: new Map() };
  if (!view) return built.branch;
  const key = viewKey(view);
  if (!built.views.has(key)) built.views.set(key, exportBranch(tg, built.branch, view).branch);
  return built.views.get(key);
}

/** JSON-safe copy: BigInts as {"$bigint": "<digits>"}, NaN and ±Infinity as {"$number": "NaN"} (ui.pretty shows NaN), what cannot be cloned as its text. */
function plain(value) {
  try {
    const text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? { $bigint: String(v) } : typeof v === "number" && !Number.isFinite(v) ? { $number: String(v) } : v));
    return text === undefined ? null : JSON.parse(text);
  } catch (e) {
    return `(not JSON: ${e.message})`;
  }
}

function line(e) {
  if (e && typeof e === "object" && e.code && typeof e.code === "string") return `${e.code}: ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

function errorData(e) {
  if (!e || typeof e !== "object") return { message: String(e) };
  return { code: typeof e.code === "string" ? e.code : undefined, name: e.name, message: e.message, issues: plain(e.issues), callId: e.callId, tool: e.tool };
}

/** The targets that pair a tool result with its call by id (tg.toolResult refuses a call without one). */
const NEED_ID = new Set(["openai-chat", "openai-responses", "anthropic"]);

/**
 * Each target's tool-result message for an outcome, or {error} when tg.toolResult threw, or
 * {missing: "call id"} / {missing: "function name"} when the call carried no id and the target
 * pairs results by id, or could not be read at all and Gemini needs the function's name: nothing
 * is wrong then, the call simply cannot be answered in that shape.
 */
function results(tg, outcome) {
  const out = {};
  const callId = outcome?.callId;
  const name = outcome?.function ?? outcome?.tool;
  for (const target of TARGETS) {
    if (NEED_ID.has(target) && (callId === null || callId === undefined || callId === "")) {
      out[target] = { missing: "call id" };
      continue;
    }
    if (target === "gemini" && (typeof name !== "string" || name === "")) {
      out[target] = { missing: "function name" };
      continue;
    }
    try {
      out[target] = plain(tg.toolResult(outcome, target));
    } catch (e) {
      out[target] = { error: line(e) };
    }
  }
  return out;
}

/** Invokes one call; never throws. */
async function invokeOne(tg, branch, part, version, signal) {
  const started = performance.now();
  const base = { kind: "invoke", request: part.requestText, version, label: part.label };
  try {
    const fc = await branch.invoke(part.request, { signal });
    return { ...base, status: fc.status, record: plain(fc.toDict()), response: plain(fc.response), durationMs: Math.round(performance.now() - started), results: results(tg, fc) };
  } catch (e) {
    return { ...base, status: "failed", error: line(e), errorData: errorData(e), durationMs: Math.round(performance.now() - started), results: results(tg, e) };
  }
}

async function invoke(msg) {
  const controller = new AbortController();
  running.set(msg.id, controller);
  try {
    const tg = await core(msg.module);
    const branch = branchFor(tg, msg.defs, msg.version, msg.view);
    const parts = splitCalls(tg, msg.text);
    self.postMessage({ type: "started", id: msg.id });
    const outcomes = [];
    for (const part of parts) outcomes.push(await invokeOne(tg, branch, part, msg.version, controller.signal));
    return outcomes;
  } catch (e) {
    return [{ kind: "invoke", request: msg.text, version: msg.version, status: "failed", error: `the handler worker failed: ${line(e)}`, errorData: errorData(e), durationMs: 0 }];
  } finally {
    running.delete(msg.id);
  }
}

self.addEventListener("message", async (event) => {
  const msg = event.data;
  if (msg?.type === "abort") {
    running.get(msg.id)?.abort(new DOMException("the call was cancelled from the page", "AbortError"));
    self.postMessage({ type: "abort-ack", id: msg.id });
  } else if (msg?.type === "invoke") {
    self.postMessage({ type: "done", id: msg.id, outcomes: await invoke(msg) });
  }
});

self.postMessage({ type: "hello" });
