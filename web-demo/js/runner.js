// Runs calls in the handler worker (worker.js). One worker at a time; a cancel that the worker
// does not acknowledge within BUSY_MS means a synchronous handler holds it, so the worker is
// terminated (the only way to stop such code), a fresh one is started, and the call is reported
// cancelled because its handler was busy.
import { state } from "./store.js";

const BUSY_MS = 500;
let worker = null;
let nextId = 1;
const pending = new Map(); // id -> {resolve, request, version, started}

function start() {
  worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module", name: "toolgate handlers" });
  const mine = worker;
  let alive = false;
  worker.addEventListener("message", (event) => {
    const msg = event.data;
    alive = true;
    const job = pending.get(msg?.id);
    if (!job) return;
    if (msg.type === "abort-ack") job.acked = true;
    else if (msg.type === "started" && job.timeoutMs > 0) {
      job.watchdog = setTimeout(() => stopIfBusy(job, { status: "cancelled", code: "timeout", reason: `the call did not finish within its timeoutMs (${job.timeoutMs} ms), and its handler kept the worker busy so the timeout could not fire: that worker was stopped and a fresh one started` }), job.timeoutMs + BUSY_MS);
    } else if (msg.type === "done") {
      pending.delete(msg.id);
      clearTimeout(job.watchdog);
      job.resolve(msg.outcomes);
    }
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    // after the worker started, an uncaught error is a handler's stray throw: the worker lives on
    if (worker === mine && !alive) stop({ status: "failed", code: "internal", reason: `the handler worker failed: ${event.message || "it could not start"}` });
  });
  return worker;
}

/**
 * Ends the worker. Every call on it that has an end set (job.end = {status, code, reason}; every
 * call, with all) is answered with it; the others move to a fresh worker, as they never ran.
 */
function stop(all = null) {
  worker?.terminate();
  worker = null;
  for (const [id, job] of pending) {
    const end = all || job.end;
    if (!end) continue;
    pending.delete(id);
    clearTimeout(job.watchdog);
    job.resolve([{ kind: "invoke", request: job.request, version: job.version, status: end.status, error: `${end.code}: ${end.reason}`, errorData: { code: end.code, message: end.reason }, durationMs: Math.round(performance.now() - job.started) }]);
  }
  if (pending.size) {
    const fresh = start();
    for (const job of pending.values()) {
      job.worker = fresh;
      fresh.postMessage(job.message);
    }
  }
}

/** Stops the job's worker when it is still busy with the job: the handler never yielded. */
function stopIfBusy(job, end) {
  if (!pending.has(job.id) || job.acked || worker !== job.worker) return;
  job.end = end;
  stop();
  if (!worker) start();
}

/** Starts the worker ahead of the first call (it loads its own toolgate instance). */
export function warm() {
  if (!worker && typeof Worker === "function") start();
}

/**
 * Invokes the call text against the definitions (built in the worker, cached by version), on the
 * branch as view ({target, options}: a provider export, state.view by default) left it.
 * Resolves to a list of outcomes, one per call the text holds (see worker.js), never rejects. An
 * aborted signal cancels the call; a handler too busy to notice is stopped with its worker, also
 * when it outlives timeoutMs (the tools' own timeouts, which it keeps from firing) by BUSY_MS.
 */
export function invoke(defs, version, callText, { signal, timeoutMs, view } = {}) {
  if (!worker) start();
  const id = nextId++;
  return new Promise((resolve) => {
    const job = { id, resolve, request: callText, version, started: performance.now(), acked: false, end: null, worker, timeoutMs, message: { type: "invoke", id, module: state.module, defs, version, view: view ?? state.view, text: callText } };
    pending.set(id, job);
    job.worker.postMessage(job.message);
    const onAbort = () => {
      if (!pending.has(id)) return;
      job.worker.postMessage({ type: "abort", id });
      setTimeout(() => stopIfBusy(job, { status: "cancelled", code: "cancelled", reason: BUSY_REASON }), BUSY_MS);
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}

const BUSY_REASON = "the handler kept its worker busy (synchronous code never lets a cancel in), so that worker was stopped and a fresh one started; nothing this call did is kept";
