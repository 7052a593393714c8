// toolgate/langchain, driven the way LangChain.js's own tool loop runs: a chat model bound to the
// tools emits tool calls, and each is answered with tool.invoke(toolCall), with no glue between.
// The model is a small BaseChatModel of our own that answers from a script.
import { test } from "node:test";
import assert from "node:assert/strict";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { StructuredTool, isStructuredTool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { langchainTools } from "toolgate/langchain";
import { tg, expectCode } from "./helpers.mjs";

/** A branch whose tools record their calls: add (integers), notes.save (a name OpenAI refuses), big (a BigInt), boom (throws). */
function branchWithTools() {
  const calls = [];
  const add = tg.tool({
    name: "add",
    description: "Adds two integers.",
    parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"], additionalProperties: false },
    handler: ({ a, b }) => {
      calls.push({ a, b });
      return { sum: a + b };
    },
  });
  const note = tg.tool({
    name: "notes.save",
    description: "Saves a note.",
    parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    handler: (args) => {
      calls.push(args);
      return "saved";
    },
  });
  const big = tg.tool({ name: "big", parameters: { type: "object", properties: {} }, handler: () => ({ n: 2n ** 64n + 1n }) });
  const boom = tg.tool({ name: "boom", parameters: { type: "object", properties: {} }, handler: () => { throw new Error("disk full"); } });
  return { b: tg.branch({ tools: [add, note, big, boom] }), calls };
}

/**
 * A chat model answering from a script: each step is an AIMessage, or a function of the messages
 * so far that returns one. bindTools records each tool as LangChain converts it for OpenAI.
 */
class ScriptChatModel extends BaseChatModel {
  constructor(steps) {
    super({});
    this.steps = steps;
    this.requests = [];
    this.bound = [];
  }
  _llmType() {
    return "script";
  }
  bindTools(tools) {
    this.bound = tools.map((t) => convertToOpenAITool(t));
    return this;
  }
  async _generate(messages) {
    this.requests.push(messages);
    const step = this.steps.shift();
    if (!step) throw new Error("the script ran out");
    const message = typeof step === "function" ? step(messages) : step;
    return { generations: [{ text: typeof message.content === "string" ? message.content : "", message }] };
  }
}

const call = (id, name, args) => ({ id, name, args, type: "tool_call" });
const calling = (...toolCalls) => new AIMessage({ content: "", tool_calls: toolCalls });

/** LangChain's tool loop as its docs write it: the model's calls answered by tool.invoke, nothing between. */
async function loop(model, tools, prompt) {
  const toolsByName = Object.fromEntries(tools.map((t) => [t.name, t]));
  const bound = model.bindTools(tools);
  const messages = [new HumanMessage(prompt)];
  for (let turn = 0; turn < 10; turn++) {
    const msg = await bound.invoke(messages);
    messages.push(msg);
    if (!msg.tool_calls?.length) return messages;
    for (const tc of msg.tool_calls) messages.push(await toolsByName[tc.name].invoke(tc));
  }
  throw new Error("the loop did not end");
}

const toolMessages = (messages) => messages.filter((m) => ToolMessage.isInstance(m));

test("langchain: a loop with no glue runs a correct call, a call needing coercion, and a refused call the model retries from the text alone", async () => {
  const { b, calls } = branchWithTools();
  const model = new ScriptChatModel([
    calling(call("c1", "add", { a: 2, b: 3 }), call("c2", "add", { a: "23", b: 1 }), call("c3", "add", { a: 1, c: 2 })),
    // the retry is made from what the refusal says: b is required, c is not allowed
    (messages) => {
      const refusal = toolMessages(messages).find((m) => m.tool_call_id === "c3");
      assert.match(refusal.content, /\/b/);
      return calling(call("c4", "add", { a: 1, b: 2 }));
    },
    new AIMessage("5, 24 and 3"),
  ]);
  const messages = await loop(model, langchainTools(b), "2 + 3, 23 + 1 and 1 + 2?");
  assert.equal(messages.at(-1).content, "5, 24 and 3");
  assert.deepEqual(calls, [{ a: 2, b: 3 }, { a: 23, b: 1 }, { a: 1, b: 2 }]);
  const results = Object.fromEntries(toolMessages(messages).map((m) => [m.tool_call_id, m]));
  assert.deepEqual(Object.keys(results).sort(), ["c1", "c2", "c3", "c4"]);
  assert.equal(results.c1.content, '{"sum":5}');
  assert.equal(results.c1.status, "success");
  assert.equal(results.c2.content, '{"sum":24}');
  assert.equal(results.c3.status, "error");
  assert.equal(results.c3.name, "add");
  assert.match(results.c3.content, /tool "add"/);
  assert.match(results.c3.content, /field \/b, rule "required"/);
  assert.equal(results.c4.content, '{"sum":3}');
  // the model was sent the exported schema, as LangChain converts a tool for OpenAI
  const sent = model.bound.find((t) => t.function.name === "add");
  assert.deepEqual(sent.function.parameters.required, ["a", "b"]);
  assert.equal(sent.function.parameters.properties.a.type, "integer");
  assert.equal(sent.function.description, "Adds two integers.");
});

test("langchain: the tools are StructuredTools whose schema is the export, and names the target refuses are rewritten and resolve", async () => {
  const { b, calls } = branchWithTools();
  const tools = langchainTools(b);
  assert.ok(tools.every((t) => t instanceof StructuredTool && isStructuredTool(t)));
  assert.deepEqual(tools[0].schema, tg.toProvider(b, "openai-chat").tools[0].function.parameters);
  const save = tools.find((t) => t.name.startsWith("notes_save"));
  assert.match(save.name, /^[a-zA-Z0-9_-]{1,64}$/);
  const msg = await save.invoke(call("c1", save.name, { text: "hi" }));
  assert.ok(ToolMessage.isInstance(msg));
  assert.equal(msg.content, "saved");
  assert.deepEqual(calls, [{ text: "hi" }]);
  const gemini = langchainTools(b, { target: "gemini" });
  assert.deepEqual(gemini.map((t) => t.name), tg.toProvider(b, "gemini").tools[0].functionDeclarations.map((d) => d.name));
});

test("langchain: a handler's failure is an error ToolMessage naming the tool, a BigInt keeps its digits", async () => {
  const { b } = branchWithTools();
  const byName = Object.fromEntries(langchainTools(b).map((t) => [t.name, t]));
  const failed = await byName.boom.invoke(call("c1", "boom", {}));
  assert.equal(failed.status, "error");
  assert.equal(failed.tool_call_id, "c1");
  assert.match(failed.content, /boom/);
  assert.match(failed.content, /disk full/);
  const big = await byName.big.invoke(call("c2", "big", {}));
  assert.equal(big.content, '{"n":18446744073709551617}');
  assert.equal(big.status, "success");
});

test("langchain: LangChain's callbacks see each run under the tool's name, a refused one included", async () => {
  const { b } = branchWithTools();
  const [add] = langchainTools(b);
  const events = [];
  const callbacks = [{
    handleToolStart: (_tool, input, _runId, _parent, _tags, _metadata, runName) => events.push(["start", runName, input]),
    handleToolEnd: (output) => events.push(["end", output.tool_call_id, output.status]),
  }];
  await add.invoke(call("c1", "add", { a: 1, b: 2 }), { callbacks });
  await add.invoke(call("c2", "add", { a: 1 }), { callbacks });
  await awaitAllCallbacks();
  assert.deepEqual(events, [
    ["start", "add", '{"a":1,"b":2}'], ["end", "c1", "success"],
    ["start", "add", '{"a":1}'], ["end", "c2", "error"],
  ]);
});

test("langchain: invoked with the arguments alone, a tool resolves to the text the model would read", async () => {
  const { b, calls } = branchWithTools();
  const [add] = langchainTools(b);
  assert.equal(await add.invoke({ a: "4", b: 5 }), '{"sum":9}');
  const refused = await add.invoke({ a: "four", b: 5 });
  assert.equal(typeof refused, "string");
  assert.match(refused, /tool "add"/);
  assert.match(refused, /field \/a: expected integer/);
  assert.deepEqual(calls, [{ a: 4, b: 5 }]);
});

test("langchain: a call the caller's signal cancels rejects with the signal's reason", async () => {
  let started;
  const running = new Promise((resolve) => (started = resolve));
  const stuck = tg.tool({ name: "stuck", parameters: { type: "object", properties: {} }, handler: () => { started(); return new Promise(() => {}); } });
  const [tool] = langchainTools(tg.branch({ tools: [stuck] }));
  const controller = new AbortController();
  const pending = tool.invoke(call("c1", "stuck", {}), { signal: controller.signal });
  await running;
  const reason = new Error("user stop");
  controller.abort(reason);
  await assert.rejects(pending, (e) => e === reason);
});

test("langchain: langchainTools refuses what is not a branch, unknown options and an unknown target", () => {
  expectCode(assert, () => langchainTools(null), "unsupported-type");
  expectCode(assert, () => langchainTools(tg.branch(), { strict: true }), "unsupported-type");
  expectCode(assert, () => langchainTools(tg.branch(), { target: "cohere" }), "unsupported-type");
});

test("langchain: the entry loads with require() too, and builds the same tools", async () => {
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const { b } = branchWithTools();
  const cjs = require("toolgate/langchain").langchainTools(b);
  assert.deepEqual(cjs.map((t) => t.name), langchainTools(b).map((t) => t.name));
  const msg = await cjs[0].invoke(call("c1", cjs[0].name, { a: 1, b: "2" }));
  assert.equal(msg.content, '{"sum":3}');
  assert.equal(msg.tool_call_id, "c1");
});

test("langchain: the tool's runtime context reaches the handler, and toModelOutput shapes the ToolMessage", async () => {
  const seen = [];
  const report = tg.tool({
    name: "report",
    parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    handler: ({ q }, call) => (seen.push(call.context), { summary: `rows for ${q}`, rows: [1, 2] }),
    toModelOutput: (r) => r.summary,
  });
  const [t] = langchainTools(tg.branch({ tools: [report] }));
  const msg = await t.invoke({ id: "c1", name: "report", args: { q: "x" }, type: "tool_call" }, { context: { user: "ann" } });
  assert.ok(ToolMessage.isInstance(msg));
  assert.equal(msg.content, "rows for x");
  assert.equal(msg.tool_call_id, "c1");
  assert.deepEqual(seen, [{ user: "ann" }]);
});

test("toolCallStream through LangChain's stream: tool_call_chunks accumulated, a refusal before the chunks end", async () => {
  const { AIMessageChunk } = await import("@langchain/core/messages");
  const b = tg.branch({ tools: [tg.tool({ name: "add", parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] }, handler: ({ a, b }) => a + b })] });
  const acc = tg.toolCallStream(b);
  const chunks = [
    new AIMessageChunk({ content: "", tool_call_chunks: [{ id: "t1", name: "add", args: '{"a": 1', index: 0 }] }),
    new AIMessageChunk({ content: "", tool_call_chunks: [{ args: ', "b": "two"', index: 0 }] }),
    new AIMessageChunk({ content: "", tool_call_chunks: [{ args: "}", index: 0 }] }),
  ];
  const found = chunks.map((c) => acc.push(c));
  assert.equal(acc.provider, "langchain");
  assert.deepEqual(found[0], []);
  assert.equal(found[1].length, 1, "refused once \"two\" is whole: no integer is spelled so, and lax conversion cannot make one");
  assert.equal(found[1][0].error.issues[0].path, "/b");
  assert.equal(found[1][0].complete, false);
  assert.deepEqual(found[2], []);
  assert.deepEqual(acc.end(), [], "each call refused once");
  assert.deepEqual(acc.calls().map((c) => [c.id, c.function, c.arguments]), [["t1", "add", { a: 1, b: "two" }]]);
});

test("langchain: the model's tool_search call reveals a deferred tool, which langchainTools(b) then holds; a denied approval is an error ToolMessage", async () => {
  const ran = [];
  const b = tg.branch({ tools: [tg.tool({ name: "now", parameters: { type: "object", properties: {} }, handler: () => "15:00" })] });
  b.register(tg.tool({
    name: "wipe_disk",
    description: "Erases a disk.",
    parameters: { type: "object", properties: { disk: { type: "string" } }, required: ["disk"] },
    handler: ({ disk }) => (ran.push(disk), "wiped"),
    requireApproval: true,
    approve: (req) => (req.context?.admin ? true : { approved: false, reason: "admins only" }),
  }), { defer: true });
  const names = () => langchainTools(b).map((t) => t.name).sort();
  assert.deepEqual(names(), ["now", "tool_search"]);
  const search = langchainTools(b).find((t) => t.name === "tool_search");
  const found = await search.invoke({ id: "s1", name: "tool_search", args: { query: "erase disk" }, type: "tool_call" });
  assert.match(String(found.content), /wipe_disk/);
  assert.deepEqual(names(), ["now", "tool_search", "wipe_disk"], "bound again after the search, the revealed tool is there");
  const wipe = langchainTools(b).find((t) => t.name === "wipe_disk");
  const denied = await wipe.invoke({ id: "w1", name: "wipe_disk", args: { disk: "sda" }, type: "tool_call" }, { context: { admin: false } });
  assert.equal(denied.status, "error");
  assert.match(String(denied.content), /policy-denied[\s\S]*admins only/);
  const ok = await wipe.invoke({ id: "w2", name: "wipe_disk", args: { disk: "sdb" }, type: "tool_call" }, { context: { admin: true } });
  assert.equal(ok.content, "wiped");
  assert.deepEqual(ran, ["sdb"]);
});
