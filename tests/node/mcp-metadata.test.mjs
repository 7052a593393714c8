// What an MCP server says of its tools and results, kept as it said it, through the packed package:
// server-everything's title, outputSchema, annotations and execution on tool.mcp and in the mcp
// export; its task-required tool (simulate-research-query) called as an MCP task and exported like
// the others; and results in the server's key order (a local server written with the
// official TypeScript SDK's low-level Server, whose answers we write key by key). Everything listens
// on 127.0.0.1 and is stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { tg } from "./helpers.mjs";
import { startEverything } from "./mcp-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });

// Keys in no alphabetical order, as a server may write them: a model reads this text.
const STRUCTURED = { zeta: 1, alpha: { y: 2.5, b: [{ k: 1, a: 0 }] }, mid: "x" };
const ITEM = { type: "text", text: "weather", annotations: { priority: 1, audience: ["user"] } };
const ITEM2 = { type: "resource_link", uri: "demo://r/1", name: "r1", mimeType: "text/plain" };
const ORDERED = { content: [ITEM, ITEM2], structuredContent: STRUCTURED };

/**
 * A stateless server with one tool, "ordered", answering ORDERED; wire holds the JSON text of each
 * tools/call result as it went out (the SDK writes content items in its schema's key order).
 */
async function startOrdered() {
  const calls = [];
  const wire = [];
  const httpServer = http.createServer(async (req, res) => {
    const chunks = [];
    const keep = (chunk) => {
      if (chunk && typeof chunk !== "function") chunks.push(Buffer.from(chunk));
    };
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = (chunk, ...rest) => (keep(chunk), write(chunk, ...rest));
    res.end = (chunk, ...rest) => {
      keep(chunk);
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.includes('"structuredContent"')) wire.push(JSON.stringify(JSON.parse(text).result));
      return end(chunk, ...rest);
    };
    const server = new Server({ name: "ordered", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "ordered", inputSchema: { type: "object" } }] }));
    server.setRequestHandler(CallToolRequestSchema, async (r) => {
      calls.push(r.params.name);
      return ORDERED;
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    calls, wire, url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    stop: () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); }),
  };
}

describe("MCP metadata and result order", () => {
  let ev;
  let ordered;
  before(async () => {
    [ev, ordered] = await Promise.all([startEverything("streamable-http"), startOrdered()]);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all([ev?.stop(), ordered?.stop()]);
  });

  test("tool.mcp keeps a tool's title, outputSchema, annotations and execution as the server sent them", async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK });
    const info = b.tools.get("mcp__ev__get-structured-content").mcp;
    assert.equal(info.title, "Get Structured Content Tool");
    assert.equal(info.outputSchema.type, "object");
    assert.deepEqual(Object.keys(info.outputSchema.properties), ["temperature", "conditions", "humidity"], "in the server's order");
    assert.equal(info.annotations.readOnlyHint, true);
    assert.equal(info.taskRequired, undefined);
    let titled = 0;
    let withOutput = 0;
    for (const t of b.tools.values()) {
      if (typeof t.mcp.title === "string") titled++;
      if (t.mcp.outputSchema) withOutput++;
    }
    assert.ok(titled >= 10, `got ${titled} tools with a title`);
    assert.ok(withOutput >= 1, `got ${withOutput} tools with an outputSchema`);
  });

  test("toProvider(b, \"mcp\") writes title, outputSchema and annotations again", async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK });
    const { tools } = tg.toProvider(b, "mcp");
    const t = tools.find((x) => x.name === "mcp__ev__get-structured-content");
    const info = b.tools.get("mcp__ev__get-structured-content").mcp;
    assert.equal(t.title, info.title);
    assert.deepEqual(t.outputSchema, info.outputSchema);
    assert.deepEqual(t.annotations, info.annotations);
    assert.equal(t.execution, undefined, "toolgate runs the tasks itself: an exported tool is called plainly");
  });

  test("a tool whose execution.taskSupport is required runs as an MCP task and is exported like any other", async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK });
    const name = "mcp__ev__simulate-research-query";
    const info = b.tools.get(name).mcp;
    assert.equal(info.execution.taskSupport, "required");
    assert.equal(info.taskRequired, true);
    const fc = await b.invoke({ function: name, arguments: { topic: "x" } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.match(fc.response, /Research Report: x/);
    for (const target of ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"]) {
      const { tools, report } = tg.toProvider(b, target);
      assert.ok(JSON.stringify(tools).includes("simulate-research-query"), `${target}: exported`);
      assert.deepEqual(report.changes.filter((c) => c.kind === "tool-left-out"), [], target);
    }
  });

  test("results keep the server's key order: structuredContent, content items, the record, the tool result", async () => {
    const full = tg.branch();
    await full.registerMcpServer({ name: "o", url: ordered.url }, { security: LOOPBACK, result: "full" });
    const fc = await full.invoke({ function: "mcp__o__ordered", arguments: {} });
    assert.equal(fc.status, "completed", fc.error?.message);
    const sent = ordered.wire.at(-1);
    assert.ok(sent.startsWith('{"content":[{"type":"text","text":"weather",'), `the server wrote ${sent}`);
    assert.equal(JSON.stringify(fc.response), sent, "the whole result in the server's order");
    assert.equal(JSON.stringify(fc.response.structuredContent), '{"zeta":1,"alpha":{"y":2.5,"b":[{"k":1,"a":0}]},"mid":"x"}');
    assert.equal(JSON.stringify(fc.toDict().execution.response), sent, "the record too");
    const items = JSON.stringify(JSON.parse(sent).content);
    const asked = await full.invoke({ type: "tool_use", id: "toolu_1", name: "mcp__o__ordered", input: {} });
    const told = tg.toolResult(asked, "anthropic").content;
    assert.equal(told, sent, "the text the model reads is the server's JSON");

    const lion = tg.branch();
    await lion.registerMcpServer({ name: "o", url: ordered.url }, { security: LOOPBACK });
    const fc2 = await lion.invoke({ function: "mcp__o__ordered", arguments: {} });
    assert.equal(JSON.stringify(fc2.response), items, "the content list in the server's order");
    assert.equal(tg.toolResult(fc2, "mcp").content[0].text, items, "the mcp tool result's text");
    const asked2 = await lion.invoke({ type: "tool_use", id: "toolu_2", name: "mcp__o__ordered", input: {} });
    assert.equal(tg.toolResult(asked2, "anthropic").content, items, "the text the model reads");
  });
});
