// Per-call context (b.invoke's `context` reaches a typed handler and a local approve hook, and no
// record) and approval for local tools (requireApproval / approve / approvalTimeoutMs, the
// contract MCP tools have: docs/using.md, "Context and approval").
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";

const schema = { type: "object", properties: { to: { type: "string" }, amount: { type: "integer" } }, required: ["to", "amount"] };

test("b.invoke's context reaches a typed handler's second argument, with the call id, and never the record", async () => {
  const seen = [];
  const pay = tg.tool({ name: "pay", parameters: schema, handler: (args, call) => (seen.push(call), `paid ${args.amount} for ${call.context.user}`) });
  const b = tg.branch({ tools: [pay] });
  const context = { user: "ann", token: "secret-token-123" };
  const fc = await b.invoke({ id: "call_1", type: "function", function: { name: "pay", arguments: '{"to":"bob","amount":"5"}' } }, { context });
  assert.equal(fc.status, "completed");
  assert.equal(fc.response, "paid 5 for ann");
  assert.equal(seen[0].context, context, "the same value, not a copy");
  assert.equal(seen[0].callId, "call_1");
  assert.equal(seen[0].function, "pay");
  assert.ok(!JSON.stringify(fc.toDict()).includes("secret-token-123"), "the context is in no record");
  const fc2 = await b.invoke({ function: "pay", arguments: { to: "bob", amount: 1 } });
  assert.equal(fc2.status, "failed", "without a context the handler sees undefined");
  assert.equal(seen[1].context, undefined);
});

function approvalTool(opts) {
  const ran = [];
  const t = tg.tool({ name: "delete_file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, handler: ({ path }) => (ran.push(path), `deleted ${path}`), ...opts });
  return { b: tg.branch({ tools: [t] }), ran };
}

test("a local tool with requireApproval runs only when approve says yes, and sees the validated arguments and the context", async () => {
  const asked = [];
  const { b, ran } = approvalTool({
    requireApproval: true,
    approve: (req, { signal }) => (asked.push({ req, signal }), req.context?.admin === true ? true : { approved: false, reason: "not an admin" }),
  });
  const ok = await b.invoke({ function: "delete_file", arguments: { path: "/tmp/a" } }, { context: { admin: true } });
  assert.equal(ok.status, "completed");
  assert.deepEqual(asked[0].req, { tool: "delete_file", name: "delete_file", arguments: { path: "/tmp/a" }, context: { admin: true }, callId: null });
  assert.ok(asked[0].signal instanceof AbortSignal);
  const no = await b.invoke({ id: "c2", function: "delete_file", arguments: { path: "/tmp/b" } }, { context: { admin: false } });
  assert.equal(no.status, "failed");
  assert.equal(no.error.code, "policy-denied");
  assert.equal(no.error.rule, "approval");
  assert.equal(no.error.tool, "delete_file");
  assert.match(no.error.message, /needs approval .* was not run: the approve hook refused it: not an admin/);
  assert.deepEqual(ran, ["/tmp/a"], "the refused call never reached its handler");
  const text = tg.toolResult(no, "openai-chat").content;
  assert.match(text, /policy-denied/, "the model is told why");
});

test("approval: a throw, any other answer and no answer in time deny; a thrown message is never quoted; requireApproval as a function selects calls", async () => {
  for (const [approve, want] of [
    [() => { throw new Error("db password is hunter2"); }, /approve hook threw Error$/],
    [() => "yes", /refused it$/],
    [() => ({ approved: "true" }), /refused it$/],
    [() => new Promise(() => {}), /did not answer within 50 ms/],
  ]) {
    const { b, ran } = approvalTool({ requireApproval: true, approve, approvalTimeoutMs: 50 });
    const fc = await b.invoke({ function: "delete_file", arguments: { path: "/x" } });
    assert.equal(fc.error?.code, "policy-denied", String(approve));
    assert.match(fc.error.message, want);
    assert.ok(!fc.error.message.includes("hunter2"));
    assert.deepEqual(ran, []);
  }
  let aborted;
  const { b: slow } = approvalTool({ requireApproval: true, approvalTimeoutMs: 30, approve: (_, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => { aborted = true; resolve(true); })) });
  const fc = await slow.invoke({ function: "delete_file", arguments: { path: "/x" } });
  assert.equal(fc.error?.code, "policy-denied", "an answer after the timeout does not count");
  assert.equal(aborted, true, "the hook's signal aborts at the timeout");
  const { b, ran } = approvalTool({ requireApproval: ({ path }) => path.startsWith("/etc"), approve: () => false });
  assert.equal((await b.invoke({ function: "delete_file", arguments: { path: "/tmp/y" } })).status, "completed");
  assert.equal((await b.invoke({ function: "delete_file", arguments: { path: "/etc/y" } })).error?.code, "policy-denied");
  assert.deepEqual(ran, ["/tmp/y"]);
});

test("approval options are checked when the tool is made", () => {
  for (const opts of [{ requireApproval: true }, { approve: () => true, requireApproval: "all" }, { requireApproval: true, approve: () => true, approvalTimeoutMs: -1 }, { approve: 1, requireApproval: true }]) {
    assert.throws(() => approvalTool(opts), (e) => e.code === "invalid-tool" && e.tool === "delete_file", JSON.stringify(Object.keys(opts)));
  }
});

test("a call cancelled while its approval is pending never runs", async () => {
  const { b, ran } = approvalTool({ requireApproval: true, approve: (_, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve(true))) });
  const ctrl = new AbortController();
  const pending = b.invoke({ function: "delete_file", arguments: { path: "/x" } }, { signal: ctrl.signal });
  ctrl.abort();
  const fc = await pending;
  assert.equal(fc.status, "cancelled");
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran, []);
});
