// The four providers' own SDKs (openai for Chat Completions and Responses, @anthropic-ai/sdk,
// @google/genai) in a real two-turn agent loop, each client on a mock transport (its `fetch` option)
// that answers with the responses recorded in tests/fixtures/providers/sdk and keeps what it received.
// The loop code uses toolgate's public API only, as the docs show it (docs/provider-sdks.md): the
// export as the request's tools, parseToolCalls on the response, invoke, toolResult for the next
// request. No glue: not one line converts between toolgate and an SDK. No network: the global fetch
// throws while these tests run.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import OpenAI from "openai";
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import { tg, fixture } from "./helpers.mjs";

const SDK = "providers/sdk";
const { tools: TOOLS } = fixture(SDK, "tools.json").data;
const PROMPT = "What is the weather in Paris, what is 2 + three, and what time is it?";

let realFetch;
before(() => {
  realFetch = globalThis.fetch;
  globalThis.fetch = () => {
    throw new Error("no network in the SDK tests: a client went past its mock transport");
  };
});
after(() => {
  globalThis.fetch = realFetch;
});

/** The fixture tools' handlers, as tools.json describes them. */
const HANDLERS = {
  get_weather: ({ city, unit = "celsius" }) => ({ city, temperature: 18, unit }),
  add: ({ a, b }) => a + b,
  now: () => "2026-12-01T15:00:00Z",
};

/** A branch with the fixture's tools; `ran` names each handler call, `seen` holds its arguments. */
function setup() {
  const ran = [];
  const seen = [];
  const tools = TOOLS.map((t) =>
    tg.tool({ ...t, handler: (args) => (ran.push(t.name), seen.push(args), HANDLERS[t.name](args)) }),
  );
  return { b: tg.branch({ tools }), ran, seen };
}

/**
 * A mock transport for an SDK's `fetch` option: the n-th request gets the n-th recorded response;
 * every request is kept as {url, method, headers, body} with the body parsed. A request past the
 * recording gets a 400, so a loop that does not stop fails instead of hanging.
 */
function transport(...responses) {
  const received = [];
  async function fetch(url, init = {}) {
    const body = typeof init.body === "string" ? JSON.parse(init.body) : init.body;
    received.push({ url: String(url), method: init.method, headers: new Headers(init.headers), body });
    const next = responses[received.length - 1];
    if (next === undefined) {
      return new Response(JSON.stringify({ error: { message: "unexpected request", type: "invalid_request_error" } }), { status: 400, headers: { "content-type": "application/json" } });
    }
    return new Response(JSON.stringify(next), { status: 200, headers: { "content-type": "application/json", "request-id": `req_${received.length}` } });
  }
  return { fetch, received };
}

/**
 * The results the model gets back, against the fixture's calls: ids in order, a completed call's
 * content exactly, a failure as toolgate's model-readable text naming the tool, the field and the rule
 * (and flagged as one where the provider has a flag: `isError` undefined where it has none).
 */
function assertResults(results, calls) {
  assert.equal(results.length, calls.length, "one result per call, in order");
  results.forEach((r, i) => {
    const want = calls[i];
    if (want.id !== null) assert.equal(r.id, want.id, `result ${i} pairs with call ${want.id}`);
    assert.equal(typeof r.text, "string", `result ${i} is text`);
    if (r.isError !== undefined) assert.equal(r.isError, Boolean(want.error), `result ${i} (${want.function}) is flagged ${want.error ? "a failure" : "a success"}`);
    if (want.error) {
      for (const word of want.mentions) assert.ok(r.text.includes(word), `result ${i}'s text names ${word}: ${r.text}`);
      assert.notEqual(r.text, "", "a failure says what went wrong");
    } else {
      assert.equal(r.text, want.content, `result ${i} (${want.function}) is the handler's response`);
    }
  });
}

/** The handlers that ran: only the calls that validated; a refused call never reaches its handler. */
function assertRan(ran, calls) {
  assert.deepEqual(ran, calls.filter((c) => !c.error).map((c) => c.function));
}

test("openai Chat Completions: tools out, tool_calls in, role:tool results back", async () => {
  const fx = fixture(SDK, "openai-chat.json").data;
  const mock = transport(fx.first, fx.final);
  const client = new OpenAI({ apiKey: "sk-test", fetch: mock.fetch, maxRetries: 0 });
  const { b, ran } = setup();

  // The agent loop, as a user writes it.
  const tools = tg.toProvider(b, "openai-chat").tools;
  const messages = [{ role: "user", content: PROMPT }];
  let completion = await client.chat.completions.create({ model: "gpt-4o", messages, tools });
  while (completion.choices[0].finish_reason === "tool_calls") {
    const done = await Promise.all(tg.parseToolCalls(completion).map((call) => b.invoke(call).catch((e) => e)));
    messages.push(completion.choices[0].message, ...tg.toolResult(done, "openai-chat"));
    completion = await client.chat.completions.create({ model: "gpt-4o", messages, tools });
  }

  assert.equal(completion.choices[0].message.content, fx.final.choices[0].message.content);
  assert.equal(mock.received.length, 2);
  for (const r of mock.received) {
    assert.equal(r.url, "https://api.openai.com/v1/chat/completions");
    assert.equal(r.method, "POST");
    assert.deepEqual(r.body.tools, fx.tools, "the tools are sent in Chat's shape, unchanged by the SDK");
  }
  const sent = mock.received[1].body.messages;
  assert.deepEqual(sent.slice(0, 2), [{ role: "user", content: PROMPT }, fx.first.choices[0].message]);
  const results = sent.slice(2);
  for (const m of results) {
    assert.deepEqual(Object.keys(m).sort(), ["content", "role", "tool_call_id"]);
    assert.equal(m.role, "tool");
  }
  assertResults(
    results.map((m) => ({ id: m.tool_call_id, text: m.content })),
    fx.calls,
  );
  assertRan(ran, fx.calls);
});

test("openai Responses: flat function tools out, function_call items in, function_call_output back", async () => {
  const fx = fixture(SDK, "openai-responses.json").data;
  const mock = transport(fx.first, fx.final);
  const client = new OpenAI({ apiKey: "sk-test", fetch: mock.fetch, maxRetries: 0 });
  const { b, ran } = setup();

  // The agent loop, as a user writes it.
  const tools = tg.toProvider(b, "openai-responses").tools;
  const input = [{ role: "user", content: PROMPT }];
  let response = await client.responses.create({ model: "o4-mini", input, tools });
  for (let calls; (calls = tg.parseToolCalls(response)).length > 0; ) {
    const done = await Promise.all(calls.map((call) => b.invoke(call).catch((e) => e)));
    input.push(...response.output, ...tg.toolResult(done, "openai-responses"));
    response = await client.responses.create({ model: "o4-mini", input, tools });
  }

  assert.equal(response.output_text, fx.final.output[0].content[0].text);
  assert.equal(mock.received.length, 2);
  for (const r of mock.received) {
    assert.equal(r.url, "https://api.openai.com/v1/responses");
    assert.deepEqual(r.body.tools, fx.tools, "the tools are sent in Responses' flat shape");
  }
  const sent = mock.received[1].body.input;
  assert.deepEqual(sent.slice(0, 1 + fx.first.output.length), [{ role: "user", content: PROMPT }, ...fx.first.output]);
  const results = sent.slice(1 + fx.first.output.length);
  for (const item of results) {
    assert.deepEqual(Object.keys(item).sort(), ["call_id", "output", "type"]);
    assert.equal(item.type, "function_call_output");
  }
  assert.deepEqual(results.map((r) => r.call_id), fx.first.output.filter((o) => o.type === "function_call").map((o) => o.call_id), "paired by call_id, not the item id");
  assertResults(
    results.map((r) => ({ id: r.call_id, text: r.output })),
    fx.calls,
  );
  assertRan(ran, fx.calls);
});

test("@anthropic-ai/sdk: input_schema tools out, tool_use blocks in, tool_result with is_error back", async () => {
  const fx = fixture(SDK, "anthropic.json").data;
  const mock = transport(fx.first, fx.final);
  const client = new Anthropic({ apiKey: "sk-ant-test", fetch: mock.fetch, maxRetries: 0 });
  const { b, ran } = setup();

  // The agent loop, as a user writes it.
  const tools = tg.toProvider(b, "anthropic").tools;
  const messages = [{ role: "user", content: PROMPT }];
  let message = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools });
  while (message.stop_reason === "tool_use") {
    const done = await Promise.all(tg.parseToolCalls(message).map((call) => b.invoke(call).catch((e) => e)));
    messages.push({ role: "assistant", content: message.content }, tg.toolResult(done, "anthropic"));
    message = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools });
  }

  assert.equal(message.content[0].text, fx.final.content[0].text);
  assert.equal(mock.received.length, 2);
  for (const r of mock.received) {
    assert.equal(r.url, "https://api.anthropic.com/v1/messages");
    assert.ok(r.headers.get("anthropic-version"), "sent through the SDK, with its headers");
    assert.deepEqual(r.body.tools, fx.tools, "the tools are sent in Anthropic's shape");
  }
  const sent = mock.received[1].body.messages;
  assert.equal(sent.length, 3);
  assert.deepEqual(sent[1], { role: "assistant", content: fx.first.content });
  assert.equal(sent[2].role, "user");
  assert.deepEqual(Object.keys(sent[2]).sort(), ["content", "role"]);
  const blocks = sent[2].content;
  for (const [i, block] of blocks.entries()) {
    assert.equal(block.type, "tool_result");
    assert.deepEqual(Object.keys(block).sort(), fx.calls[i].error ? ["content", "is_error", "tool_use_id", "type"] : ["content", "tool_use_id", "type"]);
    if (fx.calls[i].error) assert.equal(block.is_error, true);
  }
  assertResults(
    blocks.map((bl) => ({ id: bl.tool_use_id, text: bl.content, isError: bl.is_error === true })),
    fx.calls,
  );
  assertRan(ran, fx.calls);
});

test("@google/genai: functionDeclarations out, functionCall parts in, functionResponse parts back", async () => {
  const fx = fixture(SDK, "gemini.json").data;
  const mock = transport(fx.first, fx.final);
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { fetch: mock.fetch } });
  const { b, ran } = setup();

  // The agent loop, as a user writes it.
  const config = { tools: tg.toProvider(b, "gemini").tools };
  const contents = [{ role: "user", parts: [{ text: PROMPT }] }];
  let response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
  for (let calls; (calls = tg.parseToolCalls(response)).length > 0; ) {
    const done = await Promise.all(calls.map((call) => b.invoke(call).catch((e) => e)));
    contents.push(response.candidates[0].content, tg.toolResult(done, "gemini"));
    response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
  }

  assert.equal(response.text, fx.final.candidates[0].content.parts[0].text);
  assert.equal(mock.received.length, 2);
  for (const r of mock.received) {
    assert.match(r.url, /^https:\/\/generativelanguage\.googleapis\.com\/v1(beta)?\/models\/gemini-2\.5-flash:generateContent$/);
    assert.deepEqual(r.body.tools, fx.tools, "the tools are sent as functionDeclarations with parametersJsonSchema");
  }
  const sent = mock.received[1].body.contents;
  assert.equal(sent.length, 3);
  assert.deepEqual(sent[1], fx.first.candidates[0].content, "the model's turn goes back unchanged, thoughtSignature included");
  assert.equal(sent[2].role, "user");
  const parts = sent[2].parts;
  for (const [i, p] of parts.entries()) {
    assert.deepEqual(Object.keys(p), ["functionResponse"]);
    assert.equal(p.functionResponse.name, fx.calls[i].function, "paired by name and order (the Gemini API sends no ids)");
    assert.deepEqual(Object.keys(p.functionResponse.response), [fx.calls[i].error ? "error" : "output"]);
  }
  assertResults(
    parts.map(({ functionResponse: fr }) => ({
      id: fr.id ?? null,
      text: fr.response.error ?? (typeof fr.response.output === "string" ? fr.response.output : JSON.stringify(fr.response.output)),
      isError: "error" in fr.response,
    })),
    fx.calls,
  );
  assertRan(ran, fx.calls);
});

test("openai Chat: a custom tool call, as the SDK types it beside function calls, runs a tool taking {input}, as parseToolCalls reads it", async () => {
  const fx = fixture(SDK, "openai-chat.json").data;
  const custom = { id: "call_Qm2vN8cX4bT1rW7kLs0pHe5J", type: "custom", custom: { name: "sql", input: "SELECT 1" } };
  const first = structuredClone(fx.first);
  first.choices[0].message.tool_calls = [custom];
  const mock = transport(first);
  const client = new OpenAI({ apiKey: "sk-test", fetch: mock.fetch, maxRetries: 0 });
  const seen = [];
  const sql = tg.tool({
    name: "sql",
    parameters: { type: "object", properties: { input: { type: "string" } }, required: ["input"] },
    handler: ({ input }) => (seen.push(input), "1 row"),
  });
  const completion = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: PROMPT }] });
  const [call] = completion.choices[0].message.tool_calls;
  const [parsed] = tg.parseToolCalls(completion);
  assert.deepEqual(parsed.arguments, { input: "SELECT 1" });
  const done = await tg.branch({ tools: [sql] }).invoke(call);
  assert.equal(done.status, "completed");
  assert.deepEqual(seen, ["SELECT 1"], "the direct call and parseToolCalls agree");
  const [answer] = tg.toolResult([done], "openai-chat");
  assert.deepEqual(answer, { role: "tool", tool_call_id: custom.id, content: "1 row" });
  // without such a tool the call is refused as any unknown tool is, and can still be answered
  const { b, ran } = setup();
  const err = await b.invoke(call).then(() => assert.fail("no tool named sql"), (e) => e);
  assert.equal(err.code, "tool-not-found");
  assert.equal(err.callId, custom.id);
  assert.equal(tg.toolResult([err], "openai-chat")[0].tool_call_id, custom.id);
  assert.deepEqual(ran, []);
});

test("openai Chat strict mode: the null the model must send for an optional field never reaches the handler", async () => {
  const fx = fixture(SDK, "openai-chat.json").data;
  const first = structuredClone(fx.first);
  const [call] = first.choices[0].message.tool_calls;
  call.function.arguments = JSON.stringify({ city: "Paris", unit: null });
  first.choices[0].message.tool_calls = [call];
  const mock = transport(first, fx.final);
  const client = new OpenAI({ apiKey: "sk-test", fetch: mock.fetch, maxRetries: 0 });
  const { b, seen } = setup();

  const tools = tg.toProvider(b, "openai-chat", { strict: true }).tools;
  const messages = [{ role: "user", content: PROMPT }];
  let completion = await client.chat.completions.create({ model: "gpt-4o", messages, tools });
  while (completion.choices[0].finish_reason === "tool_calls") {
    const done = await Promise.all(tg.parseToolCalls(completion).map((c) => b.invoke(c).catch((e) => e)));
    messages.push(completion.choices[0].message, ...tg.toolResult(done, "openai-chat"));
    completion = await client.chat.completions.create({ model: "gpt-4o", messages, tools });
  }

  const sentTool = mock.received[0].body.tools.find((t) => t.function.name === "get_weather").function;
  assert.equal(sentTool.strict, true);
  assert.equal(sentTool.parameters.additionalProperties, false);
  assert.deepEqual([...sentTool.parameters.required].sort(), ["city", "unit"], "strict mode lists every property");
  assert.deepEqual(seen, [{ city: "Paris" }], "the introduced null is removed before the handler");
  assert.deepEqual(mock.received[1].body.messages.at(-1), { role: "tool", tool_call_id: call.id, content: JSON.stringify({ city: "Paris", temperature: 18, unit: "celsius" }) });
});

test("each call as the SDK delivers it goes to b.validate as it is, and agrees with parseToolCalls", async () => {
  const delivered = {
    "openai-chat": async (fx) => {
      const client = new OpenAI({ apiKey: "sk-test", fetch: transport(fx.first).fetch, maxRetries: 0 });
      const r = await client.chat.completions.create({ model: "gpt-4o", messages: [] });
      return [r, r.choices[0].message.tool_calls];
    },
    "openai-responses": async (fx) => {
      const client = new OpenAI({ apiKey: "sk-test", fetch: transport(fx.first).fetch, maxRetries: 0 });
      const r = await client.responses.create({ model: "o4-mini", input: [] });
      return [r, r.output.filter((item) => item.type === "function_call")];
    },
    anthropic: async (fx) => {
      const client = new Anthropic({ apiKey: "sk-ant-test", fetch: transport(fx.first).fetch, maxRetries: 0 });
      const r = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: [] });
      return [r, r.content.filter((block) => block.type === "tool_use")];
    },
    gemini: async (fx) => {
      const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { fetch: transport(fx.first).fetch } });
      const r = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi" });
      const parts = r.candidates[0].content.parts.filter((p) => p.functionCall);
      return [r, r.functionCalls, parts];
    },
  };
  const { b } = setup();
  for (const [target, get] of Object.entries(delivered)) {
    const fx = fixture(SDK, `${target}.json`).data;
    const [response, ...shapes] = await get(fx);
    const parsed = tg.parseToolCalls(response).map((call) => b.validate(call));
    for (const calls of shapes) {
      assert.equal(calls.length, fx.calls.length, `${target}: every call is delivered`);
      calls.forEach((call, i) => {
        const v = b.validate(call);
        const want = fx.calls[i];
        assert.equal(v.ok, !want.error, `${target} call ${i} (${want.function}) validates as parseToolCalls' does`);
        assert.equal(v.ok, parsed[i].ok);
        if (!v.ok) {
          assert.equal(v.error.code, want.error);
          assert.equal(v.error.tool, want.function);
          assert.equal(v.error.callId, want.id ?? undefined, `${target} call ${i}: the refusal carries the call id`);
          assert.deepEqual(v.error.issues, parsed[i].error.issues);
        } else {
          assert.equal(v.function, want.function);
          assert.deepEqual(v.arguments, parsed[i].arguments);
        }
      });
    }
  }
});

test("@google/genai with call ids (as newer Gemini models send them): each functionResponse carries its call's id", async () => {
  const fx = fixture(SDK, "gemini.json").data;
  const first = structuredClone(fx.first);
  const ids = first.candidates[0].content.parts.map((p, i) => (p.functionCall.id = `fc_${i + 1}x7Qm`));
  const mock = transport(first, fx.final);
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { fetch: mock.fetch } });
  const { b } = setup();
  const config = { tools: tg.toProvider(b, "gemini").tools };
  const contents = [{ role: "user", parts: [{ text: PROMPT }] }];
  let response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
  for (let calls; (calls = tg.parseToolCalls(response)).length > 0; ) {
    const done = await Promise.all(calls.map((call) => b.invoke(call).catch((e) => e)));
    contents.push(response.candidates[0].content, tg.toolResult(done, "gemini"));
    response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
  }
  const parts = mock.received[1].body.contents[2].parts;
  assert.deepEqual(parts.map((p) => p.functionResponse.id), ids);
  assert.deepEqual(parts.map((p) => p.functionResponse.name), fx.calls.map((c) => c.function));
});
