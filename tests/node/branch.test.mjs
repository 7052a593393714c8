import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, tgCore, expectCode } from "./helpers.mjs";

function add(a, b) {
  /** Add two numbers.
   *
   * Args:
   *   a: first number
   *   b: second number
   */
  return a + b;
}

test("a raw function becomes LionAGI's shipped schema", () => {
  const t = tg.tool(add);
  assert.deepEqual(t.toolSchema, {
    type: "function",
    function: {
      name: "add",
      description: "Add two numbers.",
      parameters: {
        type: "object",
        properties: { a: { type: "string", description: "first number" }, b: { type: "string", description: "second number" } },
        required: ["a", "b"],
      },
      strict: null,
    },
  });
  assert.equal(t.function, "add");
  assert.deepEqual(t.requiredFields, ["a", "b"]);
  assert.deepEqual(t.minimumAcceptableFields, ["a", "b"]);
  assert.match(t.id, /^[0-9a-f-]{36}$/);
  assert.ok(t.createdAt > 1.7e9);
});

test("accurate mode makes defaulted parameters optional and infers their types", () => {
  const t = tg.tool(function scale(x, factor = 2, label = "n") { return x * factor; }, { schemaMode: "accurate" });
  const p = t.toolSchema.function.parameters;
  assert.deepEqual(p.required, ["x"]);
  assert.equal(p.properties.factor.type, "integer");
  assert.equal(p.properties.label.type, "string");
  assert.deepEqual(t.minimumAcceptableFields, ["x"]);
});

test("branch: register, has, tools in insertion order, duplicate and update", () => {
  const b = tg.branch();
  const t1 = tg.tool(add);
  const t2 = tg.tool(function mul(a, b) { return a * b; });
  b.register([t1, t2]);
  assert.deepEqual([...b.tools.keys()], ["add", "mul"]);
  assert.equal(b.tools.get("add"), t1);
  assert.ok(b.has("add") && b.has(t1) && b.has(add));
  assert.equal(b.has("nope"), false);
  expectCode(assert, () => b.register(add), "duplicate-tool");
  expectCode(assert, () => b.register("add"), "duplicate-tool");
  expectCode(assert, () => b.register(42), "unsupported-type");
  expectCode(assert, () => b.register("unregistered"), "unsupported-type");
  const t3 = tg.tool(function add(x) { return x; });
  b.register(t3, { update: true });
  assert.deepEqual([...b.tools.keys()], ["add", "mul"], "update keeps the insertion position");
  assert.equal(b.tools.get("add"), t3);
  assert.equal(b.schemaList.length, 2);
  expectCode(assert, () => tg.branch({ tools: [t1, t1] }), "duplicate-tool");
  assert.equal(tg.branch({ tools: [null, t1, undefined] }).tools.size, 1);
});

test("getToolSchema covers LionAGI's selections", () => {
  const b = tg.branch({ tools: [tg.tool(add)] });
  assert.deepEqual(b.getToolSchema(false), []);
  assert.equal(b.getToolSchema(true).tools.length, 1);
  assert.equal(b.getToolSchema("add").tools.function.name, "add");
  assert.equal(b.getToolSchema(["add"]).tools.function.name, "add", "a one-item list is unwrapped");
  assert.deepEqual(b.getToolSchema([]), { tools: [] });
  const dict = { type: "function", function: { name: "x" } };
  assert.deepEqual(b.getToolSchema(dict).tools, dict);
  assert.equal(b.has("x"), false, "a schema dict is not registered");
  expectCode(assert, () => b.getToolSchema("nope"), "tool-not-found");
  expectCode(assert, () => b.getToolSchema(null), "unsupported-type");
  function sub(a, b) { return a - b; }
  expectCode(assert, () => b.getToolSchema(sub, { autoRegister: false }), "tool-not-found");
  assert.equal(b.getToolSchema(sub).tools.function.name, "sub");
  assert.deepEqual([...b.tools.keys()], ["add", "sub"], "a function is auto-registered");
  const nested = b.getToolSchema(["add", ["sub"]]);
  assert.equal(nested.tools[1][0].function.name, "sub", "nested lists stay nested");
});

test("invoke: sync, async, throwing and non-Error throwing handlers", async () => {
  const b = tg.branch({
    tools: [
      tg.tool(add),
      tg.tool({ name: "later", parameters: { type: "object", properties: { ms: { type: "integer" } }, required: ["ms"] }, handler: async ({ ms }) => { await new Promise((r) => setTimeout(r, ms)); return ms; } }),
      tg.tool(function boom() { throw new RangeError("bad"); }),
      tg.tool(function weird() { throw 42; }),
    ],
  });
  let fc = await b.invoke({ function: "add", arguments: { a: 2, b: 3 } });
  assert.equal(fc.status, "completed");
  assert.equal(fc.response, 5);
  assert.ok(fc.duration >= 0);
  fc = await b.invoke({ function: "later", arguments: { ms: 5 } });
  assert.equal(fc.response, 5);
  fc = await b.invoke({ function: "boom", arguments: {} });
  assert.equal(fc.status, "failed");
  assert.ok(fc.error instanceof RangeError);
  assert.deepEqual(fc.toDict().execution.error, { error: "RangeError", message: "bad" });
  fc = await b.invoke({ function: "weird", arguments: {} });
  assert.equal(fc.status, "failed");
  assert.equal(fc.error.cause, 42, "a non-Error throw is the cause of a ThrownValue Error (issue 22)");
  assert.deepEqual(fc.toDict().execution.error, { error: "number", message: "42" });
});

test("invoke throws only what match throws", async () => {
  const b = tg.branch({ tools: [tg.tool(add)] });
  await assert.rejects(() => b.invoke({ function: "nope", arguments: {} }), (e) => e.code === "tool-not-found");
  await assert.rejects(() => b.invoke({ function: "add" }), (e) => e.code === "invalid-request");
  await assert.rejects(() => b.invoke({ function: "add", arguments: { a: 1 } }), (e) => e.code === "invalid-arguments" && e.issues.length > 0);
  await assert.rejects(() => b.invoke("not json"), (e) => e.code === "invalid-request");
  await assert.rejects(() => b.invoke([1]), (e) => e.code === "invalid-request");
});

test("raw functions get positional arguments; unknown keys fail the call like Python's TypeError", async () => {
  const b = tg.branch({ tools: [tg.tool(function greet(name, greeting = "hi", ...args) { return `${greeting} ${name}${args.join("")}`; })] });
  assert.equal((await b.invoke({ function: "greet", arguments: { name: "ann" } })).response, "hi ann");
  assert.equal((await b.invoke({ function: "greet", arguments: { name: "ann", greeting: "yo", args: ["!", "?"] } })).response, "yo ann!?");
  // LionAGI's name rule: a rest parameter is required by the non-strict check unless it is named args, kwargs or kw.
  const r = tg.branch({ tools: [tg.tool(function tail(...items) { return items.length; })] });
  assert.equal(r.validate({ function: "tail", arguments: {} }).error.code, "invalid-arguments");
  assert.equal((await r.invoke({ function: "tail", arguments: { items: [1, 2, 3] } })).response, 3);
  const fc = await b.invoke({ function: "greet", arguments: { name: "ann", colour: "red" } });
  assert.equal(fc.status, "failed");
  assert.ok(fc.error instanceof TypeError);
  const d = tg.branch({ tools: [tg.tool(function opts({ a, b = 2 }) { return a + b; })] });
  assert.equal((await d.invoke({ function: "opts", arguments: { a: 1 } })).response, 3);
});

test("a handler that never settles blocks nothing; timeoutMs and signals cancel", async () => {
  const never = tg.tool({ name: "never", handler: () => new Promise(() => {}), timeoutMs: 20 });
  const stuck = tg.tool({ name: "stuck", handler: () => new Promise(() => {}) });
  const b = tg.branch({ tools: [never, stuck, tg.tool(add)] });
  // AbortSignal.timeout's timer does not keep Node alive; this one does, for the test's duration.
  const keepAlive = setInterval(() => {}, 1000);
  const pending = b.invoke({ function: "stuck", arguments: {} }, { signal: AbortSignal.timeout(30) });
  const other = await b.invoke({ function: "add", arguments: { a: 1, b: 1 } });
  assert.equal(other.status, "completed");
  const t = await b.invoke({ function: "never", arguments: {} });
  assert.equal(t.status, "cancelled");
  assert.equal(t.error.code, "timeout");
  const s = await pending;
  assert.equal(s.status, "cancelled");
  assert.equal(s.error.name, "TimeoutError");
  clearInterval(keepAlive);
  const ac = new AbortController();
  ac.abort(new Error("user stop"));
  const a = await b.invoke({ function: "stuck", arguments: {} }, { signal: ac.signal });
  assert.equal(a.status, "cancelled");
  assert.equal(a.error.message, "user stop");
});

test("pre- and postprocessors replace arguments and response", async () => {
  const t = tg.tool(add, {
    preprocessor: (args, kw) => ({ a: args.a * kw.k, b: args.b }),
    preprocessorKwargs: { k: 10 },
    postprocessor: async (res, kw) => `${kw.prefix}${res}`,
    postprocessorKwargs: { prefix: "=" },
  });
  const fc = await tg.branch({ tools: [t] }).invoke({ function: "add", arguments: { a: 1, b: 2 } });
  assert.equal(fc.response, "=12");
  assert.deepEqual(fc.arguments, { a: 10, b: 2 });
});

test("match returns a pending call with no duration", async () => {
  let n = 0;
  const b = tg.branch({ tools: [tg.tool(function count() { return ++n; })] });
  const fc = b.match({ function: "count", arguments: {} });
  assert.equal(fc.status, "pending");
  assert.equal(fc.duration, null);
  assert.equal(fc.toDict().execution.duration, null);
});

test("arguments arrive as JSON.parse builds them: __proto__ is an own key", async () => {
  const seen = [];
  const b = tg.branch({ tools: [tg.tool({ name: "echo", parameters: { type: "object", additionalProperties: true }, handler: (args) => { seen.push(args); return Object.keys(args); } })] });
  const fc = await b.invoke('{"function":"echo","arguments":{"__proto__":{"isAdmin":true},"constructor":{"prototype":1}}}');
  assert.equal(fc.status, "completed");
  assert.deepEqual(fc.response, ["__proto__", "constructor"]);
  assert.equal(seen[0].isAdmin, undefined);
  assert.equal(Object.getPrototypeOf(seen[0]), Object.prototype);
});

test("big integers stay exact as BigInt, both ways", async () => {
  const b = tg.branch({ tools: [tg.tool({ name: "id", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, handler: ({ n }) => n })] });
  const fc = await b.invoke('{"function":"id","arguments":{"n":9007199254740993}}');
  assert.equal(fc.response, 9007199254740993n);
  const fc2 = await b.invoke({ function: "id", arguments: { n: 9007199254740993n } });
  assert.equal(fc2.arguments.n, 9007199254740993n);
  assert.equal((await b.invoke({ function: "id", arguments: { n: 7 } })).response, 7);
});

test("keys match exactly: PATH is not path", () => {
  const b = tg.branch({ tools: [tg.tool({ name: "read", parameters: { type: "object", properties: { path: { const: "/safe" } }, required: ["path"] }, handler: (a) => a })] });
  const r = b.validate('{"function":"read","arguments":{"path":"/safe","PATH":"/etc/passwd"}}');
  assert.equal(r.ok, true);
  assert.deepEqual(r.arguments, { path: "/safe" });
  const k = b.validate({ function: "read", arguments: { "\u212Aey": 1, path: "/safe" } });
  assert.deepEqual(k.arguments, { path: "/safe" });
});

test("too deep, too large and trailing data are refused and the instance keeps working", () => {
  const b = tg.branch({ tools: [tg.tool({ name: "any", parameters: { type: "object", additionalProperties: true }, handler: (a) => a })] });
  const deep = (n) => "[".repeat(n) + "]".repeat(n);
  assert.equal(b.validate(`{"function":"any","arguments":{"x":${deep(63)}}}`).ok, true);
  assert.equal(b.validate(`{"function":"any","arguments":{"x":${deep(64)}}}`).error.code, "invalid-arguments");
  assert.equal(b.validate(`{"function":"any","arguments":{"x":${deep(100000)}}}`).error.code, "invalid-arguments");
  const big = JSON.stringify({ function: "any", arguments: { x: "a".repeat(16 * 1024 * 1024) } });
  assert.equal(b.validate(big).error.code, "invalid-arguments");
  assert.equal(b.validate('{"function":"any","arguments":"{} x"}').error.code, "invalid-request");
  assert.equal(b.validate({ function: "any", arguments: { ok: 1 } }).ok, true);
});

test("validate never throws", () => {
  const b = tg.branch();
  for (const bad of [undefined, null, 1, "x", [], { function: 1 }, { function: "a", arguments: [] }]) {
    const r = b.validate(bad);
    assert.equal(r.ok, false);
    assert.ok(tg.ToolgateError.isInstance(r.error));
  }
});

test("strictFuncCall: keys must equal required", () => {
  const b = tg.branch({ tools: [tg.tool(add, { strictFuncCall: true })] });
  assert.equal(b.validate({ function: "add", arguments: { a: 1, b: 2 } }).ok, true);
  const r = b.validate({ function: "add", arguments: { a: 1 } });
  assert.equal(r.error.code, "invalid-arguments");
  assert.ok(r.error.issues.some((i) => i.path === "/b"));
});

test("provider call shapes are understood", () => {
  const b = tg.branch({ tools: [tg.tool(add)] });
  const shapes = [
    { id: "c1", type: "function", function: { name: "add", arguments: '{"a":1,"b":2}' } },
    { type: "function_call", call_id: "c2", name: "add", arguments: '{"a":1,"b":2}' },
    { type: "tool_use", id: "c3", name: "add", input: { a: 1, b: 2 } },
    { functionCall: { name: "add", args: { a: 1, b: 2 } } },
    { function: "add", arguments: '{"a":1,"b":2}' },
  ];
  for (const s of shapes) {
    const r = b.validate(s);
    assert.equal(r.ok, true, JSON.stringify(s) + " " + (r.error && r.error.message));
    assert.deepEqual(r.arguments, { a: 1, b: 2 });
  }
});

test("clone: a new registry sharing the same tools", () => {
  const t = tg.tool(add);
  const b = tg.branch({ tools: [t] });
  const c = b.clone();
  c.register(tg.tool(function extra() {}));
  assert.deepEqual([...b.tools.keys()], ["add"]);
  assert.deepEqual([...c.tools.keys()], ["add", "extra"]);
  assert.equal(c.tools.get("add"), t);
});

test("toDict: LionAGI's keys and order, no callable; fromDict is refused", () => {
  const t = tg.tool(add);
  const d = t.toDict();
  assert.deepEqual(Object.keys(d), ["id", "created_at", "metadata", "mcp_config", "tool_schema", "request_options", "strict_func_call", "function"]);
  assert.equal(d.function, "add");
  assert.ok(!JSON.stringify(d).includes("return a + b"));
  assert.ok("node_metadata" in t.toDict("db"));
  expectCode(assert, () => tg.Tool.fromDict(d), "not-restorable");
  expectCode(assert, () => tg.FunctionCalling.fromDict({}), "not-restorable");
  const fc = tg.branch({ tools: [t] }).match({ function: "add", arguments: { a: 1, b: 2 } });
  assert.deepEqual(Object.keys(fc.toDict()), ["id", "created_at", "metadata", "execution", "function", "arguments"]);
});

test("a record's error has Go's shape: {error, message, code, issues?} for a ToolgateError", async () => {
  const b = tg.branch({
    tools: [
      tg.tool(add),
      tg.tool({ name: "inner", handler: () => b.match({ function: "add", arguments: { a: 1 } }) }),
      tg.tool({ name: "never", handler: () => new Promise(() => {}), timeoutMs: 5 }),
    ],
  });
  const invalid = (await b.invoke({ function: "inner", arguments: {} })).toDict().execution.error;
  assert.deepEqual(Object.keys(invalid), ["error", "message", "code", "issues"]);
  assert.equal(invalid.error, "ToolgateError");
  assert.equal(invalid.code, "invalid-arguments");
  assert.deepEqual(invalid.issues.map((i) => Object.keys(i)), [["path", "keyword", "message"]]);
  assert.equal(invalid.issues[0].path, "/b");
  const timeout = (await b.invoke({ function: "never", arguments: {} })).toDict().execution.error;
  assert.deepEqual(Object.keys(timeout), ["error", "message", "code"], "no issues key when there are none");
  assert.equal(timeout.code, "timeout");
});

test("a Tool of another instance is not a Tool of this one", () => {
  const other = tgCore.tool(add);
  expectCode(assert, () => tg.branch().register(other), "unsupported-type");
  expectCode(assert, () => tgCore.branch().register(tg.tool(add)), "unsupported-type");
});

test("typed tools: JSON Schema and zod 4", async () => {
  const { z } = await import("zod");
  const t = tg.tool({ name: "pay", parameters: z.object({ amount: z.number().int().min(1), to: z.string() }), handler: (a) => a.amount });
  const b = tg.branch({ tools: [t] });
  assert.equal(b.validate({ function: "pay", arguments: { amount: 5, to: "x" } }).ok, true);
  const r = b.validate({ function: "pay", arguments: { amount: 0, to: "x" } });
  assert.equal(r.error.code, "invalid-arguments");
  assert.equal(r.error.issues[0].path, "/amount");
  const lax = b.validate({ function: "pay", arguments: { amount: "5", to: "x" } });
  assert.equal(lax.ok, true);
  assert.equal(lax.arguments.amount, 5);
  assert.deepEqual(t.requiredFields, ["amount", "to"]);
  expectCode(assert, () => tg.tool({ name: "bad", parameters: { $ref: "file:///etc/passwd" }, handler() {} }), "invalid-schema");
  expectCode(assert, () => tg.tool({ name: "x", handler() {}, bogus: 1 }), "unsupported-type");
});

test("the core build refuses MCP configs with unsupported; commands are refused everywhere", () => {
  const b = tgCore.branch();
  expectCode(assert, () => b.register({ srv: { url: "https://example.com/mcp" } }), "unsupported");
  expectCode(assert, () => b.register({ srv: { command: "npx" } }), "unsupported");
});

test("a bad option value gets one code, from Go, whichever side reads it", () => {
  const f = function f(a) { return a; };
  for (const opts of [{ schemaMode: "exact" }, { coerce: "strict" }, { docstringStyle: "numpy" }, { timeoutMs: -1 }]) {
    const e = expectCode(assert, () => tg.tool(f, opts), "invalid-tool");
    assert.ok(e.message.includes(String(Object.values(opts)[0])), `got ${e.message}, want the bad value named`);
  }
  expectCode(assert, () => tg.tool({ name: "t", handler: f, coerce: "strict" }), "invalid-tool");
  expectCode(assert, () => tg.tool(f, { timeoutMs: "5" }), "unsupported-type");
  expectCode(assert, () => tg.tool(f, { nope: 1 }), "unsupported-type");
});

test("toDict modes are Go's: python, json, db; anything else is refused there", () => {
  const t = tg.tool(function f(a) { return a; });
  assert.deepEqual(Object.keys(t.toDict("json")), Object.keys(t.toDict()));
  expectCode(assert, () => t.toDict("yaml"), "invalid-request");
  expectCode(assert, () => t.toDict(5), "unsupported-type");
});

test("a call's record is Go's: the same modes, metadata sorted value by value, a bad status or metadata refused", async () => {
  const b = tg.branch({ tools: [tg.tool(function f(a) { return a; })] });
  const fc = await b.invoke({ function: "f", arguments: { a: 1 } });
  const db = fc.toDict("db");
  assert.deepEqual(Object.keys(db), ["id", "created_at", "node_metadata", "execution", "function", "arguments"]);
  assert.deepEqual(Object.keys(fc.toDict("json")), Object.keys(fc.toDict()));
  expectCode(assert, () => fc.toDict("yaml"), "invalid-request");
  expectCode(assert, () => fc.toDict(5), "unsupported-type");
  const cycle = {};
  cycle.self = cycle;
  fc.metadata = { zeta: 1n, cycle, ["__proto__"]: "own", alpha: { b: 1, a: 2 } };
  const meta = fc.toDict().metadata;
  assert.deepEqual(Object.keys(meta), ["__proto__", "alpha", "cycle", "zeta", "lion_class"], "keys sorted, lion_class last");
  assert.equal(meta.cycle, "<unserializable>", "one value that cannot serialise spoils only itself");
  assert.deepEqual(meta.zeta, { $bigint: "1" });
  assert.deepEqual(Object.keys(meta.alpha), ["b", "a"], "a value keeps its own key order");
  fc.metadata = ["not", "an", "object"];
  const e = expectCode(assert, () => fc.toDict(), "unsupported-type");
  assert.match(e.message, /metadata of the call of f must be an object, got array/);
  fc.metadata = {};
  fc.status = "finished";
  assert.match(expectCode(assert, () => fc.toDict(), "invalid-request").message, /status "finished"/);
});

test("an aborted signal never starts the handler; a signal that is not an AbortSignal is refused first", async () => {
  let runs = 0;
  const counted = tg.tool({ name: "counted", handler: () => ++runs });
  const b = tg.branch({ tools: [counted] });
  const reason = new Error("stop");
  const fc = await b.invoke({ function: "counted", arguments: {} }, { signal: AbortSignal.abort(reason) });
  assert.equal(fc.status, "cancelled");
  assert.equal(fc.error, reason);
  assert.equal(runs, 0, "the handler did not run");
  for (const signal of [{}, { aborted: false }, "abort", 5]) {
    await assert.rejects(b.invoke({ function: "counted", arguments: {} }, { signal }), (e) => e.code === "unsupported-type" && /signal/.test(e.message));
  }
  assert.equal(runs, 0, "no refused call ran the handler");
  assert.equal((await b.invoke({ function: "counted", arguments: {} }, { signal: new AbortController().signal })).response, 1);
});

test("whatever a handler throws is recorded, undefined and null included", async () => {
  for (const [thrown, name] of [[undefined, "undefined"], [null, "null"]]) {
    const t = tg.tool({ name: "nothing", handler: () => { throw thrown; } });
    const fc = await tg.branch({ tools: [t] }).invoke({ function: "nothing", arguments: {} });
    assert.equal(fc.status, "failed");
    assert.deepEqual(fc.toDict().execution.error, { error: name, message: name });
  }
});

test("schemaList and tools follow every change of the registry, and hand out fresh objects", () => {
  const b = tg.branch({ tools: [tg.tool(function one(a) { return a; })] });
  const first = b.schemaList;
  first[0].function.name = "mutated";
  assert.equal(b.schemaList[0].function.name, "one", "a caller's change to a list it got does not leak");
  assert.deepEqual([...b.tools.keys()], ["one"]);
  b.register(tg.tool(function two(a) { return a; }));
  assert.deepEqual(b.schemaList.map((s) => s.function.name), ["one", "two"]);
  assert.deepEqual([...b.tools.keys()], ["one", "two"]);
  b.getToolSchema(function three(a) { return a; }); // autoRegister registers it
  assert.deepEqual(b.schemaList.map((s) => s.function.name), ["one", "two", "three"]);
  const c = b.clone();
  c.register(tg.tool(function four(a) { return a; }));
  assert.equal(c.schemaList.length, 4);
  assert.equal(b.schemaList.length, 3, "a clone's registration leaves the original alone");
});

test("OpenAI's empty arguments string is {} for a tool without parameters, in Chat and Responses shapes; LionAGI's shape still refuses it", async () => {
  const now = tg.tool({ name: "now", parameters: { type: "object", properties: {} }, handler: () => "12:00" });
  const b = tg.branch({ tools: [now] });
  const chat = { id: "call_1", type: "function", function: { name: "now", arguments: "" } };
  const responses = { type: "function_call", call_id: "c1", name: "now", arguments: "" };
  for (const call of [chat, responses]) {
    const r = b.validate(call);
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.deepEqual(r.arguments, {});
    const fc = await b.invoke(call);
    assert.equal(fc.status, "completed");
    assert.equal(fc.response, "12:00");
  }
  assert.equal(b.validate({ function: "now", arguments: "" }).error.code, "invalid-request");
});

test("a FunctionCalling carries the provider's call id of each shape, and none for the LionAGI shape", async () => {
  const b = tg.branch({ tools: [tg.tool({ name: "now", parameters: { type: "object", properties: {} }, handler: () => 1 })] });
  const cases = [
    [{ id: "call_1", type: "function", function: { name: "now", arguments: "{}" } }, "call_1"],
    [{ type: "function_call", call_id: "c2", id: "fc_2", name: "now", arguments: "{}" }, "c2"],
    [{ type: "function_call", id: "fc_3", name: "now", arguments: "{}" }, "fc_3"],
    [{ type: "tool_use", id: "toolu_4", name: "now", input: {} }, "toolu_4"],
    [{ functionCall: { id: "g5", name: "now", args: {} } }, "g5"],
    [{ function: "now", arguments: {} }, undefined],
  ];
  for (const [call, id] of cases) {
    assert.equal(b.match(call).callId, id, JSON.stringify(call));
    const record = (await b.invoke(call)).toDict();
    assert.equal(record.call_id, id, JSON.stringify(call));
    // the record ends with call_id when there is one, and is LionAGI's exactly when there is none
    const keys = ["id", "created_at", "metadata", "execution", "function", "arguments"];
    assert.deepEqual(Object.keys(record), id ? [...keys, "call_id"] : keys);
  }
});
