import { test } from "node:test";
import assert from "node:assert/strict";
import { tgCore as tg } from "./helpers.mjs";

const debug = tg[Symbol.for("toolgate.debug")];

test("100k validations and 100k invocations leak no handles, no js.Func and no heap", async () => {
  const typed = tg.tool({ name: "inc", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, handler: async ({ n }) => n + 1 });
  const b = tg.branch({ tools: [tg.tool(function add(a, b) { return a + b; }), typed] });
  for (let i = 0; i < 1000; i++) b.validate({ function: "add", arguments: { a: i, b: 1 } });
  const before = debug.stats();
  for (let i = 0; i < 100000; i++) {
    const r = b.validate({ function: "add", arguments: { a: i, b: 1 } });
    if (!r.ok) throw r.error;
  }
  for (let i = 0; i < 2000; i++) await b.invoke({ function: "add", arguments: { a: i, b: 1 } });
  for (let i = 0; i < 100000; i++) {
    const fc = await b.invoke({ function: "inc", arguments: { n: i } });
    if (fc.response !== i + 1) throw new Error(`invoke ${i}: ${fc.status} ${fc.response}`);
  }
  const echoes = [];
  for (let i = 0; i < 2000; i++) echoes.push(debug.echo({ i }));
  assert.deepEqual((await Promise.all(echoes))[1999], { i: 1999 });
  const after = debug.stats();
  assert.equal(after.tools, before.tools, "tool handles");
  assert.equal(after.branches, before.branches, "branch handles");
  assert.equal(after.liveFuncs, 0, "js.Funcs released");
  assert.equal(after.pendingAsync, 0, "async calls settled");
  assert.ok(after.heapAlloc < before.heapAlloc + 8 * 1024 * 1024, `heap grew from ${before.heapAlloc} to ${after.heapAlloc}`);
});

test("an abort cancels a pending Go operation", async () => {
  const ac = new AbortController();
  const p = debug.sleep(60000, ac.signal);
  ac.abort();
  await assert.rejects(p, (e) => e.code === "internal" || e.code === "timeout");
  assert.equal(debug.stats().pendingAsync, 0);
});

test("if the Go program exits, pending calls reject with internal and the next call starts a fresh instance", async () => {
  const t = tg.tool(function add(a, b) { return a + b; });
  const b = tg.branch({ tools: [t] });
  const gen = debug.generation;
  const before = await b.invoke({ function: "add", arguments: { a: 2, b: 2 } });
  const pending = debug.sleep(60000);
  assert.throws(() => debug.exit(), (e) => e.code === "internal");
  await assert.rejects(pending, (e) => e.code === "internal");
  const fc = await b.invoke({ function: "add", arguments: { a: 1, b: 2 } });
  assert.equal(fc.response, 3, "an old branch is rebuilt in the fresh instance");
  assert.equal(debug.generation, gen + 1);
  assert.equal(before.toDict().execution.response, 4, "a call's record is written after the instance that ran it stopped");
  assert.deepEqual([...b.tools.keys()], ["add"]);
  assert.equal(tg.branch({ tools: [tg.tool(function x() {})] }).tools.size, 1);
});

// Hostile parameters schemas (from a fuzzing campaign; an MCP server can serve any of them as an
// inputSchema). Each is refused by tg.tool() with invalid-schema and one issue naming the bound, the
// Go instance is not restarted, and the next ordinary tool works.
const refBomb = (levels) => {
  const $defs = { b0: { type: "integer" } };
  for (let i = 1; i <= levels; i++) $defs[`b${i}`] = { allOf: [{ $ref: `#/$defs/b${i - 1}` }, { $ref: `#/$defs/b${i - 1}` }] };
  return { $defs, properties: { x: { $ref: `#/$defs/b${levels}` } } };
};
const refChain = (n) => {
  const $defs = { d0: { type: "object" } };
  for (let i = 1; i <= n; i++) $defs[`d${i}`] = { allOf: [{ $ref: `#/$defs/d${i - 1}` }] };
  return { $defs, $ref: `#/$defs/d${n}` };
};
const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
const hostileSchemas = [
  ["a 447 KB property name over a thousand errors", "maxKeyLength",
    { properties: { ["k".repeat(447 * 1024)]: { required: range(1000, (i) => i) } } }],
  ["a 20,000-entry enum nested in oneOf and allOf", "maxEnum",
    { properties: { a: { oneOf: [{ allOf: [{ enum: range(20000, (i) => `v${i}`) }] }] } } }],
  ["20,000 invalid keyword values", "maxValues", { required: range(20000, (i) => i) }],
  ["the 16-level $ref bomb", "maxRefExpansion", refBomb(16)],
  ["recursion that doubles at every level", "maxRefExpansion",
    { type: "object", properties: { a: { allOf: [{ $ref: "#" }, { $ref: "#" }] } } }],
  ["a chain of 200 $refs", "maxRefDepth", refChain(200)],
];

for (const [name, keyword, parameters] of hostileSchemas) {
  test(`tg.tool() refuses ${name} with invalid-schema (${keyword}) and the next call works`, (t) => {
    const gen = debug.generation;
    const started = performance.now();
    assert.throws(() => tg.tool({ name: "hostile", parameters, handler() {} }), (e) => {
      assert.equal(e.code, "invalid-schema", e.message);
      assert.equal(e.issues.length, 1, JSON.stringify(e.issues).slice(0, 500));
      assert.equal(e.issues[0].keyword, keyword, e.message);
      assert.ok(e.message.length <= 4100, `a message of ${e.message.length} characters`);
      return true;
    });
    t.diagnostic(`refused in ${(performance.now() - started).toFixed(1)} ms`);
    assert.equal(debug.generation, gen, "the Go instance was not restarted");
    const b = tg.branch({ tools: [tg.tool({ name: "ok", parameters: { type: "object", properties: { n: { type: "integer" } } }, handler: ({ n }) => n })] });
    assert.deepEqual(b.validate({ function: "ok", arguments: { n: "5" } }).arguments, { n: 5 });
  });
}

test("an invalid schema's report stays bounded however many errors it has", () => {
  const parameters = { properties: Object.fromEntries(range(500, (i) => [`p${i}`, { minimum: "x" }])) };
  assert.throws(() => tg.tool({ name: "broken", parameters, handler() {} }), (e) => {
    assert.equal(e.code, "invalid-schema");
    assert.equal(e.issues.length, 51, "50 issues and one saying how many more");
    assert.equal(e.issues.at(-1).keyword, "maxIssues");
    assert.match(e.issues.at(-1).message, /^450 more issues/);
    return true;
  });
  const b = tg.branch({ tools: [tg.tool({ name: "ok", parameters: { type: "object", properties: { n: { type: "integer" } } }, handler: ({ n }) => n })] });
  assert.equal(b.validate({ function: "ok", arguments: { n: 1 } }).ok, true);
});

test("a recursive schema is still accepted and validates nested arguments", () => {
  const node = { type: "object", properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } } };
  const b = tg.branch({ tools: [tg.tool({ name: "tree", parameters: node, handler: (a) => a })] });
  assert.equal(b.validate({ function: "tree", arguments: { name: "a", children: [{ name: "b", children: [{ name: "c" }] }] } }).ok, true);
  const r = b.validate({ function: "tree", arguments: { name: "a", children: [{ name: 3 }] } });
  assert.equal(r.ok, false);
  assert.deepEqual(r.error.issues.map((i) => [i.path, i.keyword]), [["/children/0/name", "type"]]);
});
