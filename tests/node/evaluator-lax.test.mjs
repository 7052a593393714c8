// The JS evaluator's lax coercion (npm/lib/evaluator-lax.js) against Go: for generated schemas
// (fuzz/gen-lax.mjs) and values full of strings and numbers a lax conversion may take, Go's plan
// as the evaluator receives it (through the debug hook laxProgram), compiled in JS and applied to
// the arguments, must give what b.validate gives from Go for a lax tool whenever Go accepts the
// call: the same conversions (paths, from, to, in order) and the same normalised arguments (Go's
// surviving keys, numbers as Go spells them, BigInts beyond 2^53). Arguments go to Go as a JS
// object and as JSON text (numbers spelled as written: "5.0", "1e2", 25 digits). Go reports no
// conversions for a refused call, so refusals are only run, never compared.
//
//   make test-node              a fixed seed, SCHEMAS schemas
//   TOOLGATE_FUZZ_SECONDS=N     a random seed (printed) for N seconds
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { Rng, caseSeed, randomSeed } from "./fuzz/prng.mjs";
import { genLaxSchema, laxValue } from "./fuzz/gen-lax.mjs";
import { put } from "./fuzz/tagged.mjs";

const lib = (file) => import(new URL(`../node_modules/toolgate/lib/${file}`, import.meta.url));
const { compileLax } = await lib("evaluator-lax.js");
const { Num } = await lib("evaluator-num.js");
const debug = tg[Symbol.for("toolgate.debug")];

const SEED = 20261203;
const SCHEMAS = 50;
const VALUES = 16;
const FUZZ_SECONDS = Number(process.env.TOOLGATE_FUZZ_SECONDS || 0);

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const isLit = (v) => isObject(v) && typeof v.$lit === "string" && Object.keys(v).length === 1;

/** The generator's tree as an evaluator value: spelled literals become Nums. */
function evaluatorValue(v) {
  if (isLit(v)) return new Num(v.$lit);
  if (Array.isArray(v)) return v.map(evaluatorValue);
  if (isObject(v)) {
    const out = {};
    for (const k of Object.keys(v)) put(out, k, evaluatorValue(v[k]));
    return out;
  }
  return v;
}

/** The tree as JS data a user passes (a spelled literal as its double), or undefined when one has none. */
function plainValue(v) {
  if (isLit(v)) {
    const n = Number(v.$lit);
    return Number.isFinite(n) ? n : undefined;
  }
  if (Array.isArray(v)) {
    const out = v.map(plainValue);
    return out.includes(undefined) ? undefined : out;
  }
  if (isObject(v)) {
    const out = {};
    for (const k of Object.keys(v)) {
      const e = plainValue(v[k]);
      if (e === undefined) return undefined;
      put(out, k, e);
    }
    return out;
  }
  return v;
}

/** JSON text of an evaluator value (Nums as written), the top level's keys in the order given. */
function textOf(v, keys = undefined) {
  if (v instanceof Num) return v.text;
  if (Array.isArray(v)) return `[${v.map((e) => textOf(e)).join(",")}]`;
  if (isObject(v)) return `{${(keys ?? Object.keys(v)).map((k) => `${JSON.stringify(k)}:${textOf(v[k])}`).join(",")}}`;
  return JSON.stringify(v);
}

/** Whether an integer literal is beyond ±(2^53−1) (jsontext.BigInteger). */
const bigInteger = (t) => t.replace("-", "").length >= 16 && (BigInt(t) > 2n ** 53n - 1n || BigInt(t) < -(2n ** 53n - 1n));

/** What b.validate hands back for an evaluator value: Go's JSON text read by JSON.parse, big integers as BigInts. */
function output(v) {
  if (typeof v === "number" || v instanceof Num) {
    const t = v instanceof Num ? v.text : JSON.stringify(v);
    return !/[.eE]/.test(t) && bigInteger(t) ? BigInt(t) : Number(t);
  }
  if (Array.isArray(v)) return v.map(output);
  if (isObject(v)) {
    const out = {};
    for (const k of Object.keys(v)) put(out, k, output(v[k]));
    return out;
  }
  return v;
}

/** A lax tool, a branch holding it and its compiled plan, or null when Go refuses the schema. */
function setup(schema) {
  let t;
  try {
    t = tg.tool({ name: "lax", parameters: schema, handler: (a) => a });
  } catch {
    return null;
  }
  const program = debug.laxProgram(t);
  const lax = compileLax(program);
  assert.ok(lax, `compileLax refused Go's program ${JSON.stringify(program)} of ${JSON.stringify(schema)}`);
  return { b: tg.branch({ tools: [t] }), lax };
}

/** Go's answer and the evaluator's for one value in one form; compares them when Go accepts it. */
function compare(s, input, keys, args, what, tally) {
  const before = textOf(input, keys);
  const mine = s.lax(input, keys);
  assert.equal(textOf(input, keys), before, `${what}: the input was modified`);
  const go = s.b.validate(JSON.stringify({ function: "lax", arguments: args }));
  if (!go.ok) {
    tally.refused++;
    return;
  }
  tally.compared++;
  tally.conversions += mine.conversions.length;
  assert.deepEqual(mine.conversions, go.conversions ?? [], `${what}: conversions`);
  const out = output(mine.value);
  for (const k of Object.keys(go.arguments)) {
    assert.ok(Object.hasOwn(out, k), `${what}: Go kept ${JSON.stringify(k)}, the evaluator has no such key`);
    assert.deepStrictEqual(out[k], go.arguments[k], `${what}: argument ${JSON.stringify(k)}`);
  }
}

/** One schema and its values, each sent as a JS object and as JSON text (top-level keys shuffled). */
function runCase(seed, index, tally) {
  const rng = new Rng(caseSeed(seed, index));
  const schema = genLaxSchema(rng);
  const s = setup(schema);
  if (s === null) {
    tally.schemasRefused++;
    return;
  }
  for (let j = 0; j < VALUES; j++) {
    const tree = laxValue(rng, schema, schema);
    if (!isObject(tree) || isLit(tree)) continue;
    const what = `seed ${seed} case ${index} value ${j}: schema ${JSON.stringify(schema)}, arguments ${textOf(evaluatorValue(tree))}`;
    const plain = plainValue(tree);
    if (plain !== undefined) compare(s, plain, undefined, plain, `${what} (object)`, tally);
    const value = evaluatorValue(tree);
    const keys = Object.keys(value);
    for (let i = keys.length - 1; i > 0; i--) {
      const r = rng.int(0, i);
      [keys[i], keys[r]] = [keys[r], keys[i]];
    }
    compare(s, value, keys, textOf(value, keys), `${what} (text)`, tally);
  }
}

function report(t, tally, cases) {
  t.diagnostic(`${cases} schemas (${tally.schemasRefused} refused by Go); ${tally.compared} calls compared, ${tally.conversions} conversions among them; ${tally.refused} refused by Go (run only)`);
  assert.ok(tally.conversions > 0 && tally.compared > 0, "the run compared no conversion");
}

const newTally = () => ({ compared: 0, refused: 0, conversions: 0, schemasRefused: 0 });

if (FUZZ_SECONDS > 0) {
  test(`lax coercion, JS against Go: ${FUZZ_SECONDS} s, random seed`, { timeout: (FUZZ_SECONDS + 600) * 1000 }, (t) => {
    const seed = randomSeed();
    t.diagnostic(`seed ${seed}`);
    const tally = newTally();
    const deadline = performance.now() + FUZZ_SECONDS * 1000;
    let i = 0;
    for (; performance.now() < deadline; i++) runCase(seed, i, tally);
    report(t, tally, i);
  });
} else {
  test("lax coercion, JS against Go: generated schemas and values, fixed seed", (t) => {
    const tally = newTally();
    for (let i = 0; i < SCHEMAS; i++) runCase(SEED, i, tally);
    report(t, tally, SCHEMAS);
  });
}

const num = (text) => new Num(text);

/** Hand-picked conversions: what the evaluator makes (and Go agrees with, checked above and here). */
const CASES = [
  {
    schema: { type: "object", properties: { i: { type: "integer" } } },
    rows: [
      ["42", 42, "string"], ["42.0", 42, "string"], ["4_2", 42, "string"], ["-0", 0, "string"], ["+7", 7, "string"], ["-0012.000", -12, "string"], ["1" + "0".repeat(4299), num("1" + "0".repeat(4299)), "string"], ["1" + "0".repeat(4300), undefined],
      ["9007199254740993", num("9007199254740993"), "string"], [5.0, undefined], [num("5.0"), 5, "number"], [num("1e2"), 100, "number"],
      [1e21, num("1000000000000000000000"), "number"], [" 1", undefined], ["1e3", undefined], ["1_000.0", undefined], ["1__0", undefined], ["inf", undefined],
    ],
    to: "integer",
  },
  {
    schema: { type: "object", properties: { i: { type: "number" } } },
    rows: [
      ["5", num("5.0"), "string"], [5, num("5.0"), "integer"], ["1_000", num("1000.0"), "string"], [".5", 0.5, "string"], ["+.5e+01", num("0.5e+01"), "string"],
      ["0.1000000000000000000001", num("0.1000000000000000000001"), "string"], ["1E+02", num("1e+02"), "string"], ["00.50", num("0.50"), "string"], ["1_0e1_0", num("10e10"), "string"], [num("-0"), num("-0.0"), "integer"],
      ["inf", undefined], ["nan", undefined], ["1e1001", undefined], [5.5, undefined],
    ],
    to: "number",
  },
  {
    schema: { type: "object", properties: { i: { type: "boolean" } } },
    rows: [["YES", true, "string"], ["off", false, "string"], ["0", false, "string"], [1, true, "integer"], [num("-0"), false, "integer"], [num("1.0"), true, "number"], [2, undefined], ["yes!", undefined]],
    to: "boolean",
  },
  { schema: { type: "object", properties: { i: { type: ["integer", "boolean"] } } }, rows: [["1", undefined], ["yes", true, "string"], ["7", 7, "string"]] },
];

test("lax coercion: hand-picked conversions, and Go agrees", () => {
  for (const c of CASES) {
    const s = setup(c.schema);
    for (const [given, want, from] of c.rows) {
      const what = `${JSON.stringify(c.schema)} with ${textOf(given)}`;
      const r = s.lax({ i: given });
      if (want === undefined) {
        assert.deepEqual(r.conversions, [], what);
        assert.equal(r.value.i, given, what);
      } else {
        const to = c.to ?? (typeof want === "boolean" ? "boolean" : "integer");
        assert.deepEqual(r.conversions, [{ path: "/i", from, to }], what);
        assert.deepStrictEqual(r.value.i, want, what);
      }
      const go = s.b.validate(`{"function":"lax","arguments":{"i":${textOf(given)}}}`);
      if (go.ok) assert.deepEqual(go.conversions ?? [], r.conversions, `${what}: Go`);
    }
  }
});

test("lax coercion: paths escaped as JSON pointers, nested members in UTF-8 order, the top level in the order given", () => {
  const s = setup({ type: "object", additionalProperties: { type: "object", additionalProperties: { type: "integer" } } });
  const value = { "a/b": { "~0": "1", "\uff61": "2", "😀": "3", b: "4" }, z: { x: "5" } };
  const r = s.lax(value, ["z", "a/b"]);
  assert.deepEqual(r.conversions.map((c) => c.path), ["/z/x", "/a~1b/b", "/a~1b/~00", "/a~1b/\uff61", "/a~1b/😀"]);
  assert.notEqual(r.value, value);
  assert.equal(value.z.x, "5", "the input is never modified");
  const go = s.b.validate({ function: "lax", arguments: { z: value.z, "a/b": value["a/b"] } });
  assert.deepEqual(go.conversions, r.conversions);
});

test("lax coercion: a program with no plan converts nothing; a malformed one is refused", () => {
  const none = compileLax({ root: -1, nodes: [] });
  const v = { a: "1" };
  assert.deepEqual(none(v), { value: v, conversions: [] });
  for (const bad of [null, {}, { root: 0, nodes: [] }, { root: 0, nodes: [{ types: ["banana"] }] }, { root: 0, nodes: [{ props: [["a", 7]] }] }, { root: 0, nodes: [{ props: [[1, 0]] }] }, { root: 0, nodes: [null] }]) {
    assert.equal(compileLax(bad), null, JSON.stringify(bad));
  }
});
