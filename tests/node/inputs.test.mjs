// Every call returns or throws a ToolgateError with a code, whatever JS value it is handed:
// cycles, values too deep for the stack, BigInts, signals that are not AbortSignals. And every
// record serialises.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, expectCode } from "./helpers.mjs";

const cyclic = () => {
  const o = { a: 1 };
  o.self = o;
  return o;
};
const deep = (n) => {
  let v = [];
  for (let i = 0; i < n; i++) v = [v];
  return v;
};

test("a cycle in a call's arguments is invalid-request, from match, validate and invoke", async () => {
  const b = tg.branch({ tools: [tg.tool(function echo(x) { return x; })] });
  const call = { function: "echo", arguments: { x: cyclic() } };
  expectCode(assert, () => b.match(call), "invalid-request");
  const v = b.validate(call);
  assert.equal(v.ok, false);
  assert.equal(v.error.code, "invalid-request", `got ${v.error.code}: ${v.error.message}`);
  assert.match(v.error.message, /circular/);
  await assert.rejects(b.invoke(call), (e) => tg.ToolgateError.isInstance(e) && e.code === "invalid-request");
  assert.equal(b.validate({ function: "echo", arguments: { x: 1 } }).ok, true, "the next call works");
});

test("arguments nested past the stack are invalid-arguments with a maxDepth issue, as in JSON text", () => {
  const b = tg.branch({ tools: [tg.tool(function echo(x) { return x; })] });
  for (const call of [{ function: "echo", arguments: { x: deep(20000) } }, JSON.stringify({ function: "echo", arguments: { x: deep(200) } })]) {
    const v = b.validate(call);
    assert.equal(v.ok, false);
    assert.equal(v.error.code, "invalid-arguments", `got ${v.error.code}: ${v.error.message}`);
    assert.deepEqual(v.error.issues.map((i) => i.keyword), ["maxDepth"]);
  }
});

test("a cycle in a tool's schema, options or metadata, or in what register and getToolSchema take, is typed", () => {
  const f = function f(a) { return a; };
  expectCode(assert, () => tg.tool({ name: "t", parameters: { type: "object", properties: { a: cyclic() } }, handler: f }), "invalid-schema");
  expectCode(assert, () => tg.tool(f, { metadata: cyclic() }), "invalid-tool");
  const b = tg.branch();
  expectCode(assert, () => b.register({ srv: cyclic() }), "unsupported-type");
  expectCode(assert, () => b.getToolSchema({ type: "function", function: cyclic() }), "unsupported-type");
  assert.equal(b.has({ srv: cyclic() }), false);
  assert.equal(b.tools.size, 0);
});

test("records always serialise: BigInts are spelled {$bigint} and tg.reviveRecord turns them back", async () => {
  const t = tg.tool({
    name: "order",
    parameters: { type: "object", properties: { id: { type: "integer" } }, required: ["id"] },
    handler: ({ id }) => ({ id, next: id + 1n }),
    metadata: { batch: 12345678901234567890n },
  });
  const b = tg.branch({ tools: [t] });
  const fc = await b.invoke('{"function":"order","arguments":{"id":9007199254740993}}');
  assert.equal(fc.status, "completed");
  assert.equal(fc.arguments.id, 9007199254740993n, "the live call keeps BigInts");
  const text = JSON.stringify(fc.toDict());
  assert.match(text, /"arguments":\{"id":\{"\$bigint":"9007199254740993"\}\}/);
  const back = JSON.parse(text, tg.reviveRecord);
  assert.deepEqual(back.arguments, { id: 9007199254740993n });
  assert.deepEqual(back.execution.response, { id: 9007199254740993n, next: 9007199254740994n });
  const record = JSON.stringify(t.toDict());
  assert.match(record, /"batch":\{"\$bigint":"12345678901234567890"\}/, "a tool record keeps Go's exact integer, spelled the same way");
  assert.equal(JSON.parse(record, tg.reviveRecord).metadata.batch, 12345678901234567890n);
});

test("a string that looks like the internal BigInt marker stays a string", () => {
  const b = tg.branch({ tools: [tg.tool(function echo(x, y) { return x; })] });
  const r = b.validate({ function: "echo", arguments: { x: "\u0000bigint:5", y: 5n } });
  assert.equal(r.ok, true);
  assert.equal(r.arguments.x, "\u0000bigint:5");
});

test("asynchronous results keep integers beyond 2^53 exact (an MCP tool's response, say)", async () => {
  const debug = tg[Symbol.for("toolgate.debug")];
  const v = { n: 2n ** 70n, m: -(2n ** 60n), small: 7, s: "12345678901234567890" };
  assert.deepEqual(await debug.echo(v), v);
});

test("values that cannot be read (a revoked Proxy, a list holding itself, a throwing schema export) are typed", async () => {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  const b = tg.branch({ tools: [tg.tool(function echo(x) { return x; })] });
  expectCode(assert, () => b.match(proxy), "invalid-request");
  assert.equal(b.validate(proxy).error.code, "invalid-request");
  expectCode(assert, () => tg.branch(proxy), "unsupported-type");
  const self = [];
  self.push(self);
  expectCode(assert, () => b.register(self), "unsupported-type");
  expectCode(assert, () => tg.branch({ tools: self }), "unsupported-type");
  const exporting = { toJSONSchema() { throw new Error("export failed"); } };
  expectCode(assert, () => tg.tool({ name: "z", parameters: exporting, handler: (a) => a }), "invalid-schema");
  const thrower = tg.tool({ name: "thrower", handler: () => { throw proxy; } });
  const fc = await tg.branch({ tools: [thrower] }).invoke({ function: "thrower", arguments: {} });
  assert.equal(fc.status, "failed", "a handler that throws a revoked Proxy fails the call");
  assert.doesNotThrow(() => JSON.stringify(fc.toDict()));
});

test("a record serialises whatever the handler returned or threw", async () => {
  const loop = { a: 1 };
  loop.self = loop;
  const bare = Object.create(null);
  bare.n = 2n ** 64n;
  const cases = [
    [() => loop, (r) => assert.equal(r.execution.response, "<unserializable>")],
    [() => ({ get x() { throw new Error("getter threw"); } }), (r) => assert.equal(r.execution.response, "<unserializable>")],
    [() => bare, (r) => assert.deepEqual(r.execution.response, { n: { $bigint: "18446744073709551616" } })],
    [() => { throw Object.create(null); }, (r) => assert.deepEqual(r.execution.error, { error: "object", message: "<unprintable error>" })],
  ];
  for (const [handler, check] of cases) {
    const fc = await tg.branch({ tools: [tg.tool({ name: "h", handler })] }).invoke({ function: "h", arguments: {} });
    const record = JSON.parse(JSON.stringify(fc.toDict()));
    check(record);
  }
});

test("a call cancelled while its preprocessor runs never starts the handler; timeoutMs beyond a JS timer is refused", async () => {
  let handled = 0;
  let release, started;
  const preprocessing = new Promise((r) => (started = r));
  const t = tg.tool({
    name: "slowpre",
    preprocessor: (args) => new Promise((r) => {
      release = () => r(args);
      started();
    }),
    handler: () => ++handled,
  });
  const ac = new AbortController();
  const p = tg.branch({ tools: [t] }).invoke({ function: "slowpre", arguments: {} }, { signal: ac.signal });
  await preprocessing;
  ac.abort(new Error("stop"));
  const fc = await p;
  assert.equal(fc.status, "cancelled");
  release();
  // the release's callbacks (and whatever Go would start from them) run before the next macrotask
  await new Promise((r) => setImmediate(r));
  assert.equal(handled, 0, "the handler did not start after the cancellation");
  expectCode(assert, () => tg.tool({ name: "long", handler: () => 1, timeoutMs: 2 ** 31 }), "invalid-tool");
});
