// Size limits checked before work (an oversized input is refused on its length: nothing of it is
// serialised, crosses to Go or is parsed) and the rules of tool names.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tgCore as tg } from "./helpers.mjs";

const debug = tg[Symbol.for("toolgate.debug")];
const MiB = 1 << 20;

/** Argument text of about `bytes` bytes: a JSON object with one long string of `ch`. */
function argsText(bytes, ch = "x") {
  return `{"a":1,"pad":"${ch.repeat(Math.max(0, Math.floor((bytes - 20) / Buffer.byteLength(ch))))}"}`;
}
const chat = (args) => ({ id: "call_1", type: "function", function: { name: "f", arguments: args } });
const completion = (args) => ({ choices: [{ message: { role: "assistant", tool_calls: [chat(args)] } }] });

/**
 * Runs fn, returning what it threw (or returned) with how long it took and how many bytes Go
 * allocated meanwhile: an input that crossed to Go is at least its length in Go's heap.
 */
function measure(fn) {
  const before = debug.stats().totalAlloc;
  const t0 = performance.now();
  let outcome;
  try {
    outcome = { value: fn() };
  } catch (e) {
    outcome = { error: e };
  }
  const ms = performance.now() - t0;
  return { ...outcome, ms, goBytes: debug.stats().totalAlloc - before };
}

/** Asserts a refusal with the code and keyword; returns the error. */
function refused(e, code, keyword) {
  assert.ok(tg.ToolgateError.isInstance(e), `got ${e}, want a ToolgateError`);
  assert.equal(e.code, code, `got ${e.code} (${e.message}), want ${code}`);
  assert.equal(e.issues?.[0]?.keyword, keyword, `got issues ${JSON.stringify(e.issues)}, want ${keyword}`);
  return e;
}

/** Nothing of an input of `inputBytes` reached Go: it allocated less than 1 MiB, the input is tens. */
function neverCrossed(m, inputBytes) {
  assert.ok(m.goBytes < MiB, `Go allocated ${m.goBytes} bytes while refusing ${inputBytes}: the input crossed`);
}

const f = tg.tool({ name: "f", parameters: { type: "object", properties: { a: { type: "integer" }, pad: { type: "string" } } }, handler: ({ a }) => a });
const b = tg.branch({ tools: [f] });

// Runs first: Go's input buffer is still small, so an input that crossed shows in its heap.
test("a parameters schema over the limit is refused before it crosses, naming the tool, for no more than accepting 0.9 MiB", () => {
  const schema = (bytes) => ({ type: "object", properties: { a: { type: "string", description: "d".repeat(bytes) } } });
  const accept = measure(() => tg.tool({ name: "fits", parameters: schema(0.9 * MiB), handler: () => 1 }));
  assert.equal(accept.value?.function, "fits", `got ${accept.error?.message}, want 0.9 MiB accepted`);
  const big = schema(28 * MiB);
  const m = measure(() => tg.tool({ name: "big", parameters: big, handler: () => 1 }));
  const e = refused(m.error, "invalid-schema", "maxBytes");
  assert.equal(e.tool, "big");
  neverCrossed(m, 28 * MiB);
  assert.ok(m.ms <= accept.ms, `refusing 28 MiB took ${m.ms} ms, accepting 0.9 MiB ${accept.ms} ms: want the refusal no dearer`);
  const raw = measure(() => tg.tool(function g(a) { return a; }, { parameters: big }));
  refused(raw.error, "invalid-schema", "maxBytes");
  neverCrossed(raw, 28 * MiB);
});

// The bound: refusing an oversized input costs no more than accepting an in-limit one (15 MiB),
// timed in the same run; a ratio of 1, though the refusal is a length comparison (about a
// microsecond against hundreds of milliseconds), so the machine's load cannot make it flaky.
test("an OpenAI Chat argument string over the limit is refused on its length, for no more than accepting 15 MiB", async () => {
  const within = argsText(15 * MiB);
  const over = argsText(40 * MiB);
  const accept = measure(() => b.validate(chat(within)));
  assert.equal(accept.value.ok, true, `got ${accept.value.error?.message}, want 15 MiB accepted`);
  const v = measure(() => b.validate(chat(over)));
  assert.equal(v.value.ok, false);
  const e = refused(v.value.error, "invalid-arguments", "maxBytes");
  assert.equal(e.tool, "f");
  assert.equal(e.callId, "call_1");
  neverCrossed(v, over.length);
  assert.ok(v.ms <= accept.ms, `refusing 40 MiB took ${v.ms} ms, accepting 15 MiB ${accept.ms} ms: want the refusal no dearer`);
  const m = measure(() => b.match(chat(over)));
  refused(m.error, "invalid-arguments", "maxBytes");
  neverCrossed(m, over.length);
  await assert.rejects(b.invoke(chat(over)), (err) => refused(err, "invalid-arguments", "maxBytes") && true);
  // The other shapes' argument members, and text over the limit that is within it in UTF-16 units.
  for (const req of [
    { function: "f", arguments: over },
    { type: "function_call", call_id: "c", name: "f", arguments: over },
    { action_request: { function: "f", arguments: over } },
    chat(argsText(17 * MiB, "€")), // 5.7 M units, 17 MiB of UTF-8
  ]) {
    const r = measure(() => b.validate(req));
    refused(r.value.error, "invalid-arguments", "maxBytes");
    neverCrossed(r, over.length);
  }
});

test("a blank OpenAI arguments string over the limit is refused as Go refuses it", () => {
  const blank = " ".repeat(16 * MiB + 1);
  refused(b.validate(chat(blank)).error, "invalid-arguments", "maxBytes");
  refused(b.validate(JSON.stringify(chat(blank))).error, "invalid-arguments", "maxBytes"); // Go, on the text
});

test("a request or a provider response over the limit is refused on its length", () => {
  const over = argsText(40 * MiB);
  const text = JSON.stringify(chat(over));
  const r = measure(() => b.validate(text));
  refused(r.value.error, "invalid-request", "maxBytes");
  neverCrossed(r, text.length);
  const p = measure(() => tg.parseToolCalls(JSON.stringify(completion(over))));
  refused(p.error, "invalid-request", "maxBytes");
  neverCrossed(p, text.length);
  const o = measure(() => tg.parseToolCalls(completion(over)));
  refused(o.error, "invalid-request", "maxBytes");
  neverCrossed(o, text.length);
  // Within the whole-response limit, a call's arguments over theirs are refused when matched.
  const [call] = tg.parseToolCalls(completion(argsText(17 * MiB)));
  refused(b.validate(call).error, "invalid-arguments", "maxBytes");
});

test("tool names with control characters are refused with invalid-tool", () => {
  for (const name of ["get\u0000weather", "get\nweather", "get\u007fweather", "get\u0085weather"]) {
    let err;
    try {
      tg.tool({ name, parameters: { type: "object", properties: {} }, handler: () => 1 });
    } catch (e) {
      err = e;
    }
    refused(err, "invalid-tool", "controlCharacter");
    try {
      tg.tool(function g(a) { return a; }, { name });
      err = undefined;
    } catch (e) {
      err = e;
    }
    refused(err, "invalid-tool", "controlCharacter");
  }
  let err;
  try {
    tg.tool({ name: "get\ud800weather", parameters: { type: "object", properties: {} }, handler: () => 1 });
  } catch (e) {
    err = e;
  }
  refused(err, "invalid-tool", "utf8"); // else Go would see U+FFFD: another name
  for (const name of ["get_weather", "docs.search v2", "météo_天気", "emoji \u{1F600}"]) {
    assert.equal(tg.tool({ name, parameters: { type: "object", properties: {} }, handler: () => 1 }).function, name);
  }
});

// The scenario as issue 22 states its bound: the longest stall of the event loop while every
// oversized input above is refused, against an idle baseline measured in the same run:
// stall ≤ max(10 × baseline, 1000 ms). Before the limits came before the parse, the 40 MiB
// argument string alone held the loop 5 to 30 s.
test("refusing every oversized input holds the event loop's longest stall within 10× an idle baseline", async (t) => {
  const { measureLoop } = await import("./storm-server.mjs");
  const idle = await measureLoop();
  await new Promise((r) => setTimeout(r, 500)); // the measuring window itself, not a wait for a state
  const baseline = idle.stop().maxStallMs;
  const over = argsText(40 * MiB);
  const [call, text, plain, response] = [chat(over), JSON.stringify(chat(over)), { function: "f", arguments: over }, completion(over)];
  const big = { type: "object", description: "d".repeat(28 * MiB) };
  const inputs = [
    () => b.validate(call),
    () => b.validate(text),
    () => b.validate(plain),
    () => tg.parseToolCalls(response),
    () => tg.tool({ name: "big", parameters: big, handler: () => 1 }),
  ];
  const loop = await measureLoop();
  for (const input of inputs) {
    const m = measure(input);
    assert.ok(m.error || m.value?.ok === false, "refused");
    await new Promise((r) => setImmediate(r)); // let the probe see the gap
  }
  const measured = loop.stop();
  const bound = Math.max(10 * baseline, 1000);
  t.diagnostic(`oversized inputs: longest stall ${measured.maxStallMs.toFixed(1)} ms (idle ${baseline.toFixed(1)} ms, bound ${bound.toFixed(0)} ms)`);
  assert.ok(measured.maxStallMs <= bound, `the event loop stalled ${measured.maxStallMs.toFixed(0)} ms refusing oversized inputs, want ≤ ${bound.toFixed(0)} ms`);
});
