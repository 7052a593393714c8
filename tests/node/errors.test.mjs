// ToolgateError's data: every member it is given besides code and message is kept as it comes (the
// Go side's detail groups, and any it adds), keys that would reach the class or the prototype are
// not, and the 0.1 flat names of the transport and auth detail still read, from their group.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { ToolgateError } from "toolgate";

const require = createRequire(import.meta.url);

test("every data member is kept, a group the class does not name included", () => {
  const transport = { httpStatus: 500, rpcCode: -32603, rpcMessage: "boom" };
  const e = new ToolgateError("transport", "HTTP 500", { tool: "t", callId: "c1", transport, quota: { left: 0 } });
  assert.deepEqual({ ...e }, { name: "ToolgateError", code: "transport", tool: "t", callId: "c1", transport, quota: { left: 0 } });
  assert.equal(e.message, "HTTP 500");
  const again = JSON.parse(JSON.stringify(e));
  assert.deepEqual(again.transport, transport);
  assert.equal(again.httpStatus, undefined, "a deprecated name was written out");
});

test("undefined and null members are left out", () => {
  const e = new ToolgateError("timeout", "slow", { tool: undefined, result: null, auth: undefined });
  assert.deepEqual(Object.keys(e).sort(), ["code", "name"]);
});

test("data cannot set the code, the message, the name or the prototype", () => {
  const hostile = JSON.parse('{"__proto__": {"polluted": true}, "constructor": 1, "prototype": 2, "name": "Other", "code": "internal", "message": "not this", "stack": "s"}');
  for (const E of [ToolgateError, require("toolgate").ToolgateError]) {
    const e = new E("invalid-request", "this", hostile);
    assert.equal(Object.getPrototypeOf(e), E.prototype);
    assert.equal(e.polluted, undefined);
    assert.equal(e.constructor, E);
    assert.equal(e.name, "ToolgateError");
    assert.equal(e.code, "invalid-request");
    assert.equal(e.message, "this");
    assert.ok(E.isInstance(e));
  }
  assert.equal({}.polluted, undefined);
});

test("the deprecated flat names read the transport and auth groups, and cannot be written", () => {
  for (const E of [ToolgateError, require("toolgate").ToolgateError]) {
    const t = new E("transport", "m", { transport: { httpStatus: 403, rpcCode: -32001, rpcMessage: "no" } });
    assert.deepEqual([t.httpStatus, t.rpcCode, t.rpcMessage], [403, -32001, "no"]);
    assert.deepEqual([t.authStep, t.oauthError, t.oauthErrorDescription], [undefined, undefined, undefined]);
    const a = new E("auth-failed", "m", { auth: { step: "token", oauthError: "invalid_grant", oauthErrorDescription: "expired" } });
    assert.deepEqual([a.authStep, a.oauthError, a.oauthErrorDescription], ["token", "invalid_grant", "expired"]);
    assert.equal(a.httpStatus, undefined);
    assert.throws(() => { t.httpStatus = 200; }, TypeError);
    assert.equal(t.transport.httpStatus, 403);
  }
});

test("the deprecated flat names given to the constructor go into their group", () => {
  const e = new ToolgateError("auth-failed", "m", { authStep: "step-up", httpStatus: 403, oauthError: "insufficient_scope" });
  assert.deepEqual(e.auth, { step: "step-up", oauthError: "insufficient_scope" });
  assert.deepEqual(e.transport, { httpStatus: 403 });
  assert.ok(!Object.hasOwn(e, "authStep") && !Object.hasOwn(e, "httpStatus"));
});
