// What validate accepts, invoke runs; and a present key is never reported missing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";

test("validate refuses the keys a raw function would refuse; match keeps LionAGI's non-strict check", async () => {
  const b = tg.branch({ tools: [tg.tool(function add(a, b) { return a + b; })] });
  const call = { function: "add", arguments: { a: 1, b: 2, c: 3 } };
  const v = b.validate(call);
  assert.equal(v.ok, false);
  assert.equal(v.error.code, "invalid-arguments");
  assert.deepEqual(v.error.issues.map((i) => [i.path, i.keyword]), [["/c", "signature"]]);
  assert.equal(b.match(call).function, "add", "match lets the extra key through");
  const fc = await b.invoke(call);
  assert.equal(fc.status, "failed", "and the call fails, as validate said");
  assert.equal(b.validate({ function: "add", arguments: { a: 1, b: 2 } }).ok, true);
  const kw = tg.branch({ tools: [tg.tool(function opts({ a, ...kwargs }) { return kwargs; })] });
  assert.equal(kw.validate({ function: "opts", arguments: { a: 1, z: 2 } }).ok, true, "a rest field takes any key");
  const typed = tg.branch({ tools: [tg.tool({ name: "t", handler: (args) => args })] });
  assert.equal(typed.validate({ function: "t", arguments: { anything: 1 } }).ok, true, "a typed handler takes one object");
});

test("a key the schema names outside properties is never dropped and so never reported missing", () => {
  const cases = [
    [{ type: "object", required: ["id"] }, { id: 1 }],
    [{ type: "object", properties: { a: {} }, required: ["a", "b"] }, { a: 1, b: 2 }],
    [{ type: "object", propertyNames: { maxLength: 5 }, required: ["id"] }, { id: 7 }],
    [{ type: "object", properties: { a: {} }, dependentRequired: { a: ["b"] } }, { a: 1, b: 2 }],
  ];
  for (const [parameters, args] of cases) {
    const b = tg.branch({ tools: [tg.tool({ name: "t", parameters, handler: (x) => x })] });
    const v = b.validate({ function: "t", arguments: args });
    assert.equal(v.ok, true, `${JSON.stringify(parameters)}: ${v.error?.message}`);
    assert.deepEqual(v.arguments, args);
  }
});
