import { test } from "node:test";
import assert from "node:assert/strict";
import { tgCore as tg } from "./helpers.mjs";

const debug = tg[Symbol.for("toolgate.debug")];

test("100k calls leak no handles, no js.Func and no heap", async () => {
  const b = tg.branch({ tools: [tg.tool(function add(a, b) { return a + b; })] });
  for (let i = 0; i < 1000; i++) b.validate({ function: "add", arguments: { a: i, b: 1 } });
  const before = debug.stats();
  for (let i = 0; i < 100000; i++) {
    const r = b.validate({ function: "add", arguments: { a: i, b: 1 } });
    if (!r.ok) throw r.error;
  }
  for (let i = 0; i < 2000; i++) await b.invoke({ function: "add", arguments: { a: i, b: 1 } });
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
  const pending = debug.sleep(60000);
  assert.throws(() => debug.exit(), (e) => e.code === "internal");
  await assert.rejects(pending, (e) => e.code === "internal");
  const fc = await b.invoke({ function: "add", arguments: { a: 1, b: 2 } });
  assert.equal(fc.response, 3, "an old branch is rebuilt in the fresh instance");
  assert.equal(debug.generation, gen + 1);
  assert.deepEqual([...b.tools.keys()], ["add"]);
  assert.equal(tg.branch({ tools: [tg.tool(function x() {})] }).tools.size, 1);
});
