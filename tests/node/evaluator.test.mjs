// The JS evaluator of typed tools (npm/lib/evaluator.js) in a branch: what it answers, valid or
// refused, is Go's answer (the branch's evaluator switched off: Go's own path), b.match and
// b.validate take it once Go resolved the name (after a valid answer or a refusal), and it steps
// aside when the registry changes, the instance restarts, or an export remembers something for the
// name. The fuzzed comparison is evaluator-differential.test.mjs; here, hand-written cases for each
// thing the evaluator must model or decline.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual, inspect } from "node:util";
import { tg, seenVerdict as seen } from "./helpers.mjs";

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

/** Go's answer: b.validate with the branch's evaluator off. */
function goValidate(b, request) {
  b._jsEvaluator = false;
  try {
    return b.validate(request);
  } finally {
    b._jsEvaluator = true;
  }
}

/**
 * Asserts that the evaluator's verdict on args (an object, or text when form is "text") is Go's,
 * through the evaluator itself, b.validate and b.match; returns whether the evaluator answered.
 */
function agree(s, args, form, what) {
  const js = form === "text" ? s.t._evaluator?.text(args) : s.t._evaluator?.object(args);
  if (js === undefined) return false;
  const request = { function: s.name, arguments: args };
  const go = goValidate(s.b, request);
  assert.ok(isDeepStrictEqual(seen(js), seen(go)), `${what}: the evaluator says ${inspect(seen(js), { depth: 6 })}, Go ${inspect(seen(go), { depth: 6 })}`);
  if (js.ok) assert.notEqual(js.arguments, args, `${what}: the arguments handed back alias the input`);
  const before = s.b._evaluated;
  const viaBranch = s.b.validate(request);
  assert.ok(isDeepStrictEqual(seen(viaBranch), seen(go)), `${what}: b.validate differs`);
  let viaMatch;
  try {
    viaMatch = s.b.match(request);
  } catch (e) {
    viaMatch = e;
  }
  if (go.ok) {
    assert.ok(isDeepStrictEqual(seen({ ok: true, arguments: viaMatch.arguments, conversions: viaMatch.conversions }), seen(go)), `${what}: b.match differs`);
    assert.equal(viaMatch.tool, s.t);
  } else {
    assert.ok(isDeepStrictEqual(seen({ ok: false, error: viaMatch }), seen(go)), `${what}: b.match threw something else`);
  }
  assert.equal(s.b._evaluated, before + 2, `${what}: b.validate and b.match were answered in JS`);
  return true;
}

test("the typical schema: the evaluator answers valid and refused calls as Go does, in b.validate and b.match once Go resolved the name", async () => {
  const s = setup(TYPICAL, "none", "search");
  assert.ok(s.t._evaluator, "the typical schema exports a program");
  const args = { query: "oslo", limit: 5, order: "asc", tags: ["a"], filter: { field: "f", exact: true } };
  assert.ok(agree(s, args, "object", "typical object"));
  assert.ok(agree(s, JSON.stringify(args), "text", "typical text"));
  for (const bad of [{ query: "", limit: 0 }, { query: "x", limit: 2.5, order: "up", filter: { other: 1 } }, { limit: "5", tags: [1, null] }]) {
    assert.ok(agree(s, bad, "object", `refused ${JSON.stringify(bad)}`));
    assert.ok(agree(s, JSON.stringify(bad, null, 1), "text", `refused text ${JSON.stringify(bad)}`));
  }
  const fc = s.b.match({ function: "search", arguments: args });
  assert.equal(fc.tool, s.t);
  assert.equal(fc.status, "pending");
  assert.notEqual(fc.arguments, args);
  assert.deepEqual(fc.arguments, args);
  const ran = await s.b.invoke({ function: "search", arguments: args });
  assert.equal(ran.status, "completed");
  assert.deepEqual(ran.response, args);
  assert.throws(() => s.b.match({ function: "search", arguments: { query: "", limit: 5 } }), (err) => tg.ToolgateError.isInstance(err) && err.code === "invalid-arguments");
});

test("a refusal teaches the branch its name: the next call naming it is answered in JS", () => {
  const s = setup(TYPICAL, "none", "search");
  const bad = { query: "", limit: 5 };
  const first = s.b.validate({ function: "search", arguments: bad });
  assert.equal(first.ok, false);
  assert.equal(Object.hasOwn(first.error, "plan"), false, "the plan Go sent is not left on the error");
  assert.equal(s.b._evaluated, 0, "the first call went to Go");
  const second = s.b.validate({ function: "search", arguments: bad });
  assert.equal(s.b._evaluated, 1, "the second was answered in JS");
  assert.ok(isDeepStrictEqual(seen(second), seen(first)));
  // through match too, and a refused call with a call id teaches nothing
  const t = setup(TYPICAL, "none", "search");
  assert.throws(() => t.b.match({ function: "search", arguments: bad, id: "c1" }), (err) => err.code === "invalid-arguments" && !Object.hasOwn(err, "plan"));
  assert.throws(() => t.b.match({ function: "search", arguments: bad }), (err) => err.code === "invalid-arguments");
  assert.equal(t.b._evaluated, 0);
  assert.throws(() => t.b.match({ function: "search", arguments: bad }), (err) => err.code === "invalid-arguments" && err.tool === "search");
  assert.equal(t.b._evaluated, 1);
});

test("a refusal answered in JS is a real ToolgateError; b.match throws it with the stack of the throw", () => {
  const s = setup(TYPICAL, "none", "search");
  const bad = { query: "", limit: 5 };
  s.b.validate({ function: "search", arguments: bad }); // Go answers first and teaches the name
  const limit = Error.stackTraceLimit;
  const r = s.b.validate({ function: "search", arguments: bad });
  assert.equal(s.b._evaluated, 1, "answered in JS");
  assert.equal(Error.stackTraceLimit, limit, "the stack trace limit is restored");
  for (const e of [r.error]) {
    assert.ok(e instanceof Error && e instanceof tg.ToolgateError && tg.ToolgateError.isInstance(e));
    assert.equal(Object.getPrototypeOf(e), tg.ToolgateError.prototype);
    assert.equal(Object.prototype.toString.call(e), "[object Error]");
    assert.deepEqual([e.name, e.code, e.tool], ["ToolgateError", "invalid-arguments", "search"]);
    assert.deepEqual(Object.keys(e), ["name", "code", "tool", "issues"]);
  }
  function callerOfMatch() {
    return s.b.match({ function: "search", arguments: bad });
  }
  assert.throws(callerOfMatch, (err) => err.code === "invalid-arguments" && typeof err.stack === "string" && err.stack.includes("callerOfMatch"));
  assert.equal(s.b._evaluated, 2, "match was answered in JS too");
  assert.equal(Error.stackTraceLimit, limit);
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

test("after the instance restarts, a name is resolved by Go again before the evaluator answers", () => {
  const debug = tg[Symbol.for("toolgate.debug")];
  const s = setup(TYPICAL, "none", "search");
  const args = { query: "oslo", limit: 5 };
  s.b.validate({ function: "search", arguments: args });
  const warmCount = s.b._evaluated;
  s.b.validate({ function: "search", arguments: args });
  assert.equal(s.b._evaluated, warmCount + 1, "warm: answered in JS");
  assert.throws(() => debug.exit(), (e) => e.code === "internal");
  assert.ok(s.b.has("search"), "the branch rebuilds itself in the new instance"); // rebuilds the handle first
  const r = s.b.validate({ function: "search", arguments: args });
  assert.equal(r.ok, true);
  assert.deepEqual(r.arguments, args);
  assert.equal(s.b._evaluated, warmCount + 1, "the first call after the restart went to Go");
  assert.equal(s.b.validate({ function: "search", arguments: { query: "", limit: 5 } }).error.code, "invalid-arguments");
  assert.equal(s.b._evaluated, warmCount + 2, "then the evaluator answers again (the refusal taught the name)");
});

test("after a branch's export, the evaluator steps aside for exactly the names Go remembered an alias or a strict restore for", () => {
  const opt = { type: "object", properties: { a: { type: "string" } } };
  const all = { ...opt, required: ["a"] };
  const specs = { "book.room": opt, "get.time": all, optional: opt, all_required: all };
  const tools = Object.entries(specs).map(([name, parameters]) => tg.tool({ name, parameters, handler: (a) => a, coerce: "none" }));
  for (const t of tools) assert.ok(t._evaluator, `${t.function} exports a program`);
  const b = tg.branch({ tools });
  /** How many of three validations naming `name` the evaluator answered in b (the first may go to Go). */
  const answered = (br, name) => {
    const before = br._evaluated;
    for (let i = 0; i < 3; i++) assert.equal(br.validate({ function: name, arguments: { a: "x" } }).ok, true, name);
    return br._evaluated - before;
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
  // a later export without strict keeps the restores (the strict export is still live); aliases stay
  tg.toProvider(b, "openai-chat");
  assert.equal(answered(b, "optional"), 0, "optional after a non-strict export");
  assert.equal(answered(b, "get.time"), 0, "get.time after a non-strict export");
  assert.equal(answered(b, "all_required"), 2);
  // a tool registered again under the name has no restore: the evaluator answers for it again
  b.register(tg.tool({ name: "optional", parameters: opt, handler: (a) => a, coerce: "none" }), { update: true });
  assert.equal(answered(b, "optional"), 2, "optional after it was replaced");
});

/** A tool in a branch, Go's answer asked once. */
function warm(parameters, coerce = "none") {
  const s = setup(parameters, coerce);
  assert.ok(s, "Go accepts the schema");
  return s;
}

test("object arguments as JSON.stringify writes them: the evaluator models what it can, declines the rest", () => {
  const s = warm({ type: "object", properties: { a: {}, b: {} } });
  assert.ok(s.t._evaluator);
  class K {}
  const modelled = {
    bigint: { a: 5n },
    "big bigint": { a: 2n ** 64n, b: [-(2n ** 70n)] },
    undefined: { a: undefined },
    function: { a() {} },
    symbol: { a: Symbol("x") },
    "undefined in an array": { a: [undefined, () => 1] },
    NaN: { a: NaN },
    Infinity: { a: -Infinity },
    "2^53": { a: 2 ** 53 },
    "beyond 2^53": { a: -(2 ** 60), b: { c: 2 ** 70 } },
    "1e21": { a: 1e21 },
    __proto__: JSON.parse('{"a": {"__proto__": 1}, "__proto__": 2}'),
    "sparse array": { a: [1, , 3] }, // eslint-disable-line no-sparse-arrays
    "-0": { a: -0, b: [-0] },
  };
  for (const [what, args] of Object.entries(modelled)) assert.ok(agree(s, args, "object", what), `${what} is modelled`);
  assert.ok(Object.is(s.t._evaluator.object({ a: -0 }).arguments.a, 0), "-0 crosses as 0");
  assert.equal(typeof s.t._evaluator.object({ a: 2 ** 60 }).arguments.a, "bigint");
  const declined = {
    date: { a: new Date(0) },
    map: { a: new Map() },
    instance: { a: new K() },
    toJSON: { a: { toJSON: () => 1 } },
    "lone surrogate": { a: "x\ud800" },
    "lone surrogate key": { a: { "\udc00": 1 } },
    "escaped key": { a: { 'q"uote': 1 } },
    "boxed string": { a: new String("x") },
    "too deep": { a: JSON.parse("[".repeat(63) + "]".repeat(63)) },
    "a throwing getter": {
      get a() {
        throw new Error("no");
      },
    },
  };
  for (const [what, args] of Object.entries(declined)) assert.equal(s.t._evaluator.object(args), undefined, what);
  // nested keys come back sorted, as Go writes them; the top level keeps its order
  const out = s.t._evaluator.object({ b: { z: 1, y: { d: 1, c: 2 }, 10: 0, 9: 0 }, a: 1 }).arguments;
  assert.deepEqual(Object.keys(out), ["b", "a"]);
  assert.deepEqual(Object.keys(out.b.y), ["c", "d"]);
  assert.ok(agree(s, { b: { z: 1, y: { d: 1, c: 2 }, 10: 0, 9: 0, "😀": 1, "\uffff": 2 }, a: 1 }, "object", "key order"));
});

test("arguments text: number spellings compared as Go compares them; escaped and repeated keys go to Go", () => {
  const s = warm({ type: "object", properties: { a: { type: "integer", maximum: 1 }, b: {}, c: { enum: [1, [2.5]] } } });
  const modelled = {
    "1.0 for an integer": '{"a": 1.0}',
    "1.5 for an integer": '{"a": 1.5}',
    exponent: '{"a": 1e0, "b": 1E2}',
    "beyond the maximum by a digit a double loses": '{"a": 1.0000000000000000001}',
    "16 digits": '{"b": 1234567890123456}',
    "20 digits": '{"b": [12345678901234567890, -98765432109876543210]}',
    underflow: '{"b": 1e-2000}',
    overflow: '{"b": 1e400}',
    "exponent beyond the bound": '{"b": [1.5e1001, {"x": 2e-1001}]}',
    "enum by value": '{"c": [2.50]}',
    "a colon inside a string": '{"b": "10:30"}',
    "escaped strings": '{"b": "\\u00e9\\n\\/😀"}',
    __proto__: '{"b": {"__proto__": 1}, "__proto__": 2}',
    "-0": '{"a": -0, "b": {"y": 1, "x": [{"q": 1, "p": 2}]}}',
    "objects in an array rebuilt, keys in Go's order": '{"b": [{"q": 1}, {"10": 20e-1, "😀": {}, "constructor": "x"}]}',
  };
  for (const [what, text] of Object.entries(modelled)) assert.ok(agree(s, text, "text", what), `${what} is modelled`);
  const declined = {
    "repeated key": '{"a": 1, "a": 0}',
    "escaped key": '{"\\u0061": 1}',
    "lone surrogate": '{"b": "\\ud800"}',
    "not an object": "[1]",
    "no quote (Go reads such a string the full way)": "{}",
    "not JSON": "{a: 1}",
  };
  for (const [what, text] of Object.entries(declined)) assert.equal(s.t._evaluator.text(text), undefined, what);
});

test("schemas: the evaluator runs exact bounds, fractional multipleOf, composite enums and lax plans; patterns and strict tools cross to Go", () => {
  for (const [what, schema] of Object.entries({
    pattern: { type: "object", properties: { a: { type: "string", pattern: "^a" } } },
    "top-level patternProperties": { type: "object", patternProperties: { "^x": {} } },
  })) {
    assert.equal(warm(schema).t._evaluator, null, what);
  }
  assert.ok(warm(TYPICAL, "lax").t._evaluator, "a lax plan runs in JS (evaluator-lax.js)");
  assert.equal(tg.tool({ name: "s", parameters: TYPICAL, handler: () => 1, coerce: "none", strictFuncCall: true })._evaluator, null);
  const s = warm({
    type: "object",
    properties: {
      a: { minimum: 0.1, exclusiveMaximum: 10, multipleOf: 0.1 },
      n: { type: "number", maximum: 0.1000000000000000055511151231257827021181583404541015625 },
      e: { enum: [[1], { b: 1.5 }, 0.1] },
    },
  });
  assert.ok(s.t._evaluator);
  for (const a of [0.1, 0.3, 3, 9.9, 0.05, 10, 12, 1.55, -3, 0.30000000000000004]) assert.ok(agree(s, { a }, "object", `bound ${a}`));
  for (const n of [0.1, 0.1000000000000001, 0.09999999999999999, -1e300, 5e-324]) assert.ok(agree(s, { n }, "object", `max ${n}`));
  for (const e of [[1], { b: 1.5 }, 0.1, [1, 1], { b: 1.5, c: 1 }, "0.1"]) assert.ok(agree(s, { e }, "object", `enum ${JSON.stringify(e)}`));
  for (const t of ['{"e": [1.0]}', '{"e": {"b": 15e-1}}', '{"a": 0.10}', '{"n": 0.1000000000000000055511151231257827021181583404541015626}']) assert.ok(agree(s, t, "text", t));
});

test("top-level keys Go drops are dropped; a missing minimum key crosses to Go; lengths, uniqueItems and enums as Go's", () => {
  const s = warm({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
  assert.ok(agree(s, { a: "x", extra: 1 }, "object", "dropped key"));
  assert.deepEqual(s.t._evaluator.object({ a: "x", extra: 1 }).arguments, { a: "x" });
  assert.ok(agree(s, {}, "object", "a required key missing"));
  const open = warm({ type: "object", properties: { a: { type: "string" } }, additionalProperties: true });
  assert.ok(agree(open, { a: "x", extra: 1 }, "object", "additionalProperties keeps every key"));
  const len = warm({ type: "object", properties: { s: { type: "string", minLength: 2, maxLength: 2 } } });
  for (const str of ["😀😀", "😀", "ab", "a😀", "😀😀😀", "abc"]) assert.ok(agree(len, { s: str }, "object", `length of ${str}`));
  const u = warm({ type: "object", properties: { l: { type: "array", uniqueItems: true }, e: { enum: [1, "1", null] } } });
  for (const l of [[1, 1.0], [{ a: 1, b: 2 }, { b: 2, a: 1 }], [[1], [1, 2]], [0, -0], ["a", "b"]]) assert.ok(agree(u, { l }, "object", `unique ${JSON.stringify(l)}`));
  assert.equal(u.t._evaluator.object({ l: Array.from({ length: 65 }, (_, i) => i) }), undefined, "uniqueItems past 64 items: Go's fast path bails");
  for (const e of [1, 1.0, "1", null, true, 2]) assert.ok(agree(u, { e }, "object", `enum ${e}`));
  assert.ok(agree(u, '{"e": 1.00}', "text", "enum 1.00"));
});

test("a long report: issues capped, messages clipped, as Go reports them", () => {
  const props = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, { type: "string", maxLength: 1 }]));
  const s = warm({ type: "object", properties: { ...props, long: { const: "x".repeat(600) } } });
  const args = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${i}`, "é".repeat(300)]));
  assert.ok(agree(s, args, "object", "60 issues"));
  assert.ok(agree(s, { long: "y" }, "object", "a long const message"));
});
