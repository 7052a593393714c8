// Input examples on a tool (the inputExamples option): checked as calls of the tool when it is
// created, sent as Anthropic's input_examples, folded into the description for the other targets
// with a report entry, and never part of toolSchema (LionAGI's schema).
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { generateText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { Agent, run, Usage } from "@openai/agents";
import { toolSet } from "toolgate/ai-sdk";
import { agentTools } from "toolgate/openai-agents";
import { langchainTools } from "toolgate/langchain";
import { tg } from "./helpers.mjs";

const PARAMS = {
  type: "object",
  properties: { city: { type: "string" }, days: { type: "integer", minimum: 1 }, unit: { enum: ["c", "f"] } },
  required: ["city"],
};
const EXAMPLES = [{ city: "Oslo", days: 3 }, { unit: "f", city: "Paris" }];
const FOLDED = 'Examples of valid arguments: {"city":"Oslo","days":3}; {"unit":"f","city":"Paris"}';

function forecast(inputExamples = EXAMPLES) {
  return tg.tool({ name: "forecast", description: "Weather ahead.", parameters: PARAMS, handler: ({ city }) => city, inputExamples });
}

/** The one declaration of an export, whatever the target's wrapping. */
function declaration(target, tools) {
  assert.equal(tools.length, 1);
  if (target === "gemini") return tools[0].functionDeclarations[0];
  if (target === "openai-chat") return tools[0].function;
  return tools[0];
}

test("a tool's examples go to Anthropic's input_examples and into the description elsewhere, reported", () => {
  const b = tg.branch({ tools: [forecast()] });
  for (const target of ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"]) {
    const { tools, report } = tg.toProvider(b, target);
    const d = declaration(target, tools);
    const folded = report.changes.filter((c) => c.kind === "examples-folded");
    if (target === "anthropic") {
      assert.deepEqual(d.input_examples, EXAMPLES, "the examples as given, keys in order");
      assert.equal(d.description, "Weather ahead.");
      assert.equal(folded.length, 0, "nothing to report: Anthropic has the field");
    } else {
      assert.equal(d.input_examples, undefined, `${target} has no input_examples`);
      assert.equal(d.description, `Weather ahead.\n\n${FOLDED}`, `${target}: folded into the description`);
      assert.equal(folded.length, 1, `${target}: one report entry for the tool`);
      assert.equal(folded[0].tool, "forecast");
      assert.equal(folded[0].keyword, "inputExamples");
    }
  }
  const strict = declaration("openai-chat", tg.toProvider(b, "openai-chat", { strict: true }).tools);
  assert.equal(strict.strict, true);
  assert.ok(strict.description.endsWith(FOLDED), "strict mode keeps the examples as written (they are text)");
});

test("toolSchema and schemaList do not hold the examples", () => {
  const plain = tg.tool({ name: "forecast", description: "Weather ahead.", parameters: PARAMS, handler: () => 1 });
  const t = forecast();
  assert.deepEqual(t.toolSchema, plain.toolSchema);
  assert.deepEqual(tg.branch({ tools: [t] }).schemaList, tg.branch({ tools: [plain] }).schemaList);
  assert.deepEqual(t.inputExamples, EXAMPLES, "the tool says what it holds");
  assert.deepEqual(plain.inputExamples, []);
});

test("an example the tool would refuse is refused at creation, naming the example and the rule", () => {
  const cases = [
    [[{ city: "Oslo" }, { days: 2 }], "/inputExamples/1/city", "required"],
    [[{ city: "Oslo", unit: "k" }], "/inputExamples/0/unit", "enum"],
    [[{ city: "Oslo", days: "3" }], "/inputExamples/0/days", "type"], // passes only by lax conversion
    [[{ city: "Oslo", country: "NO" }], "/inputExamples/0/country", "additionalProperties"], // the tool drops it
    [["Oslo"], "/inputExamples/0", "type"],
    [Array.from({ length: 17 }, () => ({ city: "Oslo" })), "/inputExamples", "maxItems"],
    [{ city: "Oslo" }, "/inputExamples", "type"], // not an array
  ];
  for (const [examples, path, keyword] of cases) {
    assert.throws(
      () => forecast(examples),
      (e) => {
        assert.equal(e.code, "invalid-tool", JSON.stringify(examples));
        assert.equal(e.tool, "forecast");
        assert.equal(e.issues[0].path, path, JSON.stringify(examples));
        assert.equal(e.issues[0].keyword, keyword, JSON.stringify(examples));
        return true;
      },
    );
  }
});

test("a raw function's examples are checked against its signature", () => {
  const add = tg.tool(function add(a, b) { return a + b; }, { inputExamples: [{ a: 2, b: 3 }] });
  assert.deepEqual(tg.toProvider([add], "anthropic").tools[0].input_examples, [{ a: 2, b: 3 }]);
  for (const [example, path, keyword] of [[{ a: 2 }, "/inputExamples/0/b", "required"], [{ a: 2, b: 3, c: 4 }, "/inputExamples/0/c", "signature"]]) {
    assert.throws(
      () => tg.tool(function add(a, b) { return a + b; }, { inputExamples: [example] }),
      (e) => e.code === "invalid-tool" && e.issues[0].path === path && e.issues[0].keyword === keyword,
    );
  }
});

let realFetch;
before(() => {
  realFetch = globalThis.fetch;
  globalThis.fetch = () => {
    throw new Error("no network: a client went past its mock transport");
  };
});
after(() => {
  globalThis.fetch = realFetch;
});

test("@anthropic-ai/sdk sends input_examples as exported", async () => {
  const received = [];
  async function fetch(url, init = {}) {
    received.push({ url: String(url), body: JSON.parse(init.body) });
    const message = {
      id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", stop_reason: "end_turn", stop_sequence: null,
      content: [{ type: "text", text: "Ask me about the weather." }], usage: { input_tokens: 1, output_tokens: 1 },
    };
    return new Response(JSON.stringify(message), { status: 200, headers: { "content-type": "application/json", "request-id": "req_1" } });
  }
  const client = new Anthropic({ apiKey: "sk-ant-test", fetch, maxRetries: 0 });
  const b = tg.branch({ tools: [forecast()] });
  const tools = tg.toProvider(b, "anthropic").tools;
  const message = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages: [{ role: "user", content: "hi" }], tools });
  assert.equal(message.content[0].text, "Ask me about the weather.");
  assert.equal(received.length, 1);
  assert.equal(received[0].url, "https://api.anthropic.com/v1/messages");
  assert.deepEqual(received[0].body.tools[0].input_examples, EXAMPLES);
  assert.deepEqual(received[0].body.tools[0].input_schema, tools[0].input_schema);
});

/** A fetch answering every request with `body` and keeping what each request sent. */
function answering(body) {
  const received = [];
  const fetch = async (url, init = {}) => {
    received.push(JSON.parse(init.body));
    return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
  };
  return { fetch, received };
}

test("the OpenAI (Chat, Responses) and Gemini SDKs send the examples in the description, as exported", async () => {
  const b = tg.branch({ tools: [forecast()] });
  const chat = answering({ id: "c", object: "chat.completion", created: 0, model: "gpt-4o", choices: [{ index: 0, finish_reason: "stop", logprobs: null, message: { role: "assistant", content: "ok" } }] });
  await new OpenAI({ apiKey: "sk-test", fetch: chat.fetch, maxRetries: 0 }).chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }], tools: tg.toProvider(b, "openai-chat").tools });
  assert.equal(chat.received[0].tools[0].function.description, `Weather ahead.\n\n${FOLDED}`);
  const responses = answering({ id: "r", object: "response", created_at: 0, status: "completed", model: "o4-mini", output: [] });
  await new OpenAI({ apiKey: "sk-test", fetch: responses.fetch, maxRetries: 0 }).responses.create({ model: "o4-mini", input: "hi", tools: tg.toProvider(b, "openai-responses").tools });
  assert.equal(responses.received[0].tools[0].description, `Weather ahead.\n\n${FOLDED}`);
  const gemini = answering({ candidates: [{ content: { role: "model", parts: [{ text: "ok" }] }, finishReason: "STOP", index: 0 }] });
  await new GoogleGenAI({ apiKey: "k", httpOptions: { fetch: gemini.fetch } }).models.generateContent({ model: "gemini-2.5-flash", contents: "hi", config: { tools: tg.toProvider(b, "gemini").tools } });
  assert.equal(gemini.received[0].tools[0].functionDeclarations[0].description, `Weather ahead.\n\n${FOLDED}`);
});

test("the adapters (AI SDK, Agents JS, LangChain) hand the model the examples in the description", async () => {
  const b = tg.branch({ tools: [forecast()] });
  const model = new MockLanguageModelV4({ doGenerate: [{ content: [{ type: "text", text: "ok" }], finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 1 }, outputTokens: { total: 1 } }, warnings: [] }] });
  await generateText({ model, tools: toolSet(b), prompt: "hi" });
  assert.equal(model.doGenerateCalls[0].tools[0].description, `Weather ahead.\n\n${FOLDED}`);
  const requests = [];
  const agentModel = { async getResponse(r) { requests.push(r); return { usage: new Usage(), output: [{ type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok" }] }], responseId: "r1" }; }, async *getStreamedResponse() {} };
  await run(new Agent({ name: "f", model: agentModel, tools: agentTools(b) }), "hi");
  assert.equal(requests[0].tools[0].description, `Weather ahead.\n\n${FOLDED}`);
  assert.equal(langchainTools(b)[0].description, `Weather ahead.\n\n${FOLDED}`);
});
