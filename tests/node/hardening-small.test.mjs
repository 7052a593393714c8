// Issue 22's smaller findings, each from the npm package: what was thrown is always an object, one
// rule for a response JSON cannot carry, typed throws, messages in our words, lone surrogates
// refused with their place, contains failures named for what the schema wrote.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, expectCode } from "./helpers.mjs";

/** An OpenAI Chat call of name with no arguments: it carries the call id a tool result needs. */
const chatCall = (name) => ({ id: "call_1", type: "function", function: { name, arguments: "{}" } });

test("a handler that throws a value that is not an Error fails with an Error whose cause is the value", async () => {
  for (const thrown of [undefined, null, "boom", 42, { code: 7 }]) {
    const b = tg.branch({ tools: [tg.tool({ name: "raw", handler: () => { throw thrown; } })] });
    const fc = await b.invoke(chatCall("raw"));
    assert.equal(fc.status, "failed");
    assert.ok(fc.error instanceof Error, `thrown ${String(thrown)}: if (fc.error) must see the failure`);
    assert.equal(fc.error.name, "ThrownValue");
    assert.equal(fc.error.cause, thrown, "the value thrown is kept");
    const rec = fc.toDict().execution.error;
    const kind = thrown === null ? "null" : typeof thrown;
    assert.equal(rec.error, kind, "the record still names what was thrown, as LionAGI's does");
    const [msg] = [tg.toolResult(fc, "openai-chat")];
    assert.ok(!String(msg.content).includes("ThrownValue"), `the model sees the value, not the wrapper: ${msg.content}`);
  }
  const err = new RangeError("bad");
  const b = tg.branch({ tools: [tg.tool({ name: "e", handler: () => { throw err; } })] });
  assert.equal((await b.invoke({ function: "e", arguments: {} })).error, err, "an Error is kept as thrown");
});

test("a response JSON cannot carry is <unserializable> in the record and refused by toolResult", async () => {
  const cycle = {};
  cycle.self = cycle;
  for (const [what, value] of [["a symbol", Symbol("s")], ["a function", () => 1], ["a cycle", cycle]]) {
    const b = tg.branch({ tools: [tg.tool({ name: "odd", handler: () => value })] });
    const fc = await b.invoke(chatCall("odd"));
    assert.equal(fc.status, "completed", what);
    assert.equal(fc.toDict().execution.response, "<unserializable>", what);
    const e = expectCode(assert, () => tg.toolResult(fc, "openai-chat"), "unsupported-type");
    assert.match(e.message, /the response of odd/, what);
  }
  const b = tg.branch({ tools: [tg.tool({ name: "nothing", handler: () => undefined })] });
  const fc = await b.invoke(chatCall("nothing"));
  assert.equal(fc.toDict().execution.response, null, "undefined is null in both");
  assert.equal(tg.toolResult(fc, "openai-chat").content, "null");
});

test("a tool's toDict with a mode that is not a string is a typed refusal", () => {
  const t = tg.tool(function f(a) { return a; });
  const e = expectCode(assert, () => t.toDict(2n), "unsupported-type");
  assert.match(e.message, /mode/);
});

test("a bad option's message speaks JSON, not Go", () => {
  const e = expectCode(assert, () => tg.tool({ name: "t", handler() {}, description: 5 }), "unsupported-type");
  assert.doesNotMatch(e.message, /Go struct|json: |toolSpec/);
  assert.match(e.message, /description.*must be a string, got a number/);
});

test("a lone surrogate is refused with its place, from arguments, provider text and schemas", async () => {
  const b = tg.branch({ tools: [tg.tool({ name: "say", parameters: { type: "object", properties: { s: { type: "string" } } }, handler: (a) => a.s })] });
  const r = b.validate({ function: "say", arguments: { s: "ok\ud800" } });
  assert.equal(r.ok, false);
  assert.equal(r.error.code, "invalid-arguments");
  assert.deepEqual(r.error.issues.map((i) => [i.path, i.keyword]), [["/s", "loneSurrogate"]]);
  assert.match(r.error.message, /at index 2/);
  const fc = await b.invoke({ function: "say", arguments: { s: "\ud83d\ude00" } });
  assert.equal(fc.response, "\ud83d\ude00", "a surrogate pair is text");
  const chat = { id: "c1", type: "function", function: { name: "say", arguments: '{"s":"\udc00"}' } };
  assert.equal(expectCode(assert, () => b.match(chat), "invalid-arguments").issues[0].keyword, "loneSurrogate");
  const e = expectCode(assert, () => tg.tool({ name: "bad", parameters: { type: "object", properties: { s: { const: "\ud800" } } }, handler() {} }), "invalid-schema");
  assert.equal(e.issues[0].path, "/properties/s/const");
});

test("a contains failure is one issue at the array, named for the keyword the schema wrote", () => {
  const parameters = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "array", contains: { type: "string" } } } };
  const b = tg.branch({ tools: [tg.tool({ name: "c", parameters, handler() {} })] });
  const r = b.validate({ function: "c", arguments: { a: [1, 2] } });
  assert.deepEqual(r.error.issues.map((i) => [i.path, i.keyword]), [["/a", "contains"]]);
});
