// The fuzz cases' value language: JSON in which an object {"$fz": <tag>, …} stands for a JS value
// JSON cannot hold (a BigInt, NaN, a cycle, a function, a Map, an AbortSignal, a handler with a
// behaviour, JSON text with a repeated key …). A case is pure JSON, so a seed file replays it
// exactly; materialize() turns it into live values for one run, toText() into JSON text.

/** A tagged value: {"$fz": name, ...fields}. */
export const tag = (name, fields = {}) => ({ $fz: name, ...fields });

/** Sets an own data property, even "__proto__" (a plain assignment would set the prototype). */
export function put(obj, key, value) {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  return obj;
}

/** An object from [key, value] pairs, every key an own data property. */
export function obj(pairs) {
  const out = {};
  for (const [k, v] of pairs) put(out, k, v);
  return out;
}

const isTagged = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && typeof v.$fz === "string";
const SPECIAL_NUMBERS = { NaN: NaN, Infinity: Infinity, "-Infinity": -Infinity, "-0": -0 };

/** A function from source text, evaluated in a scope where `__tgFuzz` is the case's runtime. */
export function functionFrom(src, runtime) {
  return new Function("__tgFuzz", `return (${src});`)(runtime);
}

/** n levels of arrays or objects around a leaf. */
function nest(n, kind, leaf) {
  let v = leaf;
  for (let i = 0; i < n; i++) v = kind === "object" ? { k: v } : [v];
  return v;
}

/** An AbortSignal: already aborted, aborted after `ms`, or never. */
function signalOf(v) {
  const ac = new AbortController();
  if (v.kind === "aborted") ac.abort(v.reason === "none" ? undefined : new Error("aborted before"));
  if (v.kind === "later") setTimeout(() => ac.abort(new Error("aborted later")), v.ms ?? 2);
  return ac.signal;
}

/** Objects that look like signals, or partly, but are not AbortSignals. */
function fakeSignal(v) {
  switch (v.kind) {
    case "eventtarget": return new EventTarget();
    case "aborted-only": return { aborted: true };
    case "duck": return { aborted: false, addEventListener() {}, removeEventListener() {} };
    default: return { aborted: false };
  }
}

/** A Standard Schema or zod-like value whose JSON Schema export is v.json, throws or is missing. */
function schemaWrapper(v, env, standard) {
  const exportIt = () => {
    if (v.mode === "throws") throw new Error("export failed");
    return materialize(v.json, env);
  };
  if (!standard) return { toJSONSchema: exportIt };
  if (v.mode === "noexport") return { "~standard": { version: 1, vendor: "fuzz", validate: () => ({}) } };
  return { "~standard": { version: 1, vendor: "fuzz", jsonSchema: { input: exportIt, output: exportIt } } };
}

/** Live values that hold other values of the language. */
const CONTAINERS = {
  map: (v, env) => new Map(v.e.map(([k, x]) => [materialize(k, env), materialize(x, env)])),
  set: (v, env) => new Set(v.e.map((x) => materialize(x, env))),
  nullproto: (v, env) => fill(Object.create(null), v.o, env),
  dupkeys: (v, env) => obj(v.e.map(([k, x]) => [k, materialize(x, env)])),
  deep: (v, env) => nest(v.n, v.kind, materialize(v.leaf ?? null, env)),
  text: (v, env) => toText(v.v, env),
  stdschema: (v, env) => schemaWrapper(v, env, true),
  tojsonschema: (v, env) => schemaWrapper(v, env, false),
};

/** Live values of the leaf tags. */
const LEAVES = {
  undefined: () => undefined,
  bigint: (v) => BigInt(v.v),
  num: (v) => SPECIAL_NUMBERS[v.v],
  rawnum: (v) => Number(v.v),
  longstr: (v) => (v.ch ?? "x").repeat(v.n),
  symbol: (v) => Symbol(v.v ?? "s"),
  date: (v) => new Date(v.v === "invalid" ? NaN : v.v),
  regexp: () => /a+/g,
  error: (v) => new Error(v.v ?? "an error value"),
  instance: () => new (class Point { constructor() { this.x = 1; } })(),
  typed: () => new Uint8Array([1, 2, 3]),
  revoked: () => { const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy; },
  throwget: () => Object.defineProperty({}, "boom", { enumerable: true, get() { throw new Error("getter threw"); } }),
  throwjson: () => ({ toJSON() { throw new Error("toJSON threw"); } }),
  signal: (v) => signalOf(v),
  fakesignal: (v) => fakeSignal(v),
};

/** Functions: from source, methods, getters, natives, bound, and behaviour handlers. */
const FUNCTIONS = {
  fn: (v, env) => functionFrom(v.src, env.runtime),
  method: (v, env) => functionFrom(`{${v.src}}`, env.runtime)[v.name],
  getter: (v) => Object.getOwnPropertyDescriptor({ get value() { return 1; } }, "value").get,
  native: (v) => v.v.split(".").reduce((o, k) => o[k], globalThis),
  bound: (v, env) => functionFrom(v.src, env.runtime).bind(null),
  handler: (v, env) => env.runtime.handler(v.b),
};

/** References to the case's own objects. */
const REFS = {
  tool: (_v, env) => env.tool,
  toolfn: (_v, env) => env.fn,
  othertool: (_v, env) => env.otherTool(),
};

const MAKERS = { ...CONTAINERS, ...LEAVES, ...FUNCTIONS, ...REFS };

/** Fills target with the materialized members of the plain object o. */
function fill(target, o, env) {
  for (const k of Object.keys(o)) put(target, k, materialize(o[k], env, target));
  return target;
}

/**
 * The live JS value of a value of the language. `parent` is the enclosing object or array, which
 * a {"$fz": "cycle"} refers to (at the top, a cycle is an object holding itself).
 */
export function materialize(v, env, parent = null) {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) {
    const out = [];
    for (const e of v) out.push(materialize(e, env, out));
    return out;
  }
  if (!isTagged(v)) return fill({}, v, env);
  if (v.$fz === "cycle") {
    if (parent) return parent;
    const self = {};
    return put(self, "self", self);
  }
  const make = MAKERS[v.$fz];
  if (!make) throw new Error(`fuzz: unknown tag ${v.$fz}`);
  return make(v, env);
}

/** JSON text of members, skipping those JSON.stringify would skip. */
function membersText(pairs, env) {
  const parts = [];
  for (const [k, x] of pairs) {
    const t = textOf(x, env);
    if (t !== undefined) parts.push(`${JSON.stringify(k)}:${t}`);
  }
  return `{${parts.join(",")}}`;
}

/** Text of tagged values; undefined means "skipped" (as JSON.stringify skips a function). */
const TEXTERS = {
  bigint: (v) => v.v,
  rawnum: (v) => v.v,
  num: (v) => (v.v === "-0" ? "-0" : "null"),
  deep: (v, env) => { const leaf = textOf(v.leaf ?? null, env) ?? "null"; return v.kind === "object" ? '{"k":'.repeat(v.n) + leaf + "}".repeat(v.n) : "[".repeat(v.n) + leaf + "]".repeat(v.n); },
  longstr: (v) => JSON.stringify((v.ch ?? "x").repeat(v.n)),
  dupkeys: (v, env) => membersText(v.e, env),
  nullproto: (v, env) => membersText(Object.entries(v.o), env),
  text: (v, env) => JSON.stringify(toText(v.v, env)),
  cycle: () => "null",
};

/** JSON text of one value of the language, or undefined where JSON.stringify would skip it. */
function textOf(v, env) {
  if (v === null) return "null";
  if (typeof v === "number") return Number.isFinite(v) ? JSON.stringify(v) : "null";
  if (typeof v !== "object") return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map((e) => textOf(e, env) ?? "null").join(",")}]`;
  if (!isTagged(v)) return membersText(Object.entries(v), env);
  if (TEXTERS[v.$fz]) return TEXTERS[v.$fz](v, env);
  try {
    return JSON.stringify(materialize(v, env));
  } catch {
    return "null";
  }
}

/**
 * JSON text of a value of the language, written by hand so it can hold what JSON.stringify never
 * writes: exact big integers, raw number literals, -0, repeated keys, nesting past any stack.
 */
export function toText(v, env) {
  return textOf(v, env) ?? "null";
}

/** Every tag used in v, for counting what a run covered. */
export function tagsOf(v, out = new Set()) {
  if (v === null || typeof v !== "object") return out;
  if (isTagged(v)) out.add(v.$fz);
  for (const x of Array.isArray(v) ? v : Object.values(v)) tagsOf(x, out);
  return out;
}
