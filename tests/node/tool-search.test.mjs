// Deferred tools and tool search through the packed package: deferred tools left out of every
// target's export until the branch's tool_search tool reveals them, the search call through the
// Anthropic SDK on a mock transport, Anthropic's native tool search, an MCP server's tools deferred
// (and the export byte-identical after a refresh back to the same catalog), a deterministic ranking,
// and a search over 10,000 tools.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { randomUUID } from "node:crypto";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { GoogleGenAI } from "@google/genai";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { tg } from "./helpers.mjs";
import { eventually } from "./waits.mjs";

const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];
const OBJ = (props, required = []) => ({ type: "object", properties: props, required, additionalProperties: false });

/** The exported names of an export, whatever the target's shape. */
function exportedNames(tools, target) {
  if (target === "gemini") return (tools[0]?.functionDeclarations ?? []).map((t) => t.name);
  if (target === "openai-chat") return tools.map((t) => t.function.name);
  return tools.map((t) => t.name);
}

/** A branch with one visible tool and two deferred ones. */
function deferredBranch() {
  const ran = [];
  const now = tg.tool({ name: "now", description: "The current time.", parameters: OBJ({}), handler: () => "15:00" });
  const weather = tg.tool({ name: "get_weather", description: "Current weather conditions for a city.", parameters: OBJ({ city: { type: "string" } }, ["city"]), handler: ({ city }) => (ran.push(city), { city, temperature: 18 }) });
  const mail = tg.tool({ name: "sendMail", description: "Sends an e-mail.", parameters: OBJ({ recipientAddress: { type: "string" } }, ["recipientAddress"]), handler: () => "sent" });
  return { b: tg.branch({ tools: [now], defer: [weather, mail] }), ran };
}

test("deferred tools are left out of every target's export until a search reveals them", async () => {
  const { b } = deferredBranch();
  for (const target of TARGETS) {
    const { tools, report } = tg.toProvider(b, target);
    assert.deepEqual(exportedNames(tools, target), ["now", "tool_search"], target);
    assert.deepEqual(report.changes.filter((c) => c.kind === "tool-deferred").map((c) => c.tool), ["get_weather", "sendMail"], target);
  }
  const fc = await b.invoke({ function: "tool_search", arguments: { query: "weather in a city" } });
  assert.equal(fc.status, "completed", fc.error?.message);
  assert.deepEqual(fc.response, { tools: [{ name: "get_weather", description: "Current weather conditions for a city.", parameters: ["city"] }] });
  for (const target of TARGETS) {
    assert.deepEqual(exportedNames(tg.toProvider(b, target).tools, target), ["now", "get_weather", "tool_search"], `${target}: revealed in its registration position`);
  }
  assert.deepEqual(b.searchTools("recipient address").map((h) => h.name), ["sendMail"], "searchTools without reveal");
  assert.ok(!exportedNames(tg.toProvider(b, "anthropic").tools, "anthropic").includes("sendMail"));
});

test("a clone keeps the deferrals, and its tool_search reveals in the clone only", async () => {
  const { b } = deferredBranch();
  const c = b.clone();
  await c.invoke({ function: "tool_search", arguments: { query: "weather" } });
  assert.deepEqual(exportedNames(tg.toProvider(c, "anthropic").tools, "anthropic"), ["now", "get_weather", "tool_search"]);
  assert.deepEqual(exportedNames(tg.toProvider(b, "anthropic").tools, "anthropic"), ["now", "tool_search"]);
});

test("the ranking is deterministic: the same catalog and query give the same list, ties by name", () => {
  const make = (order) => {
    const b = tg.branch();
    const tools = order.map((name) => tg.tool({ name, description: "Reads the ledger.", parameters: OBJ({}), handler: () => name }));
    b.register(tools, { defer: true });
    return b;
  };
  const a = make(["zeta", "alpha", "mid"]);
  const c = make(["mid", "zeta", "alpha"]);
  assert.deepEqual(a.searchTools("ledger").map((h) => h.name), ["alpha", "mid", "zeta"]);
  assert.deepEqual(c.searchTools("ledger"), a.searchTools("ledger"));
  assert.deepEqual(a.clone().searchTools("ledger", { limit: 2 }).map((h) => h.name), ["alpha", "mid"]);
  assert.throws(() => a.searchTools(""), { code: "invalid-arguments" });
  assert.throws(() => a.searchTools("x", { limit: 1.5 }), { code: "invalid-arguments" });
});

test("exports are byte-identical across repeated exports of an unchanged branch", () => {
  const { b } = deferredBranch();
  for (const target of TARGETS) {
    assert.equal(JSON.stringify(tg.toProvider(b, target)), JSON.stringify(tg.toProvider(b, target)), target);
  }
});

test("the providers' native tool search (Anthropic, OpenAI Responses): deferred tools with defer_loading, then the provider's search tool", () => {
  const { b } = deferredBranch();
  const { tools, report } = tg.toProvider(b, "anthropic", { toolSearch: "native" });
  assert.deepEqual(tools.map((t) => t.name), ["now", "get_weather", "sendMail", "tool_search_tool_bm25"]);
  assert.deepEqual(tools.map((t) => t.defer_loading), [undefined, true, true, undefined]);
  assert.deepEqual(tools[3], { type: "tool_search_tool_bm25_20251119", name: "tool_search_tool_bm25" });
  assert.ok(report.changes.some((c) => c.kind === "tool-deferred" && c.tool === "tool_search"), "toolgate's own search tool is left out");
  const responses = tg.toProvider(b, "openai-responses", { toolSearch: "native" }).tools;
  assert.deepEqual(responses.map((t) => t.name ?? t.type), ["now", "get_weather", "sendMail", "tool_search"]);
  assert.deepEqual(responses.map((t) => t.defer_loading), [undefined, true, true, undefined]);
  assert.deepEqual(responses[3], { type: "tool_search" });
  assert.throws(() => tg.toProvider(b, "openai-chat", { toolSearch: "native" }), (e) => e.code === "invalid-request" && e.issues[0].keyword === "toolSearch");
});

test("@anthropic-ai/sdk: the model searches, the revealed tool is sent next turn and called", async () => {
  const received = [];
  const replies = [
    { stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_1", name: "tool_search", input: { query: "weather" } }] },
    { stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_2", name: "get_weather", input: { city: "Paris" } }] },
    { stop_reason: "end_turn", content: [{ type: "text", text: "18 degrees in Paris." }] },
  ];
  const fetch = async (url, init) => {
    received.push(JSON.parse(init.body));
    const r = replies[received.length - 1];
    const body = r ? { id: `msg_${received.length}`, type: "message", role: "assistant", model: "claude-sonnet-4-5", stop_sequence: null, usage: { input_tokens: 1, output_tokens: 1 }, ...r } : { type: "error", error: { type: "invalid_request_error", message: "unexpected request" } };
    return new Response(JSON.stringify(body), { status: r ? 200 : 400, headers: { "content-type": "application/json" } });
  };
  const client = new Anthropic({ apiKey: "sk-ant-test", fetch, maxRetries: 0 });
  const { b, ran } = deferredBranch();

  const messages = [{ role: "user", content: "Weather in Paris?" }];
  let message = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: tg.toProvider(b, "anthropic").tools });
  while (message.stop_reason === "tool_use") {
    const done = await Promise.all(tg.parseToolCalls(message).map((call) => b.invoke(call).catch((e) => e)));
    messages.push({ role: "assistant", content: message.content }, tg.toolResult(done, "anthropic"));
    message = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: tg.toProvider(b, "anthropic").tools });
  }
  assert.equal(message.content[0].text, "18 degrees in Paris.");
  assert.deepEqual(received.map((r) => r.tools.map((t) => t.name)), [["now", "tool_search"], ["now", "get_weather", "tool_search"], ["now", "get_weather", "tool_search"]]);
  assert.match(received[1].messages[2].content[0].content, /get_weather/, "the search result names the tool");
  assert.deepEqual(ran, ["Paris"]);
});

test("openai: the search call and the revealed tool through Chat Completions", async () => {
  const received = [];
  const call = (id, name, args) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
  const replies = [
    { finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [call("call_1", "tool_search", { query: "weather" })] } },
    { finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [call("call_2", "get_weather", { city: "Paris" })] } },
    { finish_reason: "stop", message: { role: "assistant", content: "18 degrees in Paris." } },
  ];
  const fetch = async (url, init) => {
    received.push(JSON.parse(init.body));
    const r = replies[received.length - 1];
    const body = r ? { id: `chatcmpl_${received.length}`, object: "chat.completion", created: 0, model: "gpt-4o", choices: [{ index: 0, logprobs: null, ...r }] } : { error: { message: "unexpected request" } };
    return new Response(JSON.stringify(body), { status: r ? 200 : 400, headers: { "content-type": "application/json" } });
  };
  const client = new OpenAI({ apiKey: "sk-test", fetch, maxRetries: 0 });
  const { b, ran } = deferredBranch();

  const messages = [{ role: "user", content: "Weather in Paris?" }];
  let completion = await client.chat.completions.create({ model: "gpt-4o", messages, tools: tg.toProvider(b, "openai-chat").tools });
  while (completion.choices[0].finish_reason === "tool_calls") {
    const done = await Promise.all(tg.parseToolCalls(completion).map((c) => b.invoke(c).catch((e) => e)));
    messages.push(completion.choices[0].message, ...tg.toolResult(done, "openai-chat"));
    completion = await client.chat.completions.create({ model: "gpt-4o", messages, tools: tg.toProvider(b, "openai-chat").tools });
  }
  assert.equal(completion.choices[0].message.content, "18 degrees in Paris.");
  assert.deepEqual(received.map((r) => r.tools.map((t) => t.function.name)), [["now", "tool_search"], ["now", "get_weather", "tool_search"], ["now", "get_weather", "tool_search"]]);
  assert.deepEqual(ran, ["Paris"]);
});

test("openai: the search call and the revealed tool through Responses", async () => {
  const received = [];
  const fc = (id, name, args) => ({ type: "function_call", id: `fc_${id}`, call_id: id, name, arguments: JSON.stringify(args), status: "completed" });
  const replies = [
    [fc("call_1", "tool_search", { query: "weather" })],
    [fc("call_2", "get_weather", { city: "Paris" })],
    [{ type: "message", id: "msg_3", role: "assistant", status: "completed", content: [{ type: "output_text", text: "18 degrees in Paris.", annotations: [] }] }],
  ];
  const fetch = async (url, init) => {
    received.push(JSON.parse(init.body));
    const output = replies[received.length - 1];
    const body = output ? { id: `resp_${received.length}`, object: "response", created_at: 0, status: "completed", model: "o4-mini", output } : { error: { message: "unexpected request" } };
    return new Response(JSON.stringify(body), { status: output ? 200 : 400, headers: { "content-type": "application/json" } });
  };
  const client = new OpenAI({ apiKey: "sk-test", fetch, maxRetries: 0 });
  const { b, ran } = deferredBranch();

  const input = [{ role: "user", content: "Weather in Paris?" }];
  let response = await client.responses.create({ model: "o4-mini", input, tools: tg.toProvider(b, "openai-responses").tools });
  for (let calls; (calls = tg.parseToolCalls(response)).length > 0; ) {
    const done = await Promise.all(calls.map((c) => b.invoke(c).catch((e) => e)));
    input.push(...response.output, ...tg.toolResult(done, "openai-responses"));
    response = await client.responses.create({ model: "o4-mini", input, tools: tg.toProvider(b, "openai-responses").tools });
  }
  assert.equal(response.output_text, "18 degrees in Paris.");
  assert.deepEqual(received.map((r) => r.tools.map((t) => t.name)), [["now", "tool_search"], ["now", "get_weather", "tool_search"], ["now", "get_weather", "tool_search"]]);
  assert.deepEqual(ran, ["Paris"]);
});

test("@google/genai: the search call and the revealed tool through generateContent", async () => {
  const received = [];
  const part = (name, args) => ({ functionCall: { name, args } });
  const replies = [[part("tool_search", { query: "weather" })], [part("get_weather", { city: "Paris" })], [{ text: "18 degrees in Paris." }]];
  const fetch = async (url, init) => {
    received.push(JSON.parse(init.body));
    const parts = replies[received.length - 1];
    const body = parts ? { candidates: [{ content: { role: "model", parts }, finishReason: "STOP", index: 0 }] } : { error: { code: 400, message: "unexpected request" } };
    return new Response(JSON.stringify(body), { status: parts ? 200 : 400, headers: { "content-type": "application/json" } });
  };
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { fetch } });
  const { b, ran } = deferredBranch();

  const contents = [{ role: "user", parts: [{ text: "Weather in Paris?" }] }];
  let response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config: { tools: tg.toProvider(b, "gemini").tools } });
  for (let calls; (calls = tg.parseToolCalls(response)).length > 0; ) {
    const done = await Promise.all(calls.map((c) => b.invoke(c).catch((e) => e)));
    contents.push(response.candidates[0].content, tg.toolResult(done, "gemini"));
    response = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config: { tools: tg.toProvider(b, "gemini").tools } });
  }
  assert.equal(response.text, "18 degrees in Paris.");
  assert.deepEqual(received.map((r) => r.tools[0].functionDeclarations.map((t) => t.name)), [["now", "tool_search"], ["now", "get_weather", "tool_search"], ["now", "get_weather", "tool_search"]]);
  assert.deepEqual(ran, ["Paris"]);
});

test("a search over 10,000 deferred tools finds the one it names", () => {
  const b = tg.branch();
  const tools = [];
  for (let i = 0; i < 10000; i++) {
    tools.push(tg.tool({ name: `tool_${i}`, description: `Handles widget batch ${i % 97} for region ${i % 13}.`, parameters: OBJ({ [`field${i % 31}`]: { type: "string" } }), handler: () => i }));
  }
  b.register(tools, { defer: true });
  const hits = b.searchTools("tool 4242 widget", { limit: 3 });
  assert.equal(hits[0].name, "tool_4242");
  assert.equal(hits.length, 3);
  assert.deepEqual(exportedNames(tg.toProvider(b, "openai-chat").tools, "openai-chat"), ["tool_search"]);
});

test("after the instance restarts, a branch keeps what is deferred and what a search revealed", async () => {
  const debug = tg[Symbol.for("toolgate.debug")];
  const { b } = deferredBranch();
  b.searchTools("weather", { reveal: true });
  const before = JSON.stringify(tg.toProvider(b, "anthropic"));
  assert.throws(() => debug.exit(), (e) => e.code === "internal");
  assert.equal(JSON.stringify(tg.toProvider(b, "anthropic")), before);
  const fc = await b.invoke({ function: "tool_search", arguments: { query: "mail" } });
  assert.deepEqual(fc.response.tools.map((h) => h.name), ["sendMail"]);
});

/** A stateful MCP server whose tool set a test can change (the SDK's McpServer). */
async function startLive() {
  const sessions = new Map();
  const live = { openGets: 0 };
  const addTool = (server, name, description) => server.registerTool(name, { description, inputSchema: {} }, async () => ({ content: [{ type: "text", text: name }] }));
  const httpServer = http.createServer(async (req, res) => {
    if (req.method === "GET") {
      live.openGets++;
      res.on("close", () => live.openGets--);
    }
    let s = sessions.get(req.headers["mcp-session-id"]);
    if (!s) {
      const server = new McpServer({ name: "live", version: "1.0.0" });
      const tools = new Map([["alpha", addTool(server, "alpha", "Reads the alpha ledger.")], ["beta", addTool(server, "beta", "Writes the beta journal.")]]);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, s) });
      s = { server, transport, tools };
      await server.connect(transport);
    }
    await s.transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return Object.assign(live, {
    url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    change: (f) => { for (const s of sessions.values()) f(s.server, s.tools, addTool); },
    stop: () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); }),
  });
}

describe("deferred MCP tools", () => {
  let live;
  before(async () => {
    live = await startLive();
  });
  after(async () => {
    await tg.mcp.cleanup();
    await live?.stop();
  });

  test("after an instance restart, an MCP tool never runs the handler of an old instance's tool under the same handle", async () => {
    const stale = Array.from({ length: 8 }, (_, i) => tg.tool({ name: `stale_${i}`, parameters: OBJ({}), handler: () => "stale" }));
    assert.throws(() => tg[Symbol.for("toolgate.debug")].exit(), (e) => e.code === "internal");
    const b = tg.branch();
    await b.registerMcpServer({ name: "live", url: live.url }, { security: { allowUrls: true, allowLoopbackHttp: true } });
    assert.equal((await b.invoke({ function: "mcp__live__alpha", arguments: {} })).response, "alpha");
    assert.equal((await b.invoke({ function: "mcp__live__beta", arguments: {} })).response, "beta");
    assert.equal(stale.length, 8); // kept alive until here
  });

  test("a server registered with defer: its tools, and those a refresh adds, are found by search; the export is byte-identical after a refresh back to the same catalog", async () => {
    const changes = [];
    const b = tg.branch();
    b.register(tg.tool({ name: "local", description: "A local tool.", parameters: OBJ({}), handler: () => 1 }));
    const names = await b.registerMcpServer({ name: "live", url: live.url }, { security: { allowUrls: true, allowLoopbackHttp: true }, defer: true, onToolsChanged: (e) => changes.push(e) });
    assert.deepEqual(names, ["mcp__live__alpha", "mcp__live__beta"]);
    await eventually("the standalone stream opens", () => live.openGets === 1);
    const first = JSON.stringify(tg.toProvider(b, "openai-chat"));
    assert.deepEqual(exportedNames(JSON.parse(first).tools, "openai-chat"), ["local", "tool_search"]);

    live.change((server, tools, addTool) => tools.set("gamma", addTool(server, "gamma", "Counts gamma rays.")));
    await eventually("gamma is added", () => changes.some((c) => c.added?.includes("mcp__live__gamma")));
    assert.deepEqual(exportedNames(tg.toProvider(b, "openai-chat").tools, "openai-chat"), ["local", "tool_search"], "a tool the refresh added is deferred too");
    assert.deepEqual(b.searchTools("gamma rays").map((h) => h.name), ["mcp__live__gamma"]);

    live.change((server, tools) => tools.get("gamma").remove());
    await eventually("gamma is removed", () => changes.some((c) => c.removed?.includes("mcp__live__gamma")));
    assert.equal(JSON.stringify(tg.toProvider(b, "openai-chat")), first, "the same catalog exports the same bytes");

    const fc = await b.invoke({ function: "tool_search", arguments: { query: "alpha ledger", limit: 1 } });
    assert.deepEqual(fc.response.tools.map((h) => h.name), ["mcp__live__alpha"]);
    assert.deepEqual(exportedNames(tg.toProvider(b, "openai-chat").tools, "openai-chat"), ["local", "mcp__live__alpha", "tool_search"]);
    assert.equal((await b.invoke({ function: "mcp__live__alpha", arguments: {} })).response, "alpha");
  });
});
