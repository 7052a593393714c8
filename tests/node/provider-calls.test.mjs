// Calls in and results out, from the packed package: tg.parseToolCalls replays the shared
// fixtures (tests/fixtures/providers/responses, also replayed by Go), and round trips
// parseToolCalls → b.invoke → tg.toolResult for each provider.
import { test } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { tg, tgCore, fixtures, expectCode } from "./helpers.mjs";

/** A fixture's expected calls, their {"$bigint"} spelling revived as BigInts. */
const revive = (v) => JSON.parse(JSON.stringify(v), tg.reviveRecord);

for (const { file, data } of fixtures("providers/responses")) {
  for (const c of data.cases) {
    test(`parseToolCalls fixture ${file}: ${c.name}`, () => {
      if (c.error) {
        const err = expectCode(assert, () => tg.parseToolCalls(c.response), c.error);
        if (c.keyword) assert.equal(err.issues?.[0]?.keyword, c.keyword, err.message);
        return;
      }
      const response = c.responseText ?? c.response; // the text keeps big integers exact
      assert.deepEqual(tg.parseToolCalls(response), revive(c.calls));
      assert.deepEqual(tgCore.parseToolCalls(typeof response === "string" ? response : JSON.stringify(response)), revive(c.calls), "core build, JSON text");
    });
  }
}

const weatherSchema = {
  type: "object",
  properties: { city: { type: "string" }, unit: { type: "string", enum: ["celsius", "fahrenheit"] } },
  required: ["city"],
};

/** A branch with get_weather (answers an object), search (answers text) and now (no parameters). */
function weatherBranch() {
  const getWeather = tg.tool({ name: "get_weather", parameters: weatherSchema, handler: ({ city }) => ({ city, temperature: 18 }) });
  const search = tg.tool({ name: "search", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, handler: ({ q }) => `results for ${q}` });
  const now = tg.tool({ name: "now", parameters: { type: "object", properties: {} }, handler: () => "2026-12-01T15:00:00Z" });
  return tg.branch({ tools: [getWeather, search, now] });
}

/** The first case of a responses fixture file. */
function firstResponse(file) {
  return fixtures("providers/responses").find((f) => f.file === file).data.cases[0].response;
}

/** Invokes every call; a refusal (what match throws) is kept as the error. */
async function invokeAll(b, calls) {
  const out = [];
  for (const call of calls) {
    try {
      out.push(await b.invoke(call));
    } catch (e) {
      out.push(e);
    }
  }
  return out;
}

test("round trip: OpenAI Chat completion → invoke → tool messages", async () => {
  const b = weatherBranch();
  const calls = tg.parseToolCalls(firstResponse("openai-chat.json"));
  const done = await invokeAll(b, calls);
  assert.equal(done[0].callId, calls[0].id);
  const one = tg.toolResult(done[0], "openai-chat");
  assert.deepEqual(one, { role: "tool", tool_call_id: calls[0].id, content: '{"city":"Paris","temperature":18}' });
  const all = tg.toolResult(done, "openai-chat");
  assert.deepEqual(all.map((m) => m.tool_call_id), calls.map((c) => c.id));
  assert.ok(all.every((m) => m.role === "tool" && typeof m.content === "string"));
});

test("round trip: Responses output → invoke → function_call_output items", async () => {
  const b = weatherBranch();
  const calls = tg.parseToolCalls(firstResponse("openai-responses.json"));
  assert.equal(calls.length, 2);
  const done = await invokeAll(b, calls);
  const items = tg.toolResult(done, "openai-responses");
  assert.deepEqual(items[1], { type: "function_call_output", call_id: "call_2Lm4nB6vC8xZ0qW1eR3tY5uI", output: '{"city":"Tokyo","temperature":18}' });
  assert.equal(items.length, 2);
});

test("round trip: Anthropic message → invoke → one user message of tool_result blocks", async () => {
  const b = weatherBranch();
  const calls = tg.parseToolCalls(firstResponse("anthropic.json"));
  const done = await invokeAll(b, calls);
  const msg = tg.toolResult(done, "anthropic");
  assert.equal(msg.role, "user");
  assert.deepEqual(msg.content[0], { type: "tool_result", tool_use_id: "toolu_01A09q90qw90lq917835lq9", content: '{"city":"Paris","temperature":18}' });
  assert.ok(msg.content.every((blk) => !("is_error" in blk)), "is_error only on failure");
});

test("round trip: Gemini response → invoke → functionResponse parts", async () => {
  const b = weatherBranch();
  const calls = tg.parseToolCalls(firstResponse("gemini.json"));
  const done = await invokeAll(b, calls);
  const content = tg.toolResult(done, "gemini");
  assert.equal(content.role, "user");
  assert.deepEqual(content.parts[0], { functionResponse: { id: "fc-7f3c1a2b", name: "get_weather", response: { output: { city: "Paris", temperature: 18 } } } });
  const noId = await b.invoke(tg.parseToolCalls({ functionCall: { name: "search", args: { q: "x" } } })[0]);
  assert.deepEqual(tg.toolResult(noId, "gemini"), { functionResponse: { name: "search", response: { output: "results for x" } } });
});

test("a validation failure is formatted back, naming the tool, the field and the rule", async () => {
  const b = weatherBranch();
  const [call] = tg.parseToolCalls({ type: "tool_use", id: "toolu_bad", name: "get_weather", input: { city: 7, unit: "kelvin" } });
  let err;
  try {
    await b.invoke(call);
  } catch (e) {
    err = e;
  }
  assert.ok(tg.ToolgateError.isInstance(err));
  assert.equal(err.code, "invalid-arguments");
  assert.equal(err.callId, "toolu_bad");
  assert.equal(err.tool, "get_weather");
  const blk = tg.toolResult(err, "anthropic");
  assert.equal(blk.type, "tool_result");
  assert.equal(blk.tool_use_id, "toolu_bad");
  assert.equal(blk.is_error, true);
  for (const issue of err.issues) {
    assert.ok(blk.content.includes(issue.path), `${issue.path} in ${blk.content}`);
    assert.ok(blk.content.includes(`"${issue.keyword}"`), `${issue.keyword} in ${blk.content}`);
  }
  assert.ok(blk.content.includes('"get_weather"'));
  const r = b.validate(call);
  assert.equal(r.ok, false);
  assert.equal(r.error.callId, "toolu_bad");
  const gem = tg.toolResult(r.error, "gemini");
  assert.equal(typeof gem.functionResponse.response.error, "string");
  assert.ok(!("output" in gem.functionResponse.response));
});

test("a call with malformed argument JSON fails on invoke with invalid-arguments and its call id", async () => {
  const b = weatherBranch();
  const calls = tg.parseToolCalls({ role: "assistant", content: null, tool_calls: [{ id: "call_cut", type: "function", function: { name: "get_weather", arguments: '{"city":"Par' } }] });
  assert.equal(calls[0].arguments, '{"city":"Par');
  let err;
  try {
    await b.invoke(calls[0]);
  } catch (e) {
    err = e;
  }
  assert.equal(err?.code, "invalid-arguments");
  assert.equal(err.callId, "call_cut");
  assert.equal(err.issues[0].keyword, "json");
  assert.match(err.message, /byte \d+/);
  const msg = tg.toolResult(err, "openai-chat");
  assert.equal(msg.tool_call_id, "call_cut");
  assert.ok(msg.content.includes('"json"'));
});

test("a BigInt response is written with its exact digits", async () => {
  const big = tg.tool({ name: "big", parameters: { type: "object", properties: { n: { type: "integer" } } }, handler: ({ n }) => ({ n, next: BigInt(n) + 1n }) });
  const b = tg.branch({ tools: [big] });
  const [call] = tg.parseToolCalls({ type: "function_call", call_id: "call_big", name: "big", arguments: '{"n":12345678901234567890}' });
  assert.equal(call.arguments.n, 12345678901234567890n);
  const fc = await b.invoke(call);
  assert.equal(fc.status, "completed");
  assert.equal(tg.toolResult(fc, "openai-responses").output, '{"n":12345678901234567890,"next":12345678901234567891}');
  assert.deepEqual(tg.toolResult(fc, "gemini").functionResponse.response.output, { n: "12345678901234567890", next: "12345678901234567891" });
  const fromObject = tg.parseToolCalls({ type: "tool_use", id: "t", name: "big", input: { n: 98765432109876543210n } });
  assert.equal(fromObject[0].arguments.n, 98765432109876543210n);
});

test("a handler failure and a string response", async () => {
  const boom = tg.tool({ name: "boom", parameters: { type: "object", properties: {} }, handler: () => { throw new RangeError("out of range"); } });
  const b = tg.branch({ tools: [boom] });
  const fc = await b.invoke({ id: "call_boom", function: "boom", arguments: {}, provider: "openai-chat" });
  assert.equal(fc.status, "failed");
  const mcp = tg.toolResult(fc, "mcp");
  assert.equal(mcp.isError, true);
  assert.ok(mcp.content[0].text.includes("RangeError: out of range"));
  assert.ok(mcp.content[0].text.includes('"boom"'));
});

test("toolResult refuses what it cannot write", async () => {
  const b = weatherBranch();
  const [gem] = tg.parseToolCalls({ functionCall: { name: "now" } });
  assert.equal(gem.id, null);
  const fc = await b.invoke(gem);
  const err = expectCode(assert, () => tg.toolResult(fc, "openai-chat"), "invalid-request");
  assert.equal(err.tool, "now");
  expectCode(assert, () => tg.toolResult(fc, "anthropic"), "invalid-request");
  expectCode(assert, () => tg.toolResult(fc, "mistral"), "invalid-request");
  expectCode(assert, () => tg.toolResult(fc, undefined), "invalid-request");
  expectCode(assert, () => tg.toolResult({ status: "completed" }, "mcp"), "invalid-request");
  expectCode(assert, () => tg.toolResult([], "anthropic"), "invalid-request");
  const pending = b.match({ id: "call_p", function: "now", arguments: {}, provider: "openai-chat" });
  assert.equal(pending.callId, "call_p");
  expectCode(assert, () => tg.toolResult(pending, "openai-chat"), "invalid-request");
  const cyclic = tg.tool({ name: "cyclic", parameters: { type: "object", properties: {} }, handler: () => { const o = {}; o.self = o; return o; } });
  const c = await tg.branch({ tools: [cyclic] }).invoke({ id: "call_c", function: "cyclic", arguments: {}, provider: "anthropic" });
  expectCode(assert, () => tg.toolResult(c, "anthropic"), "unsupported-type");
});

test("parseToolCalls refuses a value that is no provider response", () => {
  for (const v of [undefined, 7, null, "not json", { weather: "sunny" }, { function: "add", arguments: {} }, () => 1]) {
    expectCode(assert, () => tg.parseToolCalls(v), "invalid-request");
  }
  assert.deepEqual(tg.parseToolCalls([]), []);
});

test("the call id travels in the LionAGI shape, and its errors carry it", () => {
  const b = weatherBranch();
  const fc = b.match({ id: "call_l", function: "get_weather", arguments: { city: "Oslo" } });
  assert.equal(fc.callId, "call_l");
  const err = expectCode(assert, () => b.match({ id: "call_n", function: "nope", arguments: {} }), "tool-not-found");
  assert.equal(err.callId, "call_n");
  assert.deepEqual(tg.toolResult(err, "openai-chat").tool_call_id, "call_n");
  expectCode(assert, () => b.match({ id: "call_e", function: "now", arguments: "", provider: "anthropic" }), "invalid-arguments");
  assert.deepEqual(b.match({ id: "call_e", function: "now", arguments: "", provider: "openai-responses" }).arguments, {});
  expectCode(assert, () => b.match({ function: "now", arguments: "" }), "invalid-request");
});

/** A mock transport for an SDK's `fetch` option answering one server-sent event stream of `events` ({event?, data}). */
function sseTransport(events) {
  return async () => {
    const text = events.map(({ event, data }) => `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`).join("");
    return new Response(text, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}

/** Refuses every piece of a stream with invalid-request and keyword "streamed", never answering [] for one. */
function assertPiecesRefused(pieces) {
  assert.ok(pieces.length > 2);
  for (const p of pieces) {
    const err = expectCode(assert, () => tg.parseToolCalls(p), "invalid-request");
    assert.equal(err.issues[0].keyword, "streamed", err.message);
  }
  const err = expectCode(assert, () => tg.parseToolCalls(pieces), "invalid-request");
  assert.equal(err.issues[0].keyword, "streamed", err.message);
}

const chatChunk = (delta, finish = null) => ({ id: "chatcmpl-s", object: "chat.completion.chunk", created: 1764600000, model: "gpt-5", choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });

test("an OpenAI Chat stream: each chunk is refused, finalChatCompletion() gives the calls", async () => {
  const chunks = [
    chatChunk({ role: "assistant", content: null, tool_calls: [{ index: 0, id: "call_s1", type: "function", function: { name: "get_weather", arguments: "" } }] }),
    chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"city":' } }] }),
    chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"Paris"}' } }] }),
    chatChunk({}, "tool_calls"),
  ];
  const client = new OpenAI({ apiKey: "sk-test", fetch: sseTransport([...chunks.map((data) => ({ data })), { data: "[DONE]" }]), maxRetries: 0 });
  const stream = client.chat.completions.stream({ model: "gpt-5", messages: [{ role: "user", content: "Paris?" }] });
  const seen = [];
  for await (const chunk of stream) seen.push(chunk);
  assertPiecesRefused(seen);
  const final = await stream.finalChatCompletion();
  const want = [{ id: "call_s1", function: "get_weather", arguments: { city: "Paris" }, provider: "openai-chat" }];
  assert.deepEqual(tg.parseToolCalls(final), want);
  assert.deepEqual(tg.parseToolCalls(final.choices[0].message), want);
  assert.deepEqual(tg.parseToolCalls(await stream.finalMessage()), want);
});

test("an OpenAI Responses stream: each event is refused, finalResponse() gives the calls", async () => {
  const item = { id: "fc_s1", type: "function_call", status: "completed", arguments: '{"city":"Paris"}', call_id: "call_r1", name: "get_weather" };
  const base = { id: "resp_s", object: "response", created_at: 1764600000, model: "gpt-5", output: [], parallel_tool_calls: true, tool_choice: "auto", tools: [], error: null, incomplete_details: null, instructions: null, metadata: {}, temperature: 1, top_p: 1 };
  const events = [
    { type: "response.created", response: { ...base, status: "in_progress" } },
    { type: "response.in_progress", response: { ...base, status: "in_progress" } },
    { type: "response.output_item.added", output_index: 0, item: { ...item, status: "in_progress", arguments: "" } },
    { type: "response.function_call_arguments.delta", item_id: "fc_s1", output_index: 0, delta: '{"city":' },
    { type: "response.function_call_arguments.delta", item_id: "fc_s1", output_index: 0, delta: '"Paris"}' },
    { type: "response.function_call_arguments.done", item_id: "fc_s1", output_index: 0, name: "get_weather", arguments: '{"city":"Paris"}' },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: { ...base, status: "completed", output: [item] } },
  ].map((e, i) => ({ ...e, sequence_number: i }));
  const client = new OpenAI({ apiKey: "sk-test", fetch: sseTransport(events.map((data) => ({ event: data.type, data }))), maxRetries: 0 });
  const stream = client.responses.stream({ model: "gpt-5", input: "Paris?" });
  const seen = [];
  for await (const ev of stream) seen.push(ev);
  assertPiecesRefused(seen);
  const want = [{ id: "call_r1", function: "get_weather", arguments: { city: "Paris" }, provider: "openai-responses" }];
  assert.deepEqual(tg.parseToolCalls(await stream.finalResponse()), want);
  assert.deepEqual(tg.parseToolCalls(seen.at(-1).response), want, "the response.completed event's response");
});

test("an Anthropic stream: each event is refused, finalMessage() gives the calls", async () => {
  const message = { id: "msg_s", type: "message", role: "assistant", model: "claude-sonnet-5", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } };
  const events = [
    { type: "message_start", message },
    { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_s1", name: "get_weather", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"city": ' } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"Paris"}' } },
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 20 } },
    { type: "message_stop" },
  ];
  const client = new Anthropic({ apiKey: "sk-ant-test", fetch: sseTransport(events.map((data) => ({ event: data.type, data }))), maxRetries: 0 });
  const stream = client.messages.stream({ model: "claude-sonnet-5", max_tokens: 100, messages: [{ role: "user", content: "Paris?" }] });
  const seen = [];
  const snapshots = [];
  for await (const ev of stream) {
    seen.push(ev);
    if (ev.type === "content_block_delta") snapshots.push(JSON.parse(JSON.stringify(stream.currentMessage)));
  }
  assertPiecesRefused(seen);
  for (const snap of snapshots) {
    const err = expectCode(assert, () => tg.parseToolCalls(snap), "invalid-request");
    assert.equal(err.issues[0].keyword, "streamed", "a snapshot still streaming (its tool_use input half parsed)");
  }
  assert.deepEqual(tg.parseToolCalls(await stream.finalMessage()), [{ id: "toolu_s1", function: "get_weather", arguments: { city: "Paris" }, provider: "anthropic" }]);
});

test("a Gemini stream: each chunk is a whole GenerateContentResponse and is read", async () => {
  const chunk = (parts, finishReason) => ({ candidates: [{ content: { role: "model", parts }, index: 0, ...(finishReason ? { finishReason } : {}) }], modelVersion: "gemini-3-flash" });
  const chunks = [chunk([{ text: "Looking." }]), chunk([{ functionCall: { name: "get_weather", args: { city: "Paris" } } }], "STOP")];
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { fetch: sseTransport(chunks.map((data) => ({ data }))) } });
  const calls = [];
  for await (const r of await ai.models.generateContentStream({ model: "gemini-3-flash", contents: "Paris?" })) calls.push(...tg.parseToolCalls(r));
  assert.deepEqual(calls, [{ id: null, function: "get_weather", arguments: { city: "Paris" }, provider: "gemini" }]);
});

test("a LangChain AIMessage instance is read as it is, and its results go back as OpenAI Chat tool messages", async (t) => {
  let lc;
  try {
    lc = await import("@langchain/core/messages");
  } catch {
    t.skip("@langchain/core is not installed (the shared fixture providers/responses/langchain.json holds what 1.4.0 writes)");
    return;
  }
  const msg = new lc.AIMessage({ content: "", tool_calls: [{ id: "call_lc", name: "get_weather", args: { city: "Oslo" } }] });
  const calls = tg.parseToolCalls(msg);
  assert.deepEqual(calls, [{ id: "call_lc", function: "get_weather", arguments: { city: "Oslo" }, provider: "openai-chat" }]);
  assert.deepEqual(tg.parseToolCalls(msg.tool_calls.map((c) => ({ ...c, type: "tool_call" }))), calls);
  assert.deepEqual(tg.parseToolCalls(new lc.AIMessage("No tools needed.")), []);
  const fc = await weatherBranch().invoke(calls[0]);
  const back = lc.coerceMessageLikeToMessage(tg.toolResult(fc, "openai-chat"));
  assert.equal(back.getType(), "tool");
  assert.equal(back.tool_call_id, "call_lc");
  const piece = new lc.AIMessageChunk({ content: "", tool_call_chunks: [{ id: "call_lc", name: "get_weather", args: '{"city":', index: 0, type: "tool_call_chunk" }] });
  const err = expectCode(assert, () => tg.parseToolCalls(piece), "invalid-request");
  assert.equal(err.issues[0].keyword, "streamed");
});

test("a refusal serialises with its name, code, message and data, never its stack or cause", async () => {
  const b = weatherBranch();
  const bad = { id: "call_bad", function: "get_weather", arguments: { city: 7 }, provider: "openai-chat" };
  for (const verdict of [b.validate(bad), (b._jsEvaluator = false, b.validate(bad))]) {
    assert.equal(verdict.ok, false);
    const json = JSON.parse(JSON.stringify(verdict));
    assert.deepEqual(Object.keys(json.error).slice(0, 3), ["name", "code", "message"]);
    assert.equal(json.error.name, "ToolgateError");
    assert.equal(json.error.code, "invalid-arguments");
    assert.equal(json.error.message, verdict.error.message);
    assert.ok(json.error.message.length > 0);
    assert.equal(json.error.tool, "get_weather");
    assert.equal(json.error.callId, "call_bad");
    assert.equal(json.error.issues[0].path, "/city");
    assert.ok(!("stack" in json.error) && !("cause" in json.error));
  }
  const mine = new tg.ToolgateError("transport", "gone", { cause: new Error("secret /home/me"), transport: { httpStatus: 502 } });
  assert.deepEqual(JSON.parse(JSON.stringify(mine)), { name: "ToolgateError", code: "transport", message: "gone", transport: { httpStatus: 502 } });
  const thrown = expectCode(assert, () => b.match({ id: "call_n", function: "nope", arguments: {} }), "tool-not-found");
  assert.equal(JSON.parse(JSON.stringify(thrown)).message, thrown.message);
});
