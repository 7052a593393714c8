// The SDK adapters, driven by each SDK's own agent loop with a mock model: the AI SDK's
// generateText with MockLanguageModelV4, and Agents JS's run() with a Model of our own.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generateText, streamText, stepCountIs } from "ai";
import { MockLanguageModelV4, convertArrayToReadableStream } from "ai/test";
import { Agent, run, Usage } from "@openai/agents";
import { toolSet } from "toolgate/ai-sdk";
import { agentTools } from "toolgate/openai-agents";
import { tg, expectCode } from "./helpers.mjs";

/** A branch with a typed tool that records its calls, and a tool whose result holds a BigInt. */
function branchWithTools() {
  const calls = [];
  const add = tg.tool({
    name: "add",
    description: "Adds two integers.",
    parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] },
    handler: ({ a, b }) => {
      calls.push({ a, b });
      return { sum: a + b };
    },
  });
  const note = tg.tool({
    name: "notes.save",
    description: "Saves a note.",
    parameters: { type: "object", properties: { text: { type: "string" }, tag: { type: "string" } }, required: ["text"] },
    handler: (args) => {
      calls.push(args);
      return "saved";
    },
  });
  const big = tg.tool({ name: "big", parameters: { type: "object", properties: {} }, handler: () => ({ n: 2n ** 64n + 1n }) });
  const boom = tg.tool({ name: "boom", parameters: { type: "object", properties: {} }, handler: () => { throw new Error("disk full"); } });
  return { b: tg.branch({ tools: [add, note, big, boom] }), calls };
}

// --- AI SDK ---------------------------------------------------------------------------------

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
const toolCall = (id, toolName, input) => ({ type: "tool-call", toolCallId: id, toolName, input: JSON.stringify(input) });
const toolStep = (...calls) => ({ content: calls, finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage, warnings: [] });
const textStep = (text) => ({ content: [{ type: "text", text }], finishReason: { unified: "stop", raw: "stop" }, usage, warnings: [] });

/** The tool results of the prompt a mock model call received: [{toolCallId, toolName, output}]. */
function toolResultsOf(callOptions) {
  return callOptions.prompt.filter((m) => m.role === "tool").flatMap((m) => m.content).filter((p) => p.type === "tool-result");
}

test("ai-sdk: generateText runs the tool through the branch, and its result reaches the next model call", async () => {
  const { b, calls } = branchWithTools();
  const model = new MockLanguageModelV4({ doGenerate: [toolStep(toolCall("c1", "add", { a: 2, b: 3 })), textStep("5")] });
  const result = await generateText({ model, tools: toolSet(b), stopWhen: stepCountIs(3), prompt: "2 + 3?" });
  assert.equal(result.text, "5");
  assert.deepEqual(calls, [{ a: 2, b: 3 }]);
  // the tools reached the model as the export wrote them
  const sent = model.doGenerateCalls[0].tools.find((t) => t.name === "add");
  assert.equal(sent.description, "Adds two integers.");
  assert.deepEqual(sent.inputSchema.required, ["a", "b"]);
  assert.equal(JSON.stringify(sent.inputSchema).includes("null"), false);
  const [r] = toolResultsOf(model.doGenerateCalls[1]);
  assert.equal(r.toolCallId, "c1");
  assert.deepEqual(r.output, { type: "json", value: { sum: 5 } });
});

test("ai-sdk: a call that fails validation reaches the model as a tool error with toolgate's issues, and the loop goes on", async () => {
  const { b, calls } = branchWithTools();
  const model = new MockLanguageModelV4({
    doGenerate: [toolStep(toolCall("c1", "add", { a: "two" })), toolStep(toolCall("c2", "add", { a: 2, b: 2 })), textStep("4")],
  });
  const result = await generateText({ model, tools: toolSet(b), stopWhen: stepCountIs(3), prompt: "2 + 2?" });
  assert.equal(result.text, "4");
  assert.deepEqual(calls, [{ a: 2, b: 2 }]); // the invalid call never ran
  const [r] = toolResultsOf(model.doGenerateCalls[1]);
  assert.equal(r.toolCallId, "c1");
  assert.equal(r.output.type, "error-text");
  assert.match(r.output.value, /field \/a: expected integer, but got string/);
  assert.match(r.output.value, /field \/b is required but missing/);
  assert.match(r.output.value, /tool "add"/);
});

test("ai-sdk: a handler's error and a BigInt result reach the model; the loop goes on", async () => {
  const { b } = branchWithTools();
  const model = new MockLanguageModelV4({ doGenerate: [toolStep(toolCall("c1", "big", {}), toolCall("c2", "boom", {})), textStep("done")] });
  const result = await generateText({ model, tools: toolSet(b), stopWhen: stepCountIs(3), prompt: "go" });
  assert.equal(result.text, "done");
  const [big, boom] = toolResultsOf(model.doGenerateCalls[1]);
  assert.deepEqual(big.output, { type: "text", value: '{"n":18446744073709551617}' }); // exact digits
  assert.equal(boom.output.type, "error-text");
  assert.match(boom.output.value, /disk full/);
});

test("ai-sdk: streamText validates and runs streamed tool calls the same way", async () => {
  const { b, calls } = branchWithTools();
  const finish = (unified) => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
  const stream = (...parts) => ({ stream: convertArrayToReadableStream(parts) });
  const model = new MockLanguageModelV4({
    doStream: [
      stream({ ...toolCall("c1", "add", { a: "x" }) }, finish("tool-calls")),
      stream({ ...toolCall("c2", "add", { a: 1, b: 2 }) }, finish("tool-calls")),
      stream({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: "3" }, { type: "text-end", id: "t" }, finish("stop")),
    ],
  });
  const result = streamText({ model, tools: toolSet(b), stopWhen: stepCountIs(4), prompt: "1 + 2?" });
  assert.equal(await result.text, "3");
  assert.deepEqual(calls, [{ a: 1, b: 2 }]);
  const [refused] = toolResultsOf(model.doStreamCalls[1]);
  assert.equal(refused.output.type, "error-text");
  assert.match(refused.output.value, /field \/a: expected integer, but got string/);
  assert.deepEqual(toolResultsOf(model.doStreamCalls[2])[1].output, { type: "json", value: { sum: 3 } });
});

test("ai-sdk: a name the provider refuses is exported rewritten, and its calls reach the registered tool", async () => {
  const { b, calls } = branchWithTools();
  const tools = toolSet(b);
  const name = Object.keys(tools).find((k) => k.startsWith("notes_save"));
  assert.match(name, /^[a-zA-Z0-9_-]{1,64}$/);
  assert.equal(tools["notes.save"], undefined);
  const model = new MockLanguageModelV4({ doGenerate: [toolStep(toolCall("c1", name, { text: "hi" })), textStep("ok")] });
  await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "save hi" });
  assert.deepEqual(calls, [{ text: "hi" }]);
  assert.deepEqual(toolResultsOf(model.doGenerateCalls[1])[0].output, { type: "text", value: "saved" });
});

test("ai-sdk: strict mode sends OpenAI strict schemas, and the nulls it introduced never reach the handler", async () => {
  const { b, calls } = branchWithTools();
  const tools = toolSet(b, { strict: true });
  const name = Object.keys(tools).find((k) => k.startsWith("notes_save"));
  assert.equal(tools[name].strict, true);
  const model = new MockLanguageModelV4({ doGenerate: [toolStep(toolCall("c1", name, { text: "hi", tag: null })), textStep("ok")] });
  await generateText({ model, tools, stopWhen: stepCountIs(3), prompt: "save hi" });
  const sent = model.doGenerateCalls[0].tools.find((t) => t.name === name);
  assert.equal(sent.strict, true);
  assert.equal(sent.inputSchema.additionalProperties, false);
  assert.deepEqual(sent.inputSchema.required, ["text", "tag"]);
  assert.deepEqual(calls, [{ text: "hi" }]); // tag: null was strict mode's, and is gone
});

test("ai-sdk: toolSet refuses what is not a branch, and unknown options", () => {
  expectCode(assert, () => toolSet({}), "unsupported-type");
  expectCode(assert, () => toolSet(tg.branch(), { nope: 1 }), "unsupported-type");
  expectCode(assert, () => toolSet(tg.branch(), { target: "cohere" }), "unsupported-type");
});

// --- OpenAI Agents JS -----------------------------------------------------------------------

/** A Model that answers from a script and records every request (the Agents JS Model interface). */
class ScriptModel {
  constructor(steps) {
    this.steps = steps;
    this.requests = [];
  }
  async getResponse(request) {
    this.requests.push(request);
    const output = this.steps.shift();
    if (!output) throw new Error("the script ran out");
    return { usage: new Usage(), output, responseId: `r${this.requests.length}` };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error("not streamed in these tests");
  }
}
const fnCall = (callId, name, args) => ({ type: "function_call", callId, name, arguments: typeof args === "string" ? args : JSON.stringify(args), status: "completed" });
const message = (text) => ({ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text }] });

/** The function_call_result items of the input a model request received, by call id. */
function resultsOf(request) {
  const items = Array.isArray(request.input) ? request.input : [];
  return Object.fromEntries(items.filter((i) => i.type === "function_call_result").map((i) => [i.callId, i.output]));
}

test("openai-agents: run() calls the tool through the branch, and its result reaches the next model request", async () => {
  const { b, calls } = branchWithTools();
  const model = new ScriptModel([[fnCall("c1", "add", { a: 2, b: 3 })], [message("5")]]);
  const result = await run(new Agent({ name: "calc", model, tools: agentTools(b) }), "2 + 3?");
  assert.equal(result.finalOutput, "5");
  assert.deepEqual(calls, [{ a: 2, b: 3 }]);
  const sent = model.requests[0].tools.find((t) => t.name === "add");
  assert.equal(sent.type, "function");
  assert.deepEqual(sent.parameters.required, ["a", "b"]);
  assert.deepEqual(resultsOf(model.requests[1]).c1, { type: "text", text: '{"sum":5}' });
});

test("openai-agents: a call that fails validation reaches the model as toolgate's issue text, and the run goes on", async () => {
  const { b, calls } = branchWithTools();
  const model = new ScriptModel([[fnCall("c1", "add", { a: "two" })], [fnCall("c2", "add", { a: 2, b: 2 })], [message("4")]]);
  const result = await run(new Agent({ name: "calc", model, tools: agentTools(b) }), "2 + 2?");
  assert.equal(result.finalOutput, "4");
  assert.deepEqual(calls, [{ a: 2, b: 2 }]);
  const out = resultsOf(model.requests[1]).c1;
  assert.equal(out.type, "text");
  assert.match(out.text, /tool "add"/);
  assert.match(out.text, /field \/a, rule "type": expected integer, but got string/);
  assert.match(out.text, /field \/b, rule "required"/);
});

test("openai-agents: a BigInt result keeps its digits, a handler's failure is text naming the tool", async () => {
  const { b } = branchWithTools();
  const model = new ScriptModel([[fnCall("c1", "big", {}), fnCall("c2", "boom", {})], [message("done")]]);
  const result = await run(new Agent({ name: "calc", model, tools: agentTools(b) }), "go");
  assert.equal(result.finalOutput, "done");
  const out = resultsOf(model.requests[1]);
  assert.equal(out.c1.text, '{"n":18446744073709551617}');
  assert.match(out.c2.text, /boom/);
  assert.match(out.c2.text, /disk full/);
});

test("openai-agents: strict by default (as the SDK's tool()), names the API accepts, and strict's nulls never reach the handler", async () => {
  const { b, calls } = branchWithTools();
  const tools = agentTools(b);
  assert.ok(tools.every((t) => t.strict === true && /^[a-zA-Z0-9_-]{1,64}$/.test(t.name)));
  const name = tools.find((t) => t.name.startsWith("notes_save")).name;
  const model = new ScriptModel([[fnCall("c1", name, { text: "hi", tag: null })], [message("ok")]]);
  await run(new Agent({ name: "notes", model, tools }), "save hi");
  const sent = model.requests[0].tools.find((t) => t.name === name);
  assert.equal(sent.strict, true);
  assert.deepEqual(sent.parameters.required, ["text", "tag"]);
  assert.deepEqual(calls, [{ text: "hi" }]);
  assert.deepEqual(resultsOf(model.requests[1]).c1, { type: "text", text: "saved" });
  assert.ok(agentTools(b, { strict: false }).every((t) => t.strict === false));
});

test("openai-agents: invoke follows OpenAI's rules for the argument text: \"\" is {}, malformed JSON is text naming the byte", async () => {
  const { b } = branchWithTools();
  const [add, , big] = agentTools(b);
  assert.equal(await big.invoke({}, "", { toolCall: fnCall("c1", "big", "") }), '{"n":18446744073709551617}');
  const text = await add.invoke({}, '{"a": 1,', { toolCall: fnCall("c2", "add", '{"a": 1,') });
  assert.match(text, /tool "add"/);
  assert.match(text, /not valid JSON at byte \d+/);
});

test("openai-agents: argument text the SDK cannot parse is an error the model reads, never an interruption, and the run goes on", async () => {
  for (const needsApproval of [false, true]) {
    for (const bad of ['{"a": 1,', ""]) {
      const { b, calls } = branchWithTools();
      const model = new ScriptModel([[fnCall("c1", "add", bad)], [fnCall("c2", "add", { a: 1, b: 2 })], [message("3")]]);
      const agent = new Agent({ name: "calc", model, tools: agentTools(b, { needsApproval }) });
      const result = await run(agent, "1 + 2?");
      if (needsApproval) {
        // only the well-formed call waits for a person
        assert.equal(result.interruptions.length, 1, `needsApproval ${needsApproval}, arguments ${JSON.stringify(bad)}`);
        assert.equal(result.interruptions[0].rawItem.callId, "c2");
        result.state.approve(result.interruptions[0]);
        assert.equal((await run(agent, result.state)).finalOutput, "3");
      } else {
        assert.equal(result.interruptions.length, 0, `arguments ${JSON.stringify(bad)}`);
        assert.equal(result.finalOutput, "3");
      }
      const out = resultsOf(model.requests[1]).c1;
      assert.equal(out.type, "text");
      assert.ok(out.text.length > 0);
      assert.deepEqual(calls, [{ a: 1, b: 2 }]);
    }
  }
});

test("openai-agents: with a per-call policy, argument text the SDK cannot parse goes to a person, and approving it runs nothing", async () => {
  const { b, calls } = branchWithTools();
  const asked = [];
  const model = new ScriptModel([[fnCall("c1", "add", '{"a": 1,')], [message("sorry")]]);
  const agent = new Agent({ name: "calc", model, tools: agentTools(b, { needsApproval: (_rc, input) => { asked.push(input); return false; } }) });
  const first = await run(agent, "1 + 2?");
  assert.equal(first.interruptions.length, 1);
  assert.deepEqual(asked, []); // the SDK does not hand a policy what it could not parse
  first.state.approve(first.interruptions[0]);
  const second = await run(agent, first.state);
  assert.equal(second.finalOutput, "sorry");
  assert.deepEqual(calls, []);
  assert.equal(resultsOf(model.requests[1]).c1.type, "text");
});

test("openai-agents: arguments that parse but are no object reach toolgate, whose text the model reads", async () => {
  const { b, calls } = branchWithTools();
  const model = new ScriptModel([[fnCall("c1", "add", "[1, 2]")], [fnCall("c2", "add", { a: 1, b: 2 })], [message("3")]]);
  const result = await run(new Agent({ name: "calc", model, tools: agentTools(b) }), "1 + 2?");
  assert.equal(result.interruptions.length, 0);
  assert.equal(result.finalOutput, "3");
  const out = resultsOf(model.requests[1]).c1;
  assert.match(out.text, /tool "add"/);
  assert.deepEqual(calls, [{ a: 1, b: 2 }]);
});

test("openai-agents: needsApproval interrupts the run before the handler runs", async () => {
  const { b, calls } = branchWithTools();
  const model = new ScriptModel([[fnCall("c1", "add", { a: 1, b: 1 })], [message("2")]]);
  const agent = new Agent({ name: "calc", model, tools: agentTools(b, { needsApproval: true }) });
  const first = await run(agent, "1 + 1?");
  assert.equal(first.interruptions.length, 1);
  assert.deepEqual(calls, []);
  first.state.approve(first.interruptions[0]);
  const second = await run(agent, first.state);
  assert.equal(second.finalOutput, "2");
  assert.deepEqual(calls, [{ a: 1, b: 1 }]);
});

test("openai-agents: agentTools refuses what is not a branch, and a bad needsApproval", () => {
  expectCode(assert, () => agentTools(null), "unsupported-type");
  expectCode(assert, () => agentTools(tg.branch(), { needsApproval: "yes" }), "unsupported-type");
});

test("both adapters load with require() too, and build the same tools", async () => {
  const { createRequire } = await import("node:module");
  const require = createRequire(import.meta.url);
  const { b } = branchWithTools();
  const cjsSet = require("toolgate/ai-sdk").toolSet(b);
  assert.deepEqual(Object.keys(cjsSet), Object.keys(toolSet(b)));
  assert.equal(await cjsSet.add.execute({ a: 1, b: 2 }, { toolCallId: "c1", messages: [] }).then((r) => r.sum), 3);
  const cjsTools = require("toolgate/openai-agents").agentTools(b);
  assert.deepEqual(cjsTools.map((t) => t.name), agentTools(b).map((t) => t.name));
  assert.equal(await cjsTools[0].invoke({}, '{"a": 1, "b": 2}'), '{"sum":3}');
  expectCode(assert, () => require("toolgate/ai-sdk").toolSet(42), "unsupported-type");
});

/** A branch whose typed tool reads the call's context and shapes what the model is sent. */
function shapedBranch() {
  const seen = [];
  const report = tg.tool({
    name: "report",
    parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    handler: ({ q }, call) => (seen.push(call.context), { summary: `rows for ${q}`, rows: [1, 2, 3], user: call.context?.user }),
    toModelOutput: (r) => r.summary,
  });
  return { b: tg.branch({ tools: [report] }), seen };
}

test("per-call context and toModelOutput through every adapter: the handler sees the SDK's context, the model the shaped output", async () => {
  // AI SDK: execute's options.context (the SDK's per-tool context)
  {
    const { b, seen } = shapedBranch();
    const out = await toolSet(b).report.execute({ q: "x" }, { toolCallId: "c1", messages: [], context: { user: "ann" } });
    assert.equal(out, "rows for x", "the model is sent the shaped output");
    assert.deepEqual(seen, [{ user: "ann" }]);
  }
  // Agents JS: run(agent, input, {context})
  {
    const { b, seen } = shapedBranch();
    const model = new ScriptModel([[fnCall("c1", "report", { q: "y" })], [message("ok")]]);
    await run(new Agent({ name: "r", model, tools: agentTools(b) }), "go", { context: { user: "bob" } });
    assert.deepEqual(seen, [{ user: "bob" }]);
    assert.deepEqual(resultsOf(model.requests[1]).c1, { type: "text", text: "rows for y" });
  }
  // toolResult: the shaped output; the record keeps the whole response
  {
    const { b } = shapedBranch();
    const fc = await b.invoke({ id: "c9", type: "function", function: { name: "report", arguments: '{"q":"z"}' } }, { context: { user: "cy" } });
    assert.deepEqual(tg.toolResult(fc, "openai-chat"), { role: "tool", tool_call_id: "c9", content: "rows for z" });
    assert.deepEqual(fc.toDict().execution.response, { summary: "rows for z", rows: [1, 2, 3], user: "cy" });
    assert.deepEqual(fc.toModelOutput(), "rows for z");
  }
});

test("a toModelOutput hook that throws makes toolResult refuse with invalid-result naming the tool, never quoting the message", async () => {
  const t = tg.tool({ name: "leaky", parameters: { type: "object" }, handler: () => 1, toModelOutput: () => { throw new Error("secret-abc"); } });
  const fc = await tg.branch({ tools: [t] }).invoke({ id: "c1", function: "leaky", arguments: {} });
  assert.equal(fc.status, "completed", "the call itself completed");
  expectCode(assert, () => tg.toolResult(fc, "anthropic"), "invalid-result");
  try {
    tg.toolResult(fc, "anthropic");
  } catch (e) {
    assert.ok(!e.message.includes("secret-abc"));
    assert.match(e.message, /leaky/);
  }
  assert.throws(() => tg.tool({ name: "bad", parameters: { type: "object" }, handler: () => 1, toModelOutput: "summary" }), (e) => e.code === "unsupported-type");
});

test("local approval through the adapters: a denied call never runs, and the model reads why", async () => {
  const ran = [];
  const mk = () => tg.branch({ tools: [tg.tool({
    name: "wipe",
    parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
    handler: ({ path }) => (ran.push(path), "wiped"),
    requireApproval: true,
    approve: (req) => (req.context?.admin ? true : { approved: false, reason: "admins only" }),
  })] });
  // Agents JS: the run goes on with the denial as the tool's output
  const model = new ScriptModel([[fnCall("c1", "wipe", { path: "/a" })], [message("could not")]]);
  await run(new Agent({ name: "w", model, tools: agentTools(mk()) }), "wipe /a", { context: { admin: false } });
  assert.match(resultsOf(model.requests[1]).c1.text, /policy-denied[\s\S]*admins only/);
  // AI SDK: execute throws the denial, which the SDK hands the model as the tool's error
  await assert.rejects(toolSet(mk()).wipe.execute({ path: "/b" }, { toolCallId: "c2", messages: [], context: { admin: false } }), (e) => e.code === "policy-denied" && e.rule === "approval");
  assert.equal(await toolSet(mk()).wipe.execute({ path: "/c" }, { toolCallId: "c3", messages: [], context: { admin: true } }), "wiped");
  assert.deepEqual(ran, ["/c"]);
});

/** A branch with `add` in view and `weather` deferred: only a search brings it to the model. */
function deferredBranch() {
  const ran = [];
  const b = tg.branch({ tools: [tg.tool({ name: "add", parameters: { type: "object", properties: { a: { type: "integer" } } }, handler: () => 1 })] });
  b.register(tg.tool({
    name: "weather",
    description: "Current weather for a city.",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
    handler: ({ city }) => (ran.push(city), `sunny in ${city}`),
  }), { defer: true });
  return { b, ran };
}

test("tool search through the AI SDK: a deferred tool is offered only after the model's search found it, with no glue", async () => {
  const { b, ran } = deferredBranch();
  const model = new MockLanguageModelV4({
    doGenerate: [toolStep(toolCall("c1", "tool_search", { query: "weather" })), toolStep(toolCall("c2", "weather", { city: "Paris" })), textStep("sunny")],
  });
  const result = await generateText({ model, tools: toolSet(b), stopWhen: stepCountIs(4), prompt: "weather in Paris?" });
  assert.equal(result.text, "sunny");
  const names = (i) => model.doGenerateCalls[i].tools.map((t) => t.name).sort();
  assert.deepEqual(names(0), ["add", "tool_search"], "the deferred tool is not offered at first");
  assert.deepEqual(names(1), ["add", "tool_search", "weather"], "offered once the search revealed it");
  assert.deepEqual(ran, ["Paris"]);
});

test("tool search through Agents JS: a deferred tool joins the agent's tools once the model's search found it", async () => {
  const { b, ran } = deferredBranch();
  const model = new ScriptModel([[fnCall("c1", "tool_search", { query: "weather" })], [fnCall("c2", "weather", { city: "Oslo" })], [message("sunny")]]);
  const result = await run(new Agent({ name: "w", model, tools: agentTools(b) }), "weather in Oslo?");
  assert.equal(result.finalOutput, "sunny");
  const names = (i) => model.requests[i].tools.map((t) => t.name).sort();
  assert.deepEqual(names(0), ["add", "tool_search"]);
  assert.deepEqual(names(1), ["add", "tool_search", "weather"]);
  assert.deepEqual(ran, ["Oslo"]);
});

/** A branch whose `add` refuses a string for `a`: what the streams below send. */
function streamBranch() {
  return tg.branch({ tools: [tg.tool({ name: "add", parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"], additionalProperties: false }, handler: ({ a, b }) => a + b })] });
}

test("toolCallStream through the AI SDK's fullStream: a call refused before its input ends", async () => {
  const b = streamBranch();
  const finish = (unified) => ({ type: "finish", finishReason: { unified, raw: unified }, usage });
  const pieces = ['{"a": ', '"x"', ', "b": 2}'];
  const parts = [
    { type: "tool-input-start", id: "c1", toolName: "add" },
    ...pieces.map((delta) => ({ type: "tool-input-delta", id: "c1", delta })),
    { type: "tool-input-end", id: "c1" },
    { type: "tool-call", toolCallId: "c1", toolName: "add", input: pieces.join("") },
    finish("tool-calls"),
  ];
  const model = new MockLanguageModelV4({ doStream: [{ stream: convertArrayToReadableStream(parts) }] });
  const acc = tg.toolCallStream(b);
  const seen = [];
  for await (const part of streamText({ model, tools: toolSet(b), stopWhen: stepCountIs(1), prompt: "add" }).fullStream) {
    for (const r of acc.push(part)) seen.push({ r, after: part.type === "tool-input-delta" ? part.delta : part.type });
  }
  assert.equal(acc.provider, "ai-sdk");
  assert.equal(seen.length, 1);
  assert.equal(seen[0].r.complete, false, "refused before the input ended");
  assert.equal(seen[0].after, '"x"', "as soon as the string was whole: lax conversion makes no integer of it");
  assert.equal(seen[0].r.error.issues[0].path, "/a");
  assert.equal(seen[0].r.error.callId, "c1");
  assert.deepEqual(acc.calls().map((c) => [c.id, c.function, c.arguments]), [["c1", "add", { a: "x", b: 2 }]]);
});

test("toolCallStream through Agents JS's run stream: the raw model events are read", async () => {
  const b = streamBranch();
  const acc = tg.toolCallStream(b);
  const raw = (event) => ({ type: "raw_model_stream_event", data: { type: "model", event } });
  const events = [
    { type: "agent_updated_stream_event", agent: {} },
    raw({ type: "response.output_item.added", output_index: 0, item: { type: "function_call", id: "fc_1", call_id: "call_1", name: "add", arguments: "" } }),
    raw({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: '{"a": 1, "c"' }),
    raw({ type: "response.function_call_arguments.delta", item_id: "fc_1", output_index: 0, delta: ": 2}" }),
    { type: "raw_model_stream_event", data: { type: "output_text_delta", delta: "hi" } },
  ];
  const found = events.flatMap((e) => acc.push(e));
  assert.equal(found.length, 1);
  assert.equal(found[0].error.issues[0].keyword, "additionalProperties");
  assert.equal(found[0].id, "call_1");
  assert.equal(acc.provider, "openai-responses");
});
