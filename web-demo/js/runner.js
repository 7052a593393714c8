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
    else if (msg.type === "done") {
      pending.delete(msg.id);
      job.resolve(msg.outcomes);
    }
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    // after the worker started, an uncaught error is a handler's stray throw: the worker lives on
    if (worker === mine && !alive) stop(`the handler worker failed: ${event.message || "it could not start"}`, "failed");
  });
  return worker;
}

/**
 * Ends the worker. Every call still on it that was cancelled (or every call, when all is true) is
 * answered with status and the reason; the others move to a fresh worker, as they were never run.
 */
function stop(reason, status, all = true) {
  worker?.terminate();
  worker = null;
  for (const [id, job] of pending) {
    if (!all && !job.aborted) continue;
    pending.delete(id);
    job.resolve([{ kind: "invoke", request: job.request, version: job.version, status, error: reason, errorData: { code: status === "cancelled" ? "cancelled" : "internal", message: reason }, durationMs: Math.round(performance.now() - job.started) }]);
  }
  if (pending.size) {
    const fresh = start();
    for (const job of pending.values()) {
      job.worker = fresh;
      fresh.postMessage(job.message);
    }
  }
}

/** Starts the worker ahead of the first call (it loads its own toolgate instance). */
export function warm() {
  if (!worker && typeof Worker === "function") start();
}

/**
 * Invokes the call text against the definitions (built in the worker, cached by version).
 * Resolves to a list of outcomes, one per call the text holds (see worker.js), never rejects. An
 * aborted signal cancels the call; a handler too busy to notice is stopped with its worker.
 */
export function invoke(defs, version, callText, { signal } = {}) {
  if (!worker) start();
  const id = nextId++;
  const started = performance.now();
  return new Promise((resolve) => {
    const job = { resolve, request: callText, version, started, acked: false, aborted: false, worker, message: { type: "invoke", id, module: state.module, defs, version, text: callText } };
    pending.set(id, job);
    job.worker.postMessage(job.message);
    const onAbort = () => {
      if (!pending.has(id)) return;
      job.aborted = true;
      const w = job.worker;
      w.postMessage({ type: "abort", id });
      setTimeout(() => {
        if (pending.has(id) && !job.acked && worker === w) {
          stop("cancelled: the handler kept its worker busy (synchronous code never lets a cancel in), so that worker was stopped and a fresh one started; nothing this call did is kept", "cancelled", false);
          if (!worker) start();
        }
      }, BUSY_MS);
    };
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
}
