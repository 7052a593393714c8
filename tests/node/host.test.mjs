// Host calls: Go calling a JS function given as an option (jsbridge/host.go, lib/host.js), the
// mechanism every MCP hook (capabilities, approval, listeners) runs on. Exercised through the
// debug op debug.host, which calls the hook it is handed with a value and answers its result.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, tgCore } from "./helpers.mjs";
import { eventually } from "./waits.mjs";

const debug = tg[Symbol.for("toolgate.debug")];

test("a hook gets the value parsed, may be async, and its result comes back to Go as JSON", async () => {
  const seen = [];
  const out = await debug.host(async (v, { signal }) => {
    seen.push(v, signal instanceof AbortSignal);
    await new Promise((r) => setTimeout(r, 5));
    return { echoed: v.x, big: 12345678901234567890n, list: [1, "two", null] };
  }, { x: "é\u2028" });
  assert.deepEqual(seen, [{ x: "é\u2028" }, true]);
  assert.deepEqual(out, { echoed: "é\u2028", big: 12345678901234567890n, list: [1, "two", null] });
  assert.equal(await debug.host(() => undefined, 1), null, "a hook returning nothing answers null");
});

test("a hook that throws gives Go an internal error naming the error's class, never its message", async () => {
  for (const thrown of [new TypeError("Bearer sk-secret-123"), "sk-secret-123", Object.create(null)]) {
    await assert.rejects(
      debug.host(() => {
        throw thrown;
      }, {}),
      (e) => e.code === "internal" && /hook threw/.test(e.message) && !e.message.includes("sk-secret"),
    );
  }
  await assert.rejects(debug.host(async () => Promise.reject(new RangeError("x")), {}), /threw: RangeError/);
  const cyclic = {};
  cyclic.self = cyclic;
  await assert.rejects(debug.host(() => cyclic, {}), (e) => e.code === "internal" && /circular/.test(e.message));
  assert.deepEqual(await debug.host((v) => v, [1]), [1], "the instance keeps working");
});

test("the caller's abort aborts the hook's signal and ends the wait, even for a hook that never settles", async () => {
  let hookSignal, called;
  const hookCalled = new Promise((r) => (called = r));
  const ac = new AbortController();
  const p = debug.host((_v, { signal }) => {
    hookSignal = signal;
    called();
    return new Promise(() => {}); // never settles
  }, {}, ac.signal);
  await hookCalled;
  assert.equal(debug.hostsInFlight(), 1);
  ac.abort();
  await assert.rejects(p);
  assert.equal(hookSignal.aborted, true);
  await eventually("the abandoned host call is released", () => debug.hostsInFlight() === 0);
  const s = debug.stats();
  assert.equal(s.pendingAsync, 0);
});

test("a thousand host calls release every js.Func and leave nothing in flight", async () => {
  const before = debug.stats().liveFuncs;
  const fn = (v) => v * 2;
  const outs = await Promise.all(Array.from({ length: 1000 }, (_, i) => debug.host(fn, i)));
  assert.equal(outs[999], 1998);
  assert.equal(debug.stats().liveFuncs, before);
  assert.equal(debug.hostsInFlight(), 0);
});

test("a listener (hostNotify) is called without Go waiting; what it throws or rejects is dropped", async () => {
  const got = [];
  debug.hostNotify((v) => got.push(v), { n: 1 });
  debug.hostNotify(() => {
    got.push("threw");
    throw new Error("listener bug");
  }, {});
  debug.hostNotify(async () => {
    got.push("rejected");
    throw new Error("async listener bug");
  }, {});
  await eventually("the three listeners are called", () => got.length === 3);
  assert.deepEqual(got, [{ n: 1 }, "threw", "rejected"]);
  assert.equal(await debug.host((v) => v, "still working"), "still working");
});

test("hooks outlive an instance restart: the same function keeps its number", async () => {
  const fn = (v) => v + 1;
  assert.equal(await debug.host(fn, 1), 2);
  assert.throws(() => debug.exit(), (e) => e.code === "internal");
  assert.equal(await debug.host(fn, 2), 3);
});

test("the core build has host calls too", async () => {
  const d = tgCore[Symbol.for("toolgate.debug")];
  assert.equal(await d.host((v) => v.length, "abc"), 3);
});
