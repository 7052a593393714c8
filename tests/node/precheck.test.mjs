// The JS pre-check of typed tools (npm/lib/precheck.js) against Go: whenever the pre-check calls
// arguments valid, Go's own path (a request as JSON text, which never takes the pre-check) must say
// ok with the same arguments (deep-equal, and the same keys in the same order) and no conversions.
// Generated schemas and values (fuzz/gen-schema.mjs, fuzz/gen-values.mjs) in both coerce modes,
// the typical schema of bench/figures/validate.mjs, and hand-written cases for each thing the
// pre-check must decline. How often it answers is logged, never asserted.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { Rng, caseSeed } from "./fuzz/prng.mjs";
import { genSchema } from "./fuzz/gen-schema.mjs";
import { argumentsFor, sprinkle } from "./fuzz/gen-values.mjs";
import { materialize } from "./fuzz/tagged.mjs";

const SEED = 20261201;
const SCHEMAS = 400;
const VALUES = 12;

const TYPICAL = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1 },
    limit: { type: "integer", minimum: 1 },
    order: { enum: ["asc", "desc", "relevance"] },
    tags: { type: "array", items: { type: "string" } },
    filter: { type: "object", properties: { field: { type: "string" }, exact: { type: "boolean" } }, required: ["field"], additionalProperties: false },
  },
  required: ["query", "limit"],
};

const EXACT = [-1, 0, 1, 2, 2.5, 3, 10, 0.5, -0.5, 100, 1e-7];
const NAMES = ["a", "b", "c", "0", "10", "ü", "😀", "x y", "constructor", "toString", "q\"uote", "back\\slash", "new\nline", "\u2028"];
const PRIMITIVES = [1, 2.5, 0, "a", "", "ü", "😀", null, true, false];

/** A subschema within what the pre-check models (and what Go's fast path compiles). */
function modelled(rng, d) {
  const leaf = [
    [3, () => ({ type: "string", ...(rng.chance(0.5) ? { minLength: rng.int(0, 2) } : {}), ...(rng.chance(0.5) ? { maxLength: rng.int(1, 3) } : {}) })],
    [3, () => ({ type: rng.pick(["integer", "number"]), ...(rng.chance(0.5) ? { minimum: rng.pick(EXACT) } : {}), ...(rng.chance(0.3) ? { exclusiveMaximum: rng.pick(EXACT) } : {}), ...(rng.chance(0.2) ? { multipleOf: rng.pick([1, 2, 3]) } : {}) })],
    [2, () => ({ enum: rng.subset(PRIMITIVES, 4).concat([rng.pick(PRIMITIVES)]) })],
    [1, () => ({ const: rng.pick(PRIMITIVES) })],
    [2, () => ({ type: rng.pick(["boolean", "null", ["string", "null"], ["integer", "boolean"]]) })],
    [1, () => rng.pick([{}, true, false])],
  ];
  if (d <= 0) return rng.weighted(leaf);
  return rng.weighted([
    ...leaf,
    [2, () => ({ type: "array", items: modelled(rng, d - 1), ...(rng.chance(0.3) ? { minItems: rng.int(0, 2) } : {}), ...(rng.chance(0.3) ? { maxItems: rng.int(1, 3) } : {}), ...(rng.chance(0.3) ? { uniqueItems: true } : {}) })],
    [1, () => ({ type: "array", prefixItems: [modelled(rng, d - 1), modelled(rng, d - 1)], ...(rng.chance(0.5) ? { items: modelled(rng, d - 1) } : {}) })],
    [3, () => modelledObject(rng, d - 1)],
    [1, () => ({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }].slice(0, rng.int(1, 3)) })],
    [1, () => ({ oneOf: [{ type: "string", minLength: 1 }, { type: "array", items: modelled(rng, d - 1) }] })],
    [1, () => ({ allOf: [modelled(rng, d - 1), modelled(rng, d - 1)] })],
    [1, () => ({ $ref: "#/$defs/item" })],
  ]);
}

/** An object subschema of modelled properties. */
function modelledObject(rng, d) {
  const names = rng.subset(NAMES, 4);
  const s = { type: "object", properties: Object.fromEntries(names.map((k) => [k, modelled(rng, d)])) };
  if (names.length && rng.chance(0.5)) s.required = rng.subset(names, 2);
  const add = rng.weighted([[3, undefined], [1, false], [1, true], [1, () => modelled(rng, 0)]]);
  if (add !== undefined) s.additionalProperties = add;
  if (rng.chance(0.15)) s.minProperties = rng.int(0, 2);
  if (rng.chance(0.15)) s.maxProperties = rng.int(1, 3);
  return s;
}

/** A whole parameters schema of modelled keywords, with a $defs entry for $ref. */
function modelledSchema(rng) {
  const root = modelledObject(rng, 2);
  root.$defs = { item: modelled(rng, 1) };
  return root;
}

/** A value meant to fit a modelled schema (bounds and lengths may still refuse it). */
function fitting(rng, s, root, d = 5) {
  if (s === false || d <= 0) return rng.pick(PRIMITIVES);
  if (s === true || Object.keys(s).length === 0) return rng.pick([...PRIMITIVES, [1], { a: 1 }]);
  if (s.$ref) return fitting(rng, root.$defs.item, root, d - 1);
  if ("const" in s) return s.const;
  if (s.enum) return rng.pick(s.enum);
  if (s.anyOf || s.oneOf) return fitting(rng, rng.pick(s.anyOf || s.oneOf), root, d - 1);
  if (s.allOf) return fitting(rng, s.allOf[rng.int(0, 1)], root, d - 1);
  const type = Array.isArray(s.type) ? rng.pick(s.type) : s.type;
  switch (type) {
    case "string":
      return rng.pick(["", "a", "ab", "abc", "😀", "ü😀", "x:y", "1.5"]);
    case "integer":
      return rng.pick([0, 1, 2, 3, 6, 10, -1, 100, 12, -0]);
    case "number":
      return rng.pick([0.5, 2.5, 1e-7, 3, 1.5, 10, 100, -0.5]);
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    case "array": {
      const n = rng.int(0, 3);
      return Array.from({ length: n }, (_, i) => fitting(rng, s.prefixItems?.[i] ?? s.items ?? true, root, d - 1));
    }
  }
  const out = {};
  for (const [k, sub] of Object.entries(s.properties ?? {})) if ((s.required ?? []).includes(k) || rng.chance(0.6)) out[k] = fitting(rng, sub, root, d - 1);
  if (s.additionalProperties !== undefined && s.additionalProperties !== false && rng.chance(0.3)) out.zz = fitting(rng, s.additionalProperties, root, d - 1);
  return out;
}

/** A typed tool and a branch holding it, or null when Go refuses the schema. */
function setup(parameters, coerce, name = "t") {
  let t;
  try {
    t = tg.tool({ name, parameters, handler: (a) => a, coerce });
  } catch {
    return null;
  }
  return { t, b: tg.branch({ tools: [t] }), name };
}

/** Go's verdict: the request as JSON text, which b.validate hands to Go as it is. */
function goValidate(b, name, args) {
  return b.validate(JSON.stringify({ function: name, arguments: args }));
}

/** Asserts that a "valid" from the pre-check is Go's answer; returns whether the pre-check answered. */
function agree(s, args, form, what) {
  const pre = form === "text" ? s.t._precheck?.text(args) : s.t._precheck?.object(args);
  if (pre === undefined) return false;
  let text;
  try {
    text = JSON.stringify(args);
  } catch {
    assert.fail(`${what}: the pre-check called arguments valid that JSON cannot carry`);
  }
  assert.notEqual(pre, args, `${what}: the arguments handed back alias the input`);
  const go = goValidate(s.b, s.name, args);
  assert.equal(go.ok, true, `${what}: the pre-check says valid, Go says ${go.error?.message} (arguments ${text})`);
  assert.equal(go.conversions, undefined, `${what}: Go made conversions`);
  assert.deepEqual(pre, go.arguments, `${what}: arguments differ (${text})`);
  assert.equal(JSON.stringify(pre), JSON.stringify(go.arguments), `${what}: key order differs (${text})`);
  // and through the branch's own path (warm: Go resolved the name once)
  const viaBranch = s.b.validate({ function: s.name, arguments: args });
  assert.deepEqual(viaBranch, { ok: true, function: go.function, arguments: go.arguments }, `${what}: b.validate differs`);
  // b.match: Go's match accepts what its validate accepts, with the same arguments
  const goMatch = s.b.match(JSON.stringify({ function: s.name, arguments: args }));
  const viaMatch = s.b.match({ function: s.name, arguments: args });
  assert.deepEqual(goMatch.arguments, go.arguments, `${what}: Go's match differs from its validate`);
  assert.equal(JSON.stringify(viaMatch.arguments), JSON.stringify(goMatch.arguments), `${what}: b.match differs`);
  assert.deepEqual(viaMatch.arguments, goMatch.arguments, `${what}: b.match differs`);
  assert.equal(viaMatch.tool, goMatch.tool, `${what}: b.match's tool differs`);
  assert.equal(viaMatch.function, goMatch.function);
  assert.equal(viaMatch.conversions, undefined);
  return true;
}

/** Variants of an arguments object as text: compact, spaced, with keys reordered. */
function texts(rng, args) {
  let compact;
  try {
    compact = JSON.stringify(args);
  } catch {
    return [];
  }
  if (compact === undefined) return [];
  const out = [compact, JSON.stringify(args, null, rng.pick([1, 2, "\t"]))];
  return out;
}

test("the pre-check's valid is Go's ok, on generated schemas and values, in both coerce modes", () => {
  const tally = { schemas: 0, exported: 0, object: [0, 0], text: [0, 0] };
  for (let i = 0; i < SCHEMAS; i++) {
    const rng = new Rng(caseSeed(SEED, i));
    const ours = i !== 0 && i % 3 !== 0;
    const schema = i === 0 ? TYPICAL : ours ? modelledSchema(rng) : genSchema(rng, { depth: 3, diff: true, object: true });
    for (const coerce of ["none", "lax"]) {
      const s = setup(schema, coerce);
      if (!s) continue;
      tally.schemas++;
      if (s.t._precheck) tally.exported++;
      goValidate(s.b, s.name, {}); // the branch learns the name's tool only from an ok; a warm-up either way
      for (let j = 0; j < VALUES; j++) {
        let args = ours && rng.chance(0.6) ? fitting(rng, schema, schema) : argumentsFor(rng, schema);
        if (rng.chance(0.2)) args = sprinkle(rng, args);
        let live;
        try {
          live = materialize(args, {});
        } catch {
          continue;
        }
        const what = `schema ${i} (${coerce}) value ${j}`;
        tally.object[1]++;
        if (agree(s, live, "object", what)) tally.object[0]++;
        for (const text of texts(rng, live)) {
          tally.text[1]++;
          if (agree(s, text, "text", `${what} as text`)) tally.text[0]++;
        }
      }
    }
  }
  console.log(
    `precheck: ${tally.exported}/${tally.schemas} tools exported a program; it answered ${tally.object[0]}/${tally.object[1]} object and ${tally.text[0]}/${tally.text[1]} text arguments`,
  );
});

test("the typical schema: the pre-check answers valid calls, and b.validate and b.match take it once Go resolved the name", async () => {
  const s = setup(TYPICAL, "none", "search");
  assert.ok(s.t._precheck, "the typical schema exports a program");
  const args = { query: "oslo", limit: 5, order: "asc", tags: ["a"], filter: { field: "f", exact: true } };
  assert.ok(agree(s, args, "object", "typical object"));
  assert.ok(agree(s, JSON.stringify(args), "text", "typical text"));
  const before = s.b._prechecked;
  s.b.validate({ function: "search", arguments: args });
  s.b.validate({ function: s.t, arguments: JSON.stringify(args) });
  assert.equal(s.b._prechecked, before + 2);
  const fc = s.b.match({ function: "search", arguments: args });
  assert.equal(s.b._prechecked, before + 3);
  assert.equal(fc.tool, s.t);
  assert.equal(fc.status, "pending");
  assert.notEqual(fc.arguments, args);
  assert.deepEqual(fc.arguments, args);
  const ran = await s.b.invoke({ function: "search", arguments: args });
  assert.equal(ran.status, "completed");
  assert.deepEqual(ran.response, args);
  // invalid arguments always get Go's error
  const bad = s.b.validate({ function: "search", arguments: { query: "", limit: 5 } });
  assert.equal(bad.ok, false);
  assert.equal(bad.error.code, "invalid-arguments");
});

test("a replaced tool is followed: the name's cache drops when the registry changes", () => {
  const s = setup(TYPICAL, "none", "search");
  const args = { query: "oslo", limit: 5 };
  assert.equal(s.b.validate({ function: "search", arguments: args }).ok, true);
  assert.equal(s.b.validate({ function: "search", arguments: args }).ok, true);
  const stricter = tg.tool({ name: "search", parameters: { ...TYPICAL, properties: { ...TYPICAL.properties, limit: { type: "integer", minimum: 10 } } }, handler: (a) => a, coerce: "none" });
  s.b.register(stricter, { update: true });
  const r = s.b.validate({ function: "search", arguments: args });
  assert.equal(r.ok, false, "the replacement's schema refuses limit 5");
  // a change in another branch also drops the cache (one counter for all registries), never wrongly keeps it
  tg.branch({ tools: [tg.tool({ name: "other", parameters: { type: "object" }, handler: () => 1 })] });
  assert.equal(s.b.validate({ function: "search", arguments: { query: "x", limit: 50 } }).ok, true);
});

test("after the instance restarts, a name is resolved by Go again before the pre-check answers", () => {
  const debug = tg[Symbol.for("toolgate.debug")];
  const s = setup(TYPICAL, "none", "search");
  const args = { query: "oslo", limit: 5 };
  s.b.validate({ function: "search", arguments: args });
  const warmCount = s.b._prechecked;
  s.b.validate({ function: "search", arguments: args });
  assert.equal(s.b._prechecked, warmCount + 1, "warm: answered in JS");
  assert.throws(() => debug.exit(), (e) => e.code === "internal");
  assert.ok(s.b.has("search"), "the branch rebuilds itself in the new instance"); // rebuilds the handle first
  const r = s.b.validate({ function: "search", arguments: args });
  assert.equal(r.ok, true);
  assert.deepEqual(r.arguments, args);
  assert.equal(s.b._prechecked, warmCount + 1, "the first call after the restart went to Go");
  assert.equal(s.b.validate({ function: "search", arguments: { query: "", limit: 5 } }).error.code, "invalid-arguments");
  s.b.validate({ function: "search", arguments: args });
  assert.equal(s.b._prechecked, warmCount + 2, "then the pre-check answers again");
});

test("after a branch's export, the pre-check steps aside for exactly the names Go remembered an alias or a strict restore for", () => {
  const opt = { type: "object", properties: { a: { type: "string" } } };
  const all = { ...opt, required: ["a"] };
  const specs = { "book.room": opt, "get.time": all, optional: opt, all_required: all };
  const tools = Object.entries(specs).map(([name, parameters]) => tg.tool({ name, parameters, handler: (a) => a, coerce: "none" }));
  for (const t of tools) assert.ok(t._precheck, `${t.function} exports a program`);
  const b = tg.branch({ tools });
  /** How many of three validations naming `name` the pre-check answered in b (the first may go to Go). */
  const answered = (br, name) => {
    const before = br._prechecked;
    for (let i = 0; i < 3; i++) assert.equal(br.validate({ function: name, arguments: { a: "x" } }).ok, true, name);
    return br._prechecked - before;
  };
  for (const name of Object.keys(specs)) assert.equal(answered(b, name), 2, `${name} before any export`);
  const { report } = tg.toProvider(b, "openai-chat", { strict: true });
  const exported = Object.fromEntries(Object.entries(report.names).map(([e, r]) => [r, e]));
  assert.notEqual(exported["book.room"], "book.room", "openai-chat renames a dotted name");
  const want = {
    "book.room": 0, // an alias stands for it, and strict mode's nulls are restored
    [exported["book.room"]]: 0, // the alias
    "get.time": 0, // an alias stands for it (every property required: no restore)
    [exported["get.time"]]: 0,
    optional: 0, // a strict restore
    all_required: 2, // the export changed nothing for it
  };
  for (const br of [b, b.clone()]) {
    for (const [name, n] of Object.entries(want)) assert.equal(answered(br, name), n, `${name} after a strict export`);
  }
  // the last export decides the restores; aliases stay
  tg.toProvider(b, "openai-chat");
  assert.equal(answered(b, "optional"), 2, "optional after a non-strict export");
  assert.equal(answered(b, "get.time"), 0, "get.time after a non-strict export");
  assert.equal(answered(b, "all_required"), 2);
});

/** A tool whose pre-check is warm in its branch. */
function warm(parameters, coerce = "none") {
  const s = setup(parameters, coerce);
  assert.ok(s, "Go accepts the schema");
  return s;
}

test("the pre-check declines what JSON or Go treat specially (values)", () => {
  const s = warm({ type: "object", properties: { a: {}, b: {} } });
  assert.ok(s.t._precheck);
  class K {}
  const declined = {
    bigint: { a: 5n },
    undefined: { a: undefined },
    function: { a() {} },
    symbol: { a: Symbol("x") },
    date: { a: new Date(0) },
    map: { a: new Map() },
    instance: { a: new K() },
    toJSON: { a: { toJSON: () => 1 } },
    NaN: { a: NaN },
    Infinity: { a: -Infinity },
    "2^53": { a: 2 ** 53 },
    "beyond 2^53": { a: -(2 ** 60) },
    "lone surrogate": { a: "x\ud800" },
    "lone surrogate key": { a: { "\udc00": 1 } },
    __proto__: JSON.parse('{"a": {"__proto__": 1}}'),
    "boxed string": { a: new String("x") },
    "sparse array": { a: [1, , 3] }, // eslint-disable-line no-sparse-arrays
    "too deep": { a: JSON.parse("[".repeat(63) + "]".repeat(63)) },
  };
  for (const [what, args] of Object.entries(declined)) {
    assert.equal(s.t._precheck.object(args), undefined, what);
    agree(s, args, "object", what);
  }
  // -0 crosses as 0
  assert.ok(agree(s, { a: -0 }, "object", "-0"));
  assert.ok(Object.is(s.t._precheck.object({ a: -0 }).a, 0));
  // nested keys come back sorted, as Go writes them; the top level keeps its order
  const out = s.t._precheck.object({ b: { z: 1, y: { d: 1, c: 2 }, 10: 0, 9: 0 }, a: 1 });
  assert.deepEqual(Object.keys(out), ["b", "a"]);
  assert.deepEqual(Object.keys(out.b.y), ["c", "d"]);
  agree(s, { b: { z: 1, y: { d: 1, c: 2 }, 10: 0, 9: 0, "😀": 1, "\uffff": 2 }, a: 1 }, "object", "key order");
});

test("the pre-check declines arguments text whose numbers or keys Go reads differently", () => {
  const s = warm({ type: "object", properties: { a: { type: "integer", maximum: 1 }, b: {} } });
  const declined = {
    "repeated key": '{"a": 1, "a": 0}',
    "1.0 for an integer": '{"a": 1.0}',
    exponent: '{"a": 1e0}',
    "more digits than a double": '{"a": 1.0000000000000000001}',
    "16 digits": '{"b": 1234567890123456}',
    underflow: '{"b": 1e-2000}',
    "a colon inside a string": '{"b": "10:30"}',
    "lone surrogate": '{"b": "\\ud800"}',
    __proto__: '{"b": {"__proto__": 1}}',
    "not an object": "[1]",
    "not JSON": "{a: 1}",
  };
  for (const [what, text] of Object.entries(declined)) {
    assert.equal(s.t._precheck.text(text), undefined, what);
    agree(s, text, "text", what);
  }
  assert.ok(agree(s, '{"a": -0, "b": {"y": 1, "x": [{"q": 1, "p": 2}]}}', "text", "-0 and nested order"));
});

test("the pre-check declines schemas whose checks JS would not make exactly as Go does", () => {
  const none = {
    pattern: { type: "object", properties: { a: { type: "string", pattern: "^a" } } },
    "inexact bound": { type: "object", properties: { a: { minimum: 0.1 } } },
    "long bound": { type: "object", properties: { a: { maximum: 0.1000000000000000055511151231257827021181583404541015625 } } },
    "fractional multipleOf": { type: "object", properties: { a: { multipleOf: 0.5 } } },
    "composite enum": { type: "object", properties: { a: { enum: [[1], { b: 1 }] } } },
    "inexact enum number": { type: "object", properties: { a: { enum: [0.1] } } },
    "top-level patternProperties": { type: "object", patternProperties: { "^x": {} } },
  };
  for (const [what, schema] of Object.entries(none)) {
    const s = warm(schema);
    assert.equal(s.t._precheck, null, what);
  }
  // lax tools whose schema has a lax conversion somewhere (a number, integer or boolean) export nothing
  assert.equal(warm(TYPICAL, "lax").t._precheck, null);
  // strictFuncCall tools export nothing
  assert.equal(tg.tool({ name: "s", parameters: TYPICAL, handler: () => 1, coerce: "none", strictFuncCall: true })._precheck, null);
  // exact bounds and integer multipleOf are modelled
  const s = warm({ type: "object", properties: { a: { minimum: 0.5, exclusiveMaximum: 10, multipleOf: 3 }, n: { type: "number", maximum: 1 } } });
  assert.ok(s.t._precheck);
  for (const a of [0.5, 3, 9, 6, 0.25, 10, 12, 1.5, -3]) agree(s, { a }, "object", `bound ${a}`);
  for (const n of [1, 0.9999999999999999, 1.0000000000000002, -1e300, 5e-324]) agree(s, { n }, "object", `max ${n}`);
  assert.equal(s.t._precheck.object({ a: 3 })?.a, 3);
  assert.equal(s.t._precheck.object({ a: 4 }), undefined);
});

test("the pre-check declines top-level keys Go would drop, and missing minimum keys", () => {
  const s = warm({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
  assert.equal(s.t._precheck.object({ a: "x", extra: 1 }), undefined, "extra key is dropped by Go");
  agree(s, { a: "x", extra: 1 }, "object", "dropped key");
  assert.equal(s.t._precheck.object({}), undefined);
  assert.ok(agree(s, { a: "x" }, "object", "kept"));
  const open = warm({ type: "object", properties: { a: { type: "string" } }, additionalProperties: true });
  assert.ok(agree(open, { a: "x", extra: 1 }, "object", "additionalProperties keeps every key"));
  // lengths count code points
  const len = warm({ type: "object", properties: { s: { type: "string", minLength: 2, maxLength: 2 } } });
  for (const str of ["😀😀", "😀", "ab", "a😀", "😀😀😀", "abc"]) agree(len, { s: str }, "object", `length of ${str}`);
  assert.ok(len.t._precheck.object({ s: "😀😀" }));
  assert.equal(len.t._precheck.object({ s: "😀" }), undefined);
  // uniqueItems and enum equality as Go's
  const u = warm({ type: "object", properties: { l: { type: "array", uniqueItems: true }, e: { enum: [1, "1", null] } } });
  for (const l of [[1, 1.0], [{ a: 1, b: 2 }, { b: 2, a: 1 }], [[1], [1, 2]], [0, -0], ["a", "b"]]) agree(u, { l }, "object", `unique ${JSON.stringify(l)}`);
  for (const e of [1, 1.0, "1", null, true, 2]) agree(u, { e }, "object", `enum ${e}`);
});
