// MCP results through the packed package: server-everything's image, resource, annotated and
// structured-content tools in both result modes, and a local server written with the official
// TypeScript SDK's Server class for what server-everything lacks (structuredContent that breaks its
// outputSchema, isError results). Everything listens on 127.0.0.1 and is stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { tg } from "./helpers.mjs";
import { startEverything } from "./mcp-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const SECRET = "tg-planted-secret-9a1b77";
const COUNT = { type: "object", properties: { count: { type: "integer", minimum: 0 } }, required: ["count"] };

/** The local server's tools: {count} valid and invalid against COUNT, and two isError results. */
const LOCAL_TOOLS = {
  count: { result: { content: [{ type: "text", text: '{"count":3}' }], structuredContent: { count: 3 } } },
  "bad-count": { result: { content: [{ type: "text", text: "three" }], structuredContent: { count: "three", extra: -1 } } },
  "no-repo": { result: { content: [{ type: "text", text: "no such repo: acme/x" }], structuredContent: { count: "n/a" }, isError: true } },
  // 12345678901234567000 is written by JSON.stringify as that integer literal, beyond 2^53.
  "big-error": { result: { content: [], _meta: { n: 12345678901234567000 }, isError: true } },
  "echo-secret": { result: { content: [{ type: "text", text: `denied for ${SECRET}` }], isError: true } },
};

/** A stateless Streamable HTTP server built on the SDK's low-level Server (no output check of its own). */
async function startLocal() {
  const httpServer = http.createServer(async (req, res) => {
    const server = new Server({ name: "local-results", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: Object.keys(LOCAL_TOOLS).map((name) => ({ name, inputSchema: { type: "object" }, outputSchema: COUNT })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (r) => LOCAL_TOOLS[r.params.name].result);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => {
      transport.close();
      server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    stop: () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); }),
  };
}

/** An invoke that must complete; returns its response. */
async function call(b, name, args = {}) {
  const fc = await b.invoke({ function: name, arguments: args });
  assert.equal(fc.status, "completed", `${name}: got ${fc.status} (${fc.error?.code}: ${fc.error?.message}), want completed`);
  return fc.response;
}

describe("MCP results", () => {
  let ev;
  let local;
  before(async () => {
    [ev, local] = await Promise.all([startEverything("streamable-http"), startLocal()]);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all([ev?.stop(), local?.stop()]);
  });

  test("server-everything's result tools register in full mode", async () => {
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, result: "full" });
    for (const n of ["get-structured-content", "get-tiny-image", "get-resource-links", "get-resource-reference", "get-annotated-message"]) {
      assert.ok(names.includes(`mcp__ev__${n}`), `${n} is registered (got ${names.join(", ")})`);
    }
  });

  test('result: "full" keeps structuredContent, images, resource links, embedded resources and annotations', async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, result: "full" });
    const weather = await call(b, "mcp__ev__get-structured-content", { location: "Chicago" });
    assert.deepEqual(Object.keys(weather.structuredContent).sort(), ["conditions", "humidity", "temperature"]);
    assert.equal(typeof weather.structuredContent.temperature, "number");
    assert.deepEqual(JSON.parse(weather.content[0].text), weather.structuredContent, "the text item is kept beside it");

    const image = await call(b, "mcp__ev__get-tiny-image");
    const img = image.content.find((c) => c.type === "image");
    assert.equal(img.mimeType, "image/png");
    assert.match(img.data, /^[A-Za-z0-9+/]+=*$/, "base64 data kept whole");

    const links = await call(b, "mcp__ev__get-resource-links", { count: 2 });
    const rl = links.content.filter((c) => c.type === "resource_link");
    assert.equal(rl.length, 2);
    assert.match(rl[0].uri, /^demo:\/\/resource\//);
    assert.equal(typeof rl[0].name, "string");

    const ref = await call(b, "mcp__ev__get-resource-reference", { resourceType: "Text", resourceId: 1 });
    const embedded = ref.content.find((c) => c.type === "resource");
    assert.equal(embedded.resource.uri, "demo://resource/dynamic/text/1");
    assert.equal(typeof embedded.resource.text, "string");

    const note = await call(b, "mcp__ev__get-annotated-message", { messageType: "error", includeImage: false });
    assert.deepEqual(note.content[0].annotations, { audience: ["user", "assistant"], priority: 1 }, "annotations kept");
  });

  test('the default ("lionagi") unwraps a single text item to its string, as LionAGI does', async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK });
    assert.equal(await call(b, "mcp__ev__echo", { message: "hi" }), "Echo: hi");
    const note = await call(b, "mcp__ev__get-annotated-message", { messageType: "error", includeImage: false });
    assert.equal(note, "Error: Operation failed");
    const weather = await call(b, "mcp__ev__get-structured-content", { location: "Chicago" });
    assert.equal(typeof weather, "string", "structuredContent is not part of a LionAGI response");
    const links = await call(b, "mcp__ev__get-resource-links", { count: 1 });
    assert.ok(Array.isArray(links), "several items give the content list");
  });

  test("loadMcpConfig and loadMcpTools take the same result option", async () => {
    const cfg = { mcpServers: { ev: { url: ev.url } } };
    const b = tg.branch();
    await b.loadMcpConfig(cfg, { security: LOOPBACK, result: "full" });
    assert.deepEqual(await call(b, "mcp__ev__echo", { message: "x" }), { content: [{ type: "text", text: "Echo: x" }] });
    const tools = await tg.loadMcpTools(cfg, { security: LOOPBACK, result: "full" });
    const b2 = tg.branch({ tools });
    assert.equal((await call(b2, "mcp__ev__echo", { message: "y" })).content[0].text, "Echo: y");
  });

  test("an unknown result mode is unsupported-type and registers nothing", async () => {
    const b = tg.branch();
    for (const result of ["raw", 1, true]) {
      await assert.rejects(b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, result }),
        (e) => tg.ToolgateError.isInstance(e) && e.code === "unsupported-type" && /result/.test(e.message));
    }
    await assert.rejects(b.loadMcpConfig({ mcpServers: { ev: { url: ev.url } } }, { security: LOOPBACK, result: "Full" }),
      (e) => e.code === "unsupported-type");
    assert.equal(b.has("mcp__ev__echo"), false, "nothing registered");
    await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK });
    assert.equal(await call(b, "mcp__ev__echo", { message: "ok" }), "Echo: ok", "the branch keeps working");
  });

  test("structuredContent that breaks the outputSchema is invalid-result naming the tool and the paths", async () => {
    for (const result of ["lionagi", "full"]) {
      const b = tg.branch();
      await b.registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK, result });
      const fc = await b.invoke({ id: "call_1", function: "mcp__lo__bad-count", arguments: {} });
      assert.equal(fc.status, "failed");
      assert.ok(tg.ToolgateError.isInstance(fc.error));
      assert.equal(fc.error.code, "invalid-result");
      assert.equal(fc.error.tool, "mcp__lo__bad-count");
      assert.match(fc.error.message, /"bad-count".*outputSchema.*\/count/);
      assert.deepEqual(fc.error.issues.map((i) => [i.path, i.keyword]), [["/count", "type"]]);
      const msg = tg.toolResult(fc, "openai-chat");
      assert.match(msg.content, /field \/count, rule "type"/);
      const ok = await call(b, "mcp__lo__count");
      assert.deepEqual(result === "full" ? ok.structuredContent : ok, result === "full" ? { count: 3 } : '{"count":3}');
    }
  });

  test("isError is status failed, code tool-error, the result on the error, the tool's text in toolResult", async () => {
    for (const result of ["lionagi", "full"]) {
      const b = tg.branch();
      await b.registerMcpServer({ name: "lo", url: local.url, headers: { Authorization: `Bearer ${SECRET}` } }, { security: LOOPBACK, result });
      const fc = await b.invoke({ id: "call_2", function: "mcp__lo__no-repo", arguments: {} });
      assert.equal(fc.status, "failed");
      assert.equal(fc.response, null);
      assert.equal(fc.error.code, "tool-error");
      assert.notEqual(fc.error.code, "transport");
      assert.match(fc.error.message, /no such repo: acme\/x/);
      assert.deepEqual(fc.error.result, {
        content: [{ type: "text", text: "no such repo: acme/x" }], structuredContent: { count: "n/a" }, isError: true,
      }, "the whole result, its structuredContent not checked on isError");
      for (const target of ["openai-chat", "anthropic"]) {
        const text = JSON.stringify(tg.toolResult(fc, target));
        assert.match(text, /no such repo: acme\/x/, `${target} shows the tool's own text`);
        assert.match(text, /tool-error/, `${target} names the code`);
      }
      assert.deepEqual(tg.toolResult(fc, "mcp").content, [{ type: "text", text: "no such repo: acme/x" }], "mcp sends the tool's own content items");
      assert.equal(tg.toolResult(fc, "anthropic").is_error, true);
      assert.equal(tg.toolResult(fc, "mcp").isError, true);

      const big = await b.invoke({ function: "mcp__lo__big-error", arguments: {} });
      assert.equal(big.error.code, "tool-error");
      assert.equal(big.error.result._meta.n, 12345678901234567000n, "integers beyond 2^53 are read exactly, as responses are");

      const leak = await b.invoke({ function: "mcp__lo__echo-secret", arguments: {} });
      assert.equal(leak.error.code, "tool-error");
      assert.ok(!leak.error.message.includes(SECRET), "no header value in the message");
      assert.ok(!JSON.stringify(leak.error.result).includes(SECRET), "no header value in the result");
      assert.ok(!JSON.stringify(leak.toDict()).includes(SECRET), "no header value in the record");
    }
  });
});
