// A process that only validates, through the validator module, makes no asynchronous Go call: Go's
// finalizers and cleanups then never run. Nothing that crosses to the validator module may wait for
// one: these count what is held (JS values Go references, schemas the validator module keeps), never
// time. Its own file, so its own process: it forces collections with the V8 flag it sets. Node only.
import { test } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { tgCore as tg } from "./helpers.mjs";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const debug = tg[Symbol.for("toolgate.debug")];
const outside = (x) => ({ type: "object", properties: { x: { not: x } } }); // `not`: outside the fast path

test("validations through the validator module leave no JS value behind", () => {
  const b = tg.branch({ tools: [tg.tool({ name: "n", parameters: outside({ type: "string" }), handler: (a) => a })] });
  for (let i = 0; i < 100; i++) b.validate({ function: "n", arguments: { x: i } }); // the module started, the buffers grown
  const before = debug.jsRefs();
  for (let i = 0; i < 20000; i++) {
    const r = b.validate({ function: "n", arguments: { x: i % 2 ? "s" : i } });
    if (r.ok !== (i % 2 === 0)) assert.fail(`validation ${i}: got ok ${r.ok}, want ${i % 2 === 0}`);
  }
  assert.equal(debug.jsRefs(), before, "got JS values held by Go growing with validations, want none made per call");
});

test("schemas of collected tools are released from the validator module with no asynchronous Go call", async () => {
  const ROUNDS = 12;
  const PER_ROUND = 50;
  const start = debug.validatorSchemas();
  for (let r = 0; r < ROUNDS; r++) {
    for (let i = 0; i < PER_ROUND; i++) {
      const name = `t${i}`;
      const t = tg.tool({ name, parameters: outside({ const: r * PER_ROUND + i }), handler: (a) => a }); // a new schema each time
      assert.equal(tg.branch({ tools: [t] }).validate({ function: name, arguments: { x: -1 } }).ok, true);
    }
    for (let i = 0; i < 3; i++) {
      gc(); // the tools' wrappers, whose FinalizationRegistry callbacks release their Go handles
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  const held = debug.validatorSchemas() - start;
  // A compile sweeps when the held schemas have doubled since the last sweep, running Go's collector
  // first: the module holds at most twice the live schemas (a round's tools, until their wrappers
  // are collected). Without the collector's run, how many were released depended on how much the
  // compiles happened to allocate.
  assert.ok(held <= 2 * PER_ROUND, `got ${held} of ${ROUNDS * PER_ROUND} collected tools' schemas still held by the validator module, want at most ${2 * PER_ROUND}`);
});
