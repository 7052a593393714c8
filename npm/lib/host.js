// Host calls: Go calling JS functions given as options (hooks). Go never holds a JS function; it
// holds the number this table gave it (jsbridge/host.go). Internal. Node and browser.
import { toJSON, parseExact } from "./json.js";

/** The class name of what a hook threw, for the error Go gets: never its message, which may hold anything. */
function thrownName(e) {
  try {
    if (e !== null && typeof e === "object" && typeof e.name === "string" && e.name.length <= 60) return e.name;
  } catch {
    // a revoked Proxy, a throwing getter: say nothing more
  }
  return typeof e;
}

/** The status byte and JSON of a host call's error. */
function failure(message) {
  return "1" + JSON.stringify({ code: "internal", message });
}

/**
 * The JS functions Go may call, by number. One per GoInstance; numbers outlive restarts of the Go
 * program (the table is JS state), so a rebuilt registration hands Go the same numbers.
 */
export class HostTable {
  #byId = new Map(); // id -> {fn, what}
  #ids = new Map(); // fn -> id
  #next = 0;
  #calls = new Map(); // call id -> AbortController of a call in flight

  /** The number of `fn` (the same function object always gets the same one); `what` names it in errors. */
  add(fn, what) {
    let id = this.#ids.get(fn);
    if (id === undefined) {
      id = ++this.#next;
      this.#ids.set(fn, id);
      this.#byId.set(id, { fn, what });
    }
    return id;
  }

  /** Host calls in flight (for the leak tests). */
  get inFlight() {
    return this.#calls.size;
  }

  /** Installs boot.host, boot.hostAbort and boot.hostNotify, which Go calls (jsbridge/host_js.go). */
  install(boot) {
    boot.host = (id, callId, payload) => this.#call(id, callId, payload);
    boot.hostAbort = (callId) => this.#calls.get(callId)?.abort();
    boot.hostNotify = (id, payload) => this.#notify(id, payload);
  }

  /** Runs hook `id` on the parsed payload; resolves to '0' + JSON or '1' + error JSON, and settles when aborted even if the hook never does. */
  #call(id, callId, payload) {
    const entry = this.#byId.get(id);
    if (!entry) return Promise.resolve(failure(`no hook is registered under ${id}`));
    const ctrl = new AbortController();
    this.#calls.set(callId, ctrl);
    const aborted = new Promise((resolve) => ctrl.signal.addEventListener("abort", () => resolve(failure(`the ${entry.what} hook was abandoned`)), { once: true }));
    const work = (async () => {
      let value;
      try {
        value = await entry.fn(parseExact(payload), { signal: ctrl.signal });
      } catch (e) {
        return failure(`the ${entry.what} hook threw: ${thrownName(e)}`);
      }
      try {
        return "0" + (value === undefined ? "null" : toJSON(value, { code: "internal", what: `the ${entry.what} hook's result` }));
      } catch (e) {
        return failure(String(e?.message ?? `the ${entry.what} hook's result cannot be serialised`));
      }
    })();
    return Promise.race([work, aborted]).finally(() => this.#calls.delete(callId));
  }

  /** Runs listener `id` on the parsed payload; what it returns or throws is dropped. */
  #notify(id, payload) {
    const entry = this.#byId.get(id);
    if (!entry) return;
    try {
      Promise.resolve(entry.fn(parseExact(payload))).catch(() => {});
    } catch {
      // a listener's error is its own
    }
  }
}
