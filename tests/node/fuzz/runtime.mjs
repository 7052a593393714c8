// What the fuzz cases' handlers, processors and raw functions do when they run: a behaviour is
// JSON ({k: "return", v}, {k: "throw", e}, {k: "hang"}, {k: "delay", ms, then} …), so a seed file
// replays it. The runtime counts the calls, which the oracles read.
import { materialize, put } from "./tagged.mjs";

/** Objects a behaviour threw: a ToolgateError among them is the tool's own data, not the library's. */
const thrownByUser = new WeakSet();

/** Whether v is an object some behaviour threw. */
export function isUserThrown(v) {
  return v !== null && (typeof v === "object" || typeof v === "function") && thrownByUser.has(v);
}

/** The value a {k: "throw", e} behaviour throws. */
function thrownValue(api, e) {
  switch (e) {
    case "Error": return new Error("handler failed");
    case "TypeError": return new TypeError("handler type error");
    case "RangeError": return new RangeError("handler range error");
    case "ToolgateError": return new api.ToolgateError("timeout", "a handler's own ToolgateError");
    case "ToolgateErrorInternal": return new api.ToolgateError("internal", "a handler's own internal error");
    case "ToolgateErrorBogus": return new api.ToolgateError("banana", "a code outside the set");
    case "nullproto": return Object.assign(Object.create(null), { message: "no prototype" });
    case "object": return { code: "internal", message: "a plain object" };
    case "revoked": { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; }
    case "badgetter": return Object.defineProperty(new Error("x"), "message", { get() { throw new Error("message getter threw"); } });
    case "string": return "a thrown string";
    case "number": return 42;
    case "bigint": return 12345678901234567890n;
    case "symbol": return Symbol("thrown");
    case "null": return null;
    default: return undefined;
  }
}

/** A thenable: resolves, rejects, throws from then, or never calls back. */
function thenable(kind) {
  switch (kind) {
    case "resolves": return { then(res) { res("from a thenable"); } };
    case "rejects": return { then(_res, rej) { rej(new Error("thenable rejected")); } };
    case "throws": return { then() { throw new Error("then threw"); } };
    default: return { then() {} };
  }
}

/** Runs behaviour b on the call's arguments (args[0] is a typed handler's object). */
function act(rt, b, args) {
  switch (b.k) {
    case "return": return materialize(b.v, rt.env);
    case "echo": return args[0];
    case "echoAll": return args;
    case "throw": {
      const v = thrownValue(rt.api, b.e);
      if (v !== null && (typeof v === "object" || typeof v === "function")) thrownByUser.add(v);
      throw v;
    }
    case "hang": return new Promise(() => {});
    case "delay": return new Promise((res) => setTimeout(res, b.ms)).then(() => act(rt, b.then, args));
    case "async": return Promise.resolve().then(() => act(rt, b.then, args));
    case "thenable": return thenable(b.kind);
    case "mutate":
      if (args[0] !== null && typeof args[0] === "object") put(args[0], b.key, materialize(b.v, rt.env));
      return args[0];
    default: throw new Error(`fuzz: unknown behaviour ${b.k}`);
  }
}

/** One case's behaviours: the handlers it hands out, and how many times they were called. */
export class Runtime {
  constructor(api, env) {
    this.api = api;
    this.env = env;
    this.calls = 0;
  }
  /** A function that runs behaviour b (a handler, preprocessor or postprocessor). */
  handler(b) {
    const rt = this;
    return function fuzzHandler(...args) {
      return rt.run(b, args);
    };
  }
  /** Runs b; raw functions' bodies call this as __tgFuzz.run(b, [...arguments]). */
  run(b, args) {
    this.calls++;
    return act(this, b, args);
  }
}

/** Whether behaviour b can leave a call pending forever. */
export function canHang(b) {
  if (!b) return false;
  if (b.k === "hang" || (b.k === "thenable" && b.kind === "never")) return true;
  return b.then ? canHang(b.then) : false;
}

/** The longest delay behaviour b waits before it settles, in ms. */
export function delayOf(b) {
  if (!b) return 0;
  return (b.k === "delay" ? b.ms : 0) + (b.then ? delayOf(b.then) : 0);
}
