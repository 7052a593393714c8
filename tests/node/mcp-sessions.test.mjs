// MCP sessions through the packed package against a stateful server written with the official
// TypeScript SDK (McpServer + StreamableHTTPServerTransport with a session id generator and an
// event store): the session headers, one session for concurrent calls, re-initialize after a 404,
// resumption of a response stream the server ends early, the server's ping mid-call, and DELETE on
// cleanup. A wrapper records what reached the server. Everything listens on 127.0.0.1.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryEventStore } from "@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js";
import { EmptyResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { tg } from "./helpers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });

/** One McpServer per session, with the tools the cases need. */
function newServer() {
  const server = new McpServer({ name: "sessions", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
  server.registerTool("slow", { inputSchema: { ms: z.number() } }, async ({ ms }) => {
    await new Promise((r) => setTimeout(r, ms));
    return { content: [{ type: "text", text: `slept ${ms}` }] };
  });
  // Ends its response stream after the priming event, then answers: the client must resume.
  server.registerTool("polled", {}, async (extra) => {
    await new Promise((r) => setTimeout(r, 20));
    extra.closeSSEStream?.();
    await new Promise((r) => setTimeout(r, 100));
    return { content: [{ type: "text", text: "answered after the stream ended" }] };
  });
  // Pings the client on the call's stream and reports whether the ping was answered.
  server.registerTool("pinger", {}, async (extra) => {
    await extra.sendRequest({ method: "ping" }, EmptyResultSchema);
    return { content: [{ type: "text", text: "pong received" }] };
  });
  return server;
}

/** A stateful Streamable HTTP server; `log` holds every request as the server saw it. */
async function startStateful() {
  const sessions = new Map(); // session id -> transport
  const log = [];
  const httpServer = http.createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const parsed = body ? JSON.parse(body) : undefined;
    const id = req.headers["mcp-session-id"];
    log.push({
      method: req.method,
      rpc: parsed?.method ?? (parsed && "id" in parsed ? "answer" : undefined),
      session: id,
      version: req.headers["mcp-protocol-version"],
      lastEventId: req.headers["last-event-id"],
    });
    let transport = id ? sessions.get(id) : undefined;
    if (!transport && parsed?.method === "initialize") {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        eventStore: new InMemoryEventStore(),
        retryInterval: 10,
        onsessioninitialized: (sid) => sessions.set(sid, transport),
      });
      await newServer().connect(transport);
    }
    if (!transport) {
      res.writeHead(id ? 404 : 400, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: "Session not found" } }));
      return;
    }
    if (req.method === "DELETE") sessions.delete(id);
    await transport.handleRequest(req, res, parsed);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    log,
    forget: () => sessions.clear(), // the server restarted: every session id is unknown now
    stop: () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); }),
  };
}

/** An invoke that must complete; returns its response. */
async function call(b, name, args = {}) {
  const fc = await b.invoke({ function: name, arguments: args });
  assert.equal(fc.status, "completed", `${name}: got ${fc.status} (${fc.error?.code}: ${fc.error?.message}), want completed`);
  return fc.response;
}

describe("MCP sessions", () => {
  let srv;
  before(async () => {
    srv = await startStateful();
  });
  after(async () => {
    await tg.mcp.cleanup();
    await srv?.stop();
  });

  test("after initialize every request carries the session id and the negotiated protocol version; cleanup DELETEs the session", async () => {
    await tg.mcp.cleanup();
    srv.log.length = 0;
    const b = tg.branch();
    await b.registerMcpServer({ name: "s", url: srv.url }, { security: LOOPBACK });
    assert.equal(await call(b, "mcp__s__echo", { text: "hi" }), "hi");
    const init = srv.log.find((r) => r.rpc === "initialize");
    assert.equal(init.session, undefined, "initialize carries no session id");
    const after = srv.log.slice(srv.log.indexOf(init) + 1);
    assert.ok(after.length >= 3, "initialized, tools/list and tools/call follow");
    const ids = new Set(after.map((r) => r.session));
    assert.equal(ids.size, 1, "one session id on every later request");
    assert.match([...ids][0], /^[0-9a-f-]{36}$/);
    for (const r of after) assert.equal(r.version, "2025-11-25", `${r.method} ${r.rpc} carries MCP-Protocol-Version`);
    await tg.mcp.cleanup();
    const del = srv.log.filter((r) => r.method === "DELETE");
    assert.equal(del.length, 1, "cleanup ends the session with one DELETE");
    assert.equal(del[0].session, [...ids][0]);
  });

  test("one session carries concurrent calls", async () => {
    await tg.mcp.cleanup();
    srv.log.length = 0;
    const b = tg.branch();
    await b.registerMcpServer({ name: "s", url: srv.url }, { security: LOOPBACK });
    const outs = await Promise.all(Array.from({ length: 20 }, () => call(b, "mcp__s__slow", { ms: 50 })));
    assert.deepEqual(new Set(outs), new Set(["slept 50"]));
    assert.equal(srv.log.filter((r) => r.rpc === "initialize").length, 1, "twenty concurrent calls, one initialize");
    assert.equal(srv.log.filter((r) => r.rpc === "tools/call").length, 20);
  });

  test("a server that forgot the session (HTTP 404) gets one new initialize, and the call succeeds", async () => {
    await tg.mcp.cleanup();
    const b = tg.branch();
    await b.registerMcpServer({ name: "s", url: srv.url }, { security: LOOPBACK });
    assert.equal(await call(b, "mcp__s__echo", { text: "before" }), "before");
    srv.forget();
    srv.log.length = 0;
    assert.equal(await call(b, "mcp__s__echo", { text: "after" }), "after");
    const rpcs = srv.log.filter((r) => r.method === "POST").map((r) => r.rpc);
    assert.deepEqual(rpcs, ["tools/call", "initialize", "notifications/initialized", "tools/call"]);
    const [stale, , , retried] = srv.log.filter((r) => r.method === "POST");
    assert.notEqual(stale.session, retried.session, "the retry runs in the new session");
  });

  test("a response stream the server ends early is resumed with GET and Last-Event-ID, and the answer arrives", async () => {
    await tg.mcp.cleanup();
    srv.log.length = 0;
    const b = tg.branch();
    await b.registerMcpServer({ name: "s", url: srv.url }, { security: LOOPBACK });
    assert.equal(await call(b, "mcp__s__polled"), "answered after the stream ended");
    const resumes = srv.log.filter((r) => r.method === "GET" && r.lastEventId);
    assert.ok(resumes.length >= 1, "at least one GET resumed the stream");
    assert.ok(resumes[0].session, "the resume carries the session id");
    const stats = tg[Symbol.for("toolgate.debug")].mcpStats();
    assert.ok(stats.streamResumes >= 1);
  });

  test("a ping the server sends during a call is answered, and the call completes", async () => {
    await tg.mcp.cleanup();
    const b = tg.branch();
    await b.registerMcpServer({ name: "s", url: srv.url }, { security: LOOPBACK });
    assert.equal(await call(b, "mcp__s__pinger"), "pong received");
  });
});
