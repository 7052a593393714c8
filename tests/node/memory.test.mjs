// The bridge reads Go's addresses as unsigned: past 2 GiB of linear memory
// every call still works (wasm32 allows 4 GiB). Its own file, so its own
// process: the memory it grows is never given back.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, expectCode } from "./helpers.mjs";

test("calls keep working once linear memory passes 2 GiB", () => {
  const debug = tg[Symbol.for("toolgate.debug")];
  const b = tg.branch({ tools: [tg.tool(function add(a, b) { return a + b; })] });
  const held = debug.grow(2200);
  assert.equal(held, 2200);
  const description = "x".repeat(1 << 20); // a large payload, written and read above 2 GiB
  const big = tg.tool(function big(a) { return a; }, { description });
  b.register(big);
  assert.equal(b.schemaList.length, 2);
  assert.equal(b.schemaList[1].function.description, description);
  const r = b.validate({ function: "add", arguments: { a: 1, b: 2 } });
  assert.deepEqual(r, { ok: true, function: "add", arguments: { a: 1, b: 2 } });
  expectCode(assert, () => b.match({ function: "nope", arguments: {} }), "tool-not-found");
  assert.equal(debug.grow(0), 0);
  assert.equal(b.validate({ function: "add", arguments: { a: 3, b: 4 } }).ok, true, "and after the ballast is released");
});
