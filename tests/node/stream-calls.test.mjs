// tg.toolCallStream: streamed tool calls through each provider's own SDK (a mock transport answers
// with a server-sent-event stream made from the SDK fixtures' first responses, arguments cut in
// small pieces), the accumulated calls equal to parseToolCalls of the whole response, and refusals
// reported before the stream ends, never for a call that ends valid.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { tg, fixture } from "./helpers.mjs";
import { Rng, caseSeed } from "./fuzz/prng.mjs";

const SDK = "providers/sdk";
const { tools: TOOLS } = fixture(SDK, "tools.json").data;

let realFetch;
before(() => {
  realFetch = globalThis.fetch;
  globalThis.fetch = () => {
    throw new Error("no network in the stream tests: a client went past its mock transport");
  };
});
after(() => {
  globalThis.fetch = realFetch;
});

function branch() {
  return tg.branch({ tools: TOOLS.map((t) => tg.tool({ ...t, handler: () => "ok" })) });
}

/** A text cut in pieces of `size` characters. */
function pieces(text, size = 3) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** OpenAI Chat chunks of a whole completion. */
function chatChunks(completion) {
  const base = { id: completion.id, object: "chat.completion.chunk", created: completion.created, model: completion.model };
  const chunk = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish, logprobs: null }] });
  const out = [chunk({ role: "assistant", content: null })];
  completion.choices[0].message.tool_calls.forEach((tc, i) => {
    out.push(chunk({ tool_calls: [{ index: i, id: tc.id, type: "function", function: { name: tc.function.name, arguments: "" } }] }));
    for (const p of pieces(tc.function.arguments)) out.push(chunk({ tool_calls: [{ index: i, function: { arguments: p } }] }));
  });
  out.push(chunk({}, completion.choices[0].finish_reason));
  return out;
}

/** OpenAI Responses stream events of a whole response. */
function responsesEvents(response) {
  let seq = 0;
  const ev = (type, rest) => ({ type, sequence_number: seq++, ...rest });
  const out = [ev("response.created", { response: { ...response, status: "in_progress", output: [] } })];
  response.output.forEach((item, i) => {
    if (item.type !== "function_call") {
      out.push(ev("response.output_item.added", { output_index: i, item }), ev("response.output_item.done", { output_index: i, item }));
      return;
    }
    out.push(ev("response.output_item.added", { output_index: i, item: { ...item, arguments: "" } }));
    for (const p of pieces(item.arguments)) out.push(ev("response.function_call_arguments.delta", { item_id: item.id, output_index: i, delta: p }));
    out.push(ev("response.function_call_arguments.done", { item_id: item.id, output_index: i, arguments: item.arguments }));
    out.push(ev("response.output_item.done", { output_index: i, item }));
  });
  out.push(ev("response.completed", { response }));
  return out;
}

/** Anthropic message stream events of a whole message. */
function anthropicEvents(message) {
  const out = [{ type: "message_start", message: { ...message, content: [], stop_reason: null, stop_sequence: null } }];
  message.content.forEach((block, i) => {
    if (block.type === "tool_use") {
      out.push({ type: "content_block_start", index: i, content_block: { ...block, input: {} } });
      for (const p of pieces(JSON.stringify(block.input))) out.push({ type: "content_block_delta", index: i, delta: { type: "input_json_delta", partial_json: p } });
    } else {
      out.push({ type: "content_block_start", index: i, content_block: { type: "text", text: "" } });
      out.push({ type: "content_block_delta", index: i, delta: { type: "text_delta", text: block.text } });
    }
    out.push({ type: "content_block_stop", index: i });
  });
  out.push({ type: "message_delta", delta: { stop_reason: message.stop_reason, stop_sequence: null }, usage: { output_tokens: 10 } }, { type: "message_stop" });
  return out;
}

/** Gemini stream chunks of a whole response: one part each. */
function geminiChunks(response) {
  const [cand] = response.candidates;
  return cand.content.parts.map((part, i, all) => ({
    candidates: [{ content: { role: "model", parts: [part] }, index: 0, ...(i === all.length - 1 ? { finishReason: "STOP" } : {}) }],
    modelVersion: response.modelVersion,
  }));
}

/** A fetch answering each request with the events as a server-sent-event stream; `named` writes each event's type as its `event:` line. */
function sseTransport(events, { named = false } = {}) {
  const received = [];
  async function fetch(url, init = {}) {
    received.push(String(url));
    const enc = new TextEncoder();
    const body = new ReadableStream({
      start(controller) {
        for (const e of events) controller.enqueue(enc.encode(`${named ? `event: ${e.type}\n` : ""}data: ${JSON.stringify(e)}\n\n`));
        if (!named && !("candidates" in (events[0] ?? {}))) controller.enqueue(enc.encode("data: [DONE]\n\n"));
        controller.close();
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  }
  return { fetch, received };
}

/**
 * Drives one SDK stream through a toolCallStream: each refusal with the number of events seen
 * before it, then the accumulated calls.
 */
async function drive(stream, b) {
  const acc = tg.toolCallStream(b);
  const refusals = [];
  let n = 0;
  for await (const event of stream) {
    n++;
    for (const r of acc.push(event)) refusals.push({ ...r, at: n });
  }
  return { acc, refusals, events: n };
}

/** What every SDK's stream must give: the whole response's calls, the bad `add` refused before its call ended, nothing else refused. */
function assertStream(fx, { acc, refusals }, whole, target) {
  assert.deepEqual(acc.calls(), tg.parseToolCalls(whole), "the accumulated calls are the whole response's");
  const bad = fx.calls.filter((c) => c.error);
  assert.deepEqual(refusals.map((r) => r.function), bad.map((c) => c.function), "each refused call once, no valid call refused");
  for (const [i, r] of refusals.entries()) {
    assert.equal(r.error.code, bad[i].error);
    for (const word of bad[i].mentions) assert.ok(r.error.message.includes(word) || JSON.stringify(r.error.issues).includes(word), `the refusal names ${word}: ${r.error.message}`);
    if (target !== "gemini") {
      if (!bad[i].mentions.includes("json")) assert.equal(r.complete, false, "refused before the call's arguments ended");
      assert.equal(r.id, bad[i].id);
      assert.equal(r.error.callId, bad[i].id, "the refusal carries the call id: toolResult can answer it");
    }
    const answer = tg.toolResult([r.error], target);
    assert.ok(JSON.stringify(answer).includes(bad[i].function), "toolResult answers the refusal");
  }
}

test("openai Chat Completions stream: calls accumulated, the bad call refused mid-stream", async () => {
  const fx = fixture(SDK, "openai-chat.json").data;
  const mock = sseTransport(chatChunks(fx.first));
  const client = new OpenAI({ apiKey: "sk-test", fetch: mock.fetch, maxRetries: 0 });
  const stream = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], tools: tg.toProvider(branch(), "openai-chat").tools, stream: true });
  const run = await drive(stream, branch());
  assert.equal(run.acc.provider, "openai-chat");
  assertStream(fx, run, fx.first, "openai-chat");
  assert.ok(run.refusals[0].at < run.events - 1, "before the finishing chunk");
});

test("openai Responses stream: calls accumulated, the bad call refused before its arguments are done", async () => {
  const fx = fixture(SDK, "openai-responses.json").data;
  const mock = sseTransport(responsesEvents(fx.first), { named: true });
  const client = new OpenAI({ apiKey: "sk-test", fetch: mock.fetch, maxRetries: 0 });
  const stream = await client.responses.create({ model: "o4-mini", input: "hi", tools: tg.toProvider(branch(), "openai-responses").tools, stream: true });
  const run = await drive(stream, branch());
  assert.equal(run.acc.provider, "openai-responses");
  assertStream(fx, run, fx.first, "openai-responses");
});

test("@anthropic-ai/sdk stream: tool_use blocks accumulated, the bad one refused before its block stops", async () => {
  const fx = fixture(SDK, "anthropic.json").data;
  const mock = sseTransport(anthropicEvents(fx.first), { named: true });
  const client = new Anthropic({ apiKey: "sk-ant-test", fetch: mock.fetch, maxRetries: 0 });
  const stream = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: "hi" }], tools: tg.toProvider(branch(), "anthropic").tools, stream: true });
  const run = await drive(stream, branch());
  assert.equal(run.acc.provider, "anthropic");
  assertStream(fx, run, fx.first, "anthropic");
});

test("@google/genai stream: functionCall parts accumulated and judged as they arrive", async () => {
  const fx = fixture(SDK, "gemini.json").data;
  const mock = sseTransport(geminiChunks(fx.first));
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { fetch: mock.fetch } });
  const stream = await ai.models.generateContentStream({ model: "gemini-2.5-flash", contents: "hi", config: { tools: tg.toProvider(branch(), "gemini").tools } });
  const run = await drive(stream, branch());
  assert.match(mock.received[0], /streamGenerateContent\?alt=sse$/);
  assert.equal(run.acc.provider, "gemini");
  assertStream(fx, run, fx.first, "gemini");
});

test("toolCallStream refuses what is not a stream event, and events of two providers in one stream", () => {
  const acc = tg.toolCallStream(branch());
  for (const bad of [{}, { choices: [{ message: {} }] }, "data: {}", null]) {
    assert.throws(() => acc.push(bad), (e) => e.code === "invalid-request" && /stream event|not an event/.test(e.message));
  }
  acc.push({ type: "message_start", message: {} });
  assert.throws(() => acc.push({ object: "chat.completion.chunk", choices: [] }), (e) => e.code === "invalid-request" && /one toolCallStream per stream/.test(e.message));
  assert.throws(() => tg.toolCallStream({}), (e) => e.code === "invalid-request");
});

test("an unknown tool is refused as soon as its name is known; a key the schema refuses, as soon as it is read", () => {
  const b = tg.branch({ tools: [tg.tool({ name: "w", parameters: { type: "object", additionalProperties: false, properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] } } }, handler: () => 1 })] });
  const start = (name) => ({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t1", name, input: {} } });
  const delta = (p) => ({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: p } });
  let acc = tg.toolCallStream(b);
  const [nf] = acc.push(start("nope"));
  assert.equal(nf.error.code, "tool-not-found");
  assert.equal(nf.error.callId, "t1");
  acc = tg.toolCallStream(b);
  acc.push(start("w"));
  assert.deepEqual(acc.push(delta('{"cty')), [], "a key not yet read is not judged");
  const [unk] = acc.push(delta('": '));
  assert.equal(unk.error.issues[0].keyword, "additionalProperties");
  assert.equal(unk.error.issues[0].path, "/cty");
  acc = tg.toolCallStream(b);
  acc.push(start("w"));
  assert.deepEqual(acc.push(delta('{"unit": "fahr')), [], "a prefix of an allowed value is not refused");
  const [en] = acc.push(delta("x"));
  assert.equal(en.error.issues[0].keyword, "enum", "no allowed value starts with fahrx");
  assert.equal(en.complete, false);
});

/**
 * The rule a refusal before the end must keep: the call, once whole, is refused too, with every
 * issue the early refusal gave. Random argument texts against random-ish schemas, cut at random
 * places, pushed as Anthropic deltas (the reader is the same for every provider).
 */
test("an early refusal is never wrong: the whole call is refused with every issue it named", () => {
  const seed = Number(process.env.TOOLGATE_FUZZ_SEED ?? 20261203);
  const rng = new Rng(caseSeed(seed, 0));
  const schemas = [
    { type: "object", additionalProperties: false, properties: { a: { type: "integer", minimum: 0, maximum: 9 }, s: { type: "string", maxLength: 4 }, e: { enum: ["red", "green", "blue"] }, l: { type: "array", items: { type: "integer" }, maxItems: 2, uniqueItems: true }, o: { type: "object", properties: { x: { type: "boolean" } }, required: ["x"] } }, required: ["a"] },
    { type: "object", properties: { a: { anyOf: [{ type: "integer" }, { type: "string" }] }, e: { const: "k" } } },
    { type: "object", properties: { a: { type: "number", multipleOf: 0.5 }, s: { type: "string", pattern: "^[a-z]+$" } } },
  ];
  const values = ["1", "-3", "12", "2.5", "\"red\"", "\"gre\"", "\"k\"", "\"abcdef\"", "\"\\u0041\"", "true", "null", "[1,2]", "[1,1]", "[1,2,3]", "{\"x\":true}", "{}", "{\"y\":1}"];
  const keys = ["a", "s", "e", "l", "o", "zz"];
  let early = 0;
  for (let i = 0; i < 400; i++) {
    const schema = schemas[i % schemas.length];
    const b = tg.branch({ tools: [tg.tool({ name: "t", parameters: schema, handler: () => 1 })] });
    const members = Array.from({ length: rng.int(1, 4) }, () => `${JSON.stringify(rng.pick(keys))}: ${rng.pick(values)}`);
    const text = `{${members.join(", ")}}`;
    const acc = tg.toolCallStream(b);
    acc.push({ type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "c", name: "t", input: {} } });
    const found = [];
    for (let at = 0; at < text.length; ) {
      const n = rng.int(1, 6);
      found.push(...acc.push({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: text.slice(at, at + n) } }));
      at += n;
    }
    const beforeEnd = found.length;
    found.push(...acc.push({ type: "content_block_stop", index: 0 }));
    const whole = b.validate({ id: "c", function: "t", arguments: text, provider: "anthropic" });
    assert.ok(found.length <= 1, "one refusal per call");
    if (whole.ok) {
      assert.equal(found.length, 0, `${text}: valid once whole, yet refused: ${found[0]?.error.message}`);
      continue;
    }
    assert.equal(found.length, 1, `${text}: refused once whole, so refused by the end`);
    if (beforeEnd === 1) {
      early++;
      if (whole.error.code !== "invalid-arguments") continue; // refused for another reason (a repeated key): refused all the same
      const final = new Set((whole.error.issues ?? []).map((is) => `${is.path} ${is.keyword} ${is.message}`));
      for (const is of found[0].error.issues) assert.ok(final.has(`${is.path} ${is.keyword} ${is.message}`), `${text}: early issue ${is.path} ${is.keyword} is the whole call's too`);
    }
  }
  assert.ok(early > 40, `refusals before the end: ${early}`);
});
