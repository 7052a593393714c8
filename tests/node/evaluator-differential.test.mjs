// The JS evaluator (npm/lib/evaluator.js) against Go, verdict for verdict: random schemas in the
// fast path's subset and random arguments, as objects and as JSON text with odd spellings, each
// answered by the tool's evaluator and by Go's path (the branch's evaluator switched off). Every
// answer the evaluator gives must be Go's: ok, the arguments (deep, BigInts included, keys in the
// same order), conversions, and for a refusal the ToolgateError's code, message, tool, issues and
// every other member. Most answers must come from JS, so that the test cannot pass by declining.
// Then the JSON-Schema-Test-Suite cases whose schema the evaluator runs, the same way.
//   make test-node              a fixed seed, ~2-4 s
//   TOOLGATE_FUZZ_SECONDS=N     a random seed (printed) for N seconds (make fuzz)
//   TOOLGATE_EVAL_SEED=S        replays seed S
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual, inspect } from "node:util";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { tg, seenVerdict as seen } from "./helpers.mjs";
import { Rng, caseSeed, randomSeed } from "./fuzz/prng.mjs";

const SHORT_SEED = 20261203;
const SHORT_SCHEMAS = 12;
const VALUES = 24;
const FUZZ_SECONDS = Number(process.env.TOOLGATE_FUZZ_SECONDS || 0);

const DECIMALS = ["0", "1", "-1", "2.5", "0.1", "0.3", "1e2", "1.50", "-0.5", "3", "10", "1e-7", "100.25", "9007199254740993", "0.30000000000000004", "1e21", "12345678901234567890"];
const NAMES = ["a", "b", "c", "0", "10", "ü", "😀", "x y", "a/b", "t~1", "constructor", "__proto__", "\u2028"];
const PRIMITIVES = [1, 2.5, 0, -1, "a", "", "ü", "😀", null, true, false];

/** A schema number from decimal text, kept as written: JSON text built by hand carries it. */
const num = (rng) => ({ $num: rng.pick(DECIMALS) });

/** A subschema of the fast path's subset. */
function sub(rng, d) {
  const leaf = [
    [3, () => ({ type: "string", ...(rng.chance(0.5) ? { minLength: rng.int(0, 2) } : {}), ...(rng.chance(0.5) ? { maxLength: rng.int(1, 3) } : {}) })],
    [4, () => ({ type: rng.pick(["integer", "number", ["number", "null"]]), ...(rng.chance(0.5) ? { minimum: num(rng) } : {}), ...(rng.chance(0.3) ? { exclusiveMaximum: num(rng) } : {}), ...(rng.chance(0.2) ? { maximum: num(rng) } : {}), ...(rng.chance(0.2) ? { exclusiveMinimum: num(rng) } : {}), ...(rng.chance(0.3) ? { multipleOf: { $num: rng.pick(["1", "2", "3", "0.5", "0.1", "1e-2", "7"]) } } : {}) })],
    [2, () => ({ enum: rng.subset(PRIMITIVES, 4).concat([rng.pick(PRIMITIVES)]) })],
    [1, () => ({ enum: [[1, "a"], { a: { $num: "1.0" } }, rng.pick(PRIMITIVES), { $num: rng.pick(DECIMALS) }] })],
    [1, () => ({ const: rng.pick([...PRIMITIVES, [1, 2], { a: [true] }, { $num: rng.pick(DECIMALS) }]) })],
    [2, () => ({ type: rng.pick(["boolean", "null", ["string", "null"], ["integer", "boolean"], "object", "array"]) })],
    [1, () => ({ enum: [] })],
    [1, () => rng.pick([{}, true, false])],
  ];
  if (d <= 0) return rng.weighted(leaf);
  return rng.weighted([
    ...leaf,
    [2, () => ({ type: "array", items: sub(rng, d - 1), ...(rng.chance(0.3) ? { minItems: rng.int(0, 2) } : {}), ...(rng.chance(0.3) ? { maxItems: rng.int(1, 3) } : {}), ...(rng.chance(0.3) ? { uniqueItems: true } : {}) })],
    [1, () => ({ type: "array", prefixItems: [sub(rng, d - 1), sub(rng, d - 1)], ...(rng.chance(0.5) ? { items: sub(rng, d - 1) } : {}), ...(rng.chance(0.3) ? { uniqueItems: true } : {}) })],
    [3, () => object(rng, d - 1)],
    [1, () => ({ anyOf: [{ type: "string" }, { type: "integer" }, { type: "null" }].slice(0, rng.int(1, 3)) })],
    [1, () => ({ anyOf: [{ type: "string", minLength: 2 }, { type: "number", minimum: num(rng) }] })],
    [1, () => ({ oneOf: [{ type: "string", minLength: 1 }, { type: "array", items: sub(rng, d - 1) }] })],
    [1, () => ({ oneOf: [{ type: "integer" }, { type: "string" }, { type: "boolean" }] })],
    [1, () => ({ allOf: [sub(rng, d - 1), sub(rng, d - 1)] })],
    [1, () => ({ $ref: "#/$defs/item" })],
  ]);
}

/** An object subschema. */
function object(rng, d) {
  const names = rng.subset(NAMES, 4);
  const s = { type: rng.chance(0.9) ? "object" : ["object", "null"], properties: Object.fromEntries(names.map((k) => [k, sub(rng, d)])) };
  if (names.length && rng.chance(0.5)) s.required = rng.subset(names, 2);
  const add = rng.weighted([[3, undefined], [1, false], [1, true], [1, () => sub(rng, 0)]]);
  if (add !== undefined) s.additionalProperties = add;
  if (rng.chance(0.15)) s.minProperties = rng.int(0, 2);
  if (rng.chance(0.15)) s.maxProperties = rng.int(1, 3);
  return s;
}

/** A parameters schema, with a $defs entry for $ref. */
function schemaOf(rng) {
  const root = object(rng, 2);
  root.type = "object";
  root.$defs = { item: sub(rng, 1) };
  if (rng.chance(0.3)) root.$defs.item = { type: "array", items: { $ref: "#/$defs/item" } }; // recursion
  return root;
}

/** JSON text of a schema, its {$num} numbers written as their literal. */
function schemaText(s) {
  if (Array.isArray(s)) return "[" + s.map(schemaText).join(",") + "]";
  if (s !== null && typeof s === "object") {
    if (Object.keys(s).length === 1 && typeof s.$num === "string") return s.$num;
    return "{" + Object.entries(s).map(([k, v]) => JSON.stringify(k) + ":" + schemaText(v)).join(",") + "}";
  }
  return JSON.stringify(s);
}

/** A value to check: a JS value with some {$num} literals (odd spellings for the text form). */
function value(rng, s, root, d = 4) {
  if (rng.chance(0.12) || d <= 0 || s === false) return scalar(rng);
  if (s === true || s === undefined || Object.keys(s).length === 0) return rng.chance(0.5) ? scalar(rng) : rng.pick([[1, 1], { a: 1 }, []]);
  if (s.$ref) return value(rng, root.$defs.item, root, d - 1);
  if ("const" in s && rng.chance(0.5)) return plain(s.const);
  if (s.enum && s.enum.length && rng.chance(0.6)) return plain(rng.pick(s.enum));
  const u = s.anyOf || s.oneOf || s.allOf;
  if (u) return value(rng, rng.pick(u), root, d - 1);
  const type = Array.isArray(s.type) ? rng.pick(s.type) : s.type;
  switch (type) {
    case "string":
      return rng.pick(["", "a", "ab", "abc", "😀", "ü😀", "x:y", "é\u00e9", "\u2028", "q\"uote\\", "\n"]);
    case "integer":
    case "number":
      return scalarNumber(rng);
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    case "array": {
      const n = rng.int(0, 4);
      const a = Array.from({ length: n }, (_, i) => value(rng, s.prefixItems?.[i] ?? s.items ?? true, root, d - 1));
      if (n > 1 && rng.chance(0.3)) a.push(structuredClone(a[0]));
      return a;
    }
  }
  const out = {};
  for (const [k, v] of Object.entries(s.properties ?? {})) if ((s.required ?? []).includes(k) ? rng.chance(0.9) : rng.chance(0.6)) setKey(out, k, value(rng, v, root, d - 1));
  if (rng.chance(0.25)) setKey(out, rng.pick(["zz", "extra", "__proto__", "0"]), scalar(rng));
  return out;
}

function setKey(o, k, v) {
  Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
}

/** A schema literal as a JS value ({$num} as its number). */
function plain(v) {
  if (Array.isArray(v)) return v.map(plain);
  if (v !== null && typeof v === "object") {
    if (typeof v.$num === "string") return { $num: v.$num };
    const o = {};
    for (const [k, x] of Object.entries(v)) setKey(o, k, plain(x));
    return o;
  }
  return v;
}

function scalarNumber(rng) {
  return rng.weighted([
    [6, () => rng.pick([0, 1, 2, 3, 5, 6, 10, -1, 100, 0.5, 2.5, 0.1, 0.3, 1e-7, 0.30000000000000004, -0.5, 1.5, 7])],
    [3, () => ({ $num: rng.pick(["5.0", "1e2", "1E2", "-0", "1.50", "100.250", "0.1e1", "3e0", "20e-1", "12345678901234567890", "-98765432109876543210", "9007199254740993", "9007199254740992", "1e400", "1.5e1001", "1e-1001", "0.000", "1e21", "4.5e-1"]) })],
    [1, () => rng.pick([2 ** 60, -(2 ** 53), 1e21, -0, 5e-324, 1.7976931348623157e308])],
  ]);
}

function scalar(rng) {
  return rng.weighted([
    [3, () => rng.pick(PRIMITIVES)],
    [2, () => scalarNumber(rng)],
  ]);
}

/** The JS object form of a value ({$num} as the double it reads as), or undefined when one is beyond doubles. */
function live(v) {
  if (Array.isArray(v)) return v.map(live);
  if (v !== null && typeof v === "object") {
    if (typeof v.$num === "string") return Number(v.$num);
    const o = {};
    for (const k of Object.keys(v)) setKey(o, k, live(v[k]));
    return o;
  }
  return v;
}

/** JSON text of a value with odd spellings: {$num} literals as written, strings with escapes, spaces, and now and then a repeated or escaped key. */
function text(rng, v, top = true) {
  const sp = () => (rng.chance(0.1) ? rng.pick([" ", "\n", "\t ", "\r\n"]) : "");
  if (Array.isArray(v)) return "[" + sp() + v.map((e) => text(rng, e, false)).join("," + sp()) + sp() + "]";
  if (v !== null && typeof v === "object") {
    if (typeof v.$num === "string") return v.$num;
    const keys = Object.keys(v);
    const parts = keys.map((k) => str(rng, k, true) + sp() + ":" + sp() + text(rng, v[k], false));
    if (keys.length && rng.chance(0.03)) parts.push(str(rng, keys[0], true) + ":" + text(rng, v[keys[0]], false));
    return "{" + sp() + parts.join("," + sp()) + sp() + "}";
  }
  if (typeof v === "string") return str(rng, v, false);
  if (typeof v === "number") return JSON.stringify(v);
  return JSON.stringify(v);
}

function str(rng, s, key) {
  if (rng.chance(key ? 0.02 : 0.15)) {
    return '"' + [...s].map((c) => (rng.chance(0.5) ? "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0") + (c.length > 1 ? "\\u" + c.charCodeAt(1).toString(16).padStart(4, "0") : "") : JSON.stringify(c).slice(1, -1))).join("") + (rng.chance(0.3) ? "\\/\\n" : "") + '"';
  }
  return JSON.stringify(s);
}

/** Go's answer: b.validate with the branch's evaluator off. */
function goAnswer(b, request) {
  b._jsEvaluator = false;
  try {
    return b.validate(request);
  } finally {
    b._jsEvaluator = true;
  }
}

/** Compares the evaluator with Go on one call; returns "js" when the evaluator answered, "go" when it declined. */
function compare(c, args, what, diffs) {
  const ev = c.t._evaluator;
  const js = typeof args === "string" ? ev.text(args) : ev.object(args);
  if (js === undefined) return "go";
  const go = goAnswer(c.b, { function: c.name, arguments: args });
  const a = seen(js);
  const g = seen(go);
  if (!isDeepStrictEqual(a, g)) {
    diffs.push(`${what}\n  schema ${c.schema}\n  arguments ${typeof args === "string" ? args : inspect(args, { depth: 9 })}\n  js ${inspect(a, { depth: 9 })}\n  go ${inspect(g, { depth: 9 })}`);
  }
  return "js";
}

/** A tool of this schema text in a branch, or null when Go refuses it or exports no program. */
function setup(schema, name = "t") {
  let t;
  try {
    t = tg.tool({ name, parameters: JSON.parse(schema), handler: (a) => a, coerce: "none" });
  } catch {
    return null;
  }
  if (!t._evaluator) return null;
  return { t, b: tg.branch({ tools: [t] }), name, schema };
}

/** Runs schema `i` of seed `seed`: its values as objects and as text. */
function runCase(seed, i, tally, diffs) {
  const rng = new Rng(caseSeed(seed, i));
  const s = schemaOf(rng);
  const c = setup(schemaText(s)); // (JS reads the schema's numbers as doubles before Go sees them)
  tally.schemas++;
  if (!c) return;
  tally.exported++;
  for (let j = 0; j < VALUES; j++) {
    const v = value(rng, s, s);
    const what = `seed ${seed} schema ${i} value ${j}`;
    tally[compare(c, live(v), what, diffs)]++;
    tally[compare(c, text(rng, v), what + " as text", diffs)]++;
  }
}

function assertClean(t, tally, diffs) {
  t.diagnostic(`${tally.exported}/${tally.schemas} tools exported a program; the evaluator answered ${tally.js} calls, Go alone ${tally.go}`);
  assert.equal(diffs.length, 0, `${diffs.length} differences:\n${diffs.slice(0, 5).join("\n")}`);
  assert.ok(tally.js > 3 * tally.go, `the evaluator answered ${tally.js} calls and declined ${tally.go}: most must come from JS`);
}

if (FUZZ_SECONDS > 0) {
  test(`evaluator differential: ${FUZZ_SECONDS} s, random seed`, { timeout: (FUZZ_SECONDS + 600) * 1000 }, (t) => {
    const seed = Number(process.env.TOOLGATE_EVAL_SEED) || randomSeed();
    t.diagnostic(`seed ${seed} (replay: TOOLGATE_EVAL_SEED=${seed})`);
    const tally = { schemas: 0, exported: 0, js: 0, go: 0 };
    const diffs = [];
    const deadline = performance.now() + FUZZ_SECONDS * 1000;
    for (let i = 0; performance.now() < deadline && diffs.length < 5; i++) runCase(seed, i, tally, diffs);
    assertClean(t, tally, diffs);
  });
} else {
  test(`evaluator differential: ${SHORT_SCHEMAS} schemas of seed ${SHORT_SEED}`, (t) => {
    const seed = Number(process.env.TOOLGATE_EVAL_SEED) || SHORT_SEED;
    const tally = { schemas: 0, exported: 0, js: 0, go: 0 };
    const diffs = [];
    for (let i = 0; i < SHORT_SCHEMAS; i++) runCase(seed, i, tally, diffs);
    assertClean(t, tally, diffs);
  });
}

/** The suite's files about keywords the fast path compiles (the others' schemas export no program). */
const SUITE_FILES = /^(additionalProperties|allOf|anyOf|boolean_schema|const|defs|enum|exclusiveM\w+|items|max\w+|min\w+|multipleOf|oneOf|prefixItems|properties|ref|required|type|uniqueItems)\.json$/;

test("evaluator differential: the JSON-Schema-Test-Suite cases the evaluator runs", (t) => {
  const root = process.env.TOOLGATE_ROOT;
  const dir = join(root ?? "", "tests/json-schema-test-suite/draft2020-12");
  assert.ok(existsSync(dir), `the suite is missing: ${dir}`);
  const tally = { schemas: 0, exported: 0, js: 0, go: 0 };
  const diffs = [];
  for (const file of readdirSync(dir).filter((f) => SUITE_FILES.test(f)).sort()) {
    const text = readFileSync(join(dir, file), "utf8");
    const groups = JSON.parse(text);
    groups.forEach((g, gi) => {
      if (g.schema === null || typeof g.schema !== "object" || Array.isArray(g.schema)) return;
      tally.schemas++;
      const c = setup(JSON.stringify(g.schema), "suite");
      if (!c) return;
      tally.exported++;
      for (const tc of g.tests) {
        if (tc.data === null || typeof tc.data !== "object" || Array.isArray(tc.data)) continue;
        const what = `${file} group ${gi} "${tc.description}"`;
        tally[compare(c, tc.data, what, diffs)]++;
        tally[compare(c, JSON.stringify(tc.data), what + " as text", diffs)]++;
      }
    });
  }
  t.diagnostic(`suite: ${tally.exported}/${tally.schemas} object schemas exported a program; the evaluator answered ${tally.js} calls, Go alone ${tally.go}`);
  assert.equal(diffs.length, 0, `${diffs.length} differences:\n${diffs.slice(0, 5).join("\n")}`);
  assert.ok(tally.js > 50, `the evaluator answered only ${tally.js} suite calls`);
});
