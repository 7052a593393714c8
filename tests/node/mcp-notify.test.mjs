// Server notifications through the packed package: progress of server-everything's long-running
// tool on both transports (per registration and per call), and list changes of a local server
// written with the official TypeScript SDK's McpServer, whose tool set changes while it runs
// (registerTool and tool.remove() send notifications/tools/list_changed). Everything listens on
// 127.0.0.1 and is stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { tg } from "./helpers.mjs";
import { eventually } from "./waits.mjs";
import { startEverything } from "./mcp-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const LONG = "mcp__ev__trigger-long-running-operation";

/** A text tool of the SDK's McpServer. */
function addTool(server, name, description = `tool ${name}`) {
  return server.registerTool(name, { description, inputSchema: {} }, async () => ({ content: [{ type: "text", text: name }] }));
}

/**
 * A stateful Streamable HTTP server: one McpServer per session, each starting with the tools
 * alpha and beta. change(f) runs f(server, tools) on every live session's server; gets counts the
 * standalone GET streams opened.
 */
async function startLive() {
  const sessions = new Map();
  const live = { gets: 0, openGets: 0 };
  const httpServer = http.createServer(async (req, res) => {
    if (req.method === "GET") {
      live.gets++;
      live.openGets++;
      res.on("close", () => live.openGets--);
    }
    let s = sessions.get(req.headers["mcp-session-id"]);
    if (!s) {
      const server = new McpServer({ name: "live", version: "1.0.0" });
      const tools = new Map([["alpha", addTool(server, "alpha")], ["beta", addTool(server, "beta")]]);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, s) });
      s = { server, transport, tools };
      await server.connect(transport);
    }
    await s.transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  live.url = `http://127.0.0.1:${httpServer.address().port}/mcp`;
  live.change = (f) => {
    for (const s of sessions.values()) f(s.server, s.tools);
  };
  live.stop = () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); });
  return live;
}

/** The function names of a branch's schemas. */
const schemaNames = (b) => b.schemaList.map((s) => s.function.name);

describe("MCP notifications", () => {
  const ev = {};
  let live;
  before(async () => {
    [ev["streamable-http"], ev.sse, live] = await Promise.all([startEverything("streamable-http"), startEverything("sse"), startLive()]);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all([ev["streamable-http"]?.stop(), ev.sse?.stop(), live?.stop()]);
  });

  for (const mode of ["streamable-http", "sse"]) {
    test(`progress of server-everything's long-running operation reaches onProgress in order (${mode})`, async () => {
      const registered = [];
      const perCall = [];
      const b = tg.branch();
      const names = await b.registerMcpServer({ name: "ev", url: ev[mode].url, transport: mode }, { security: LOOPBACK, onProgress: (e) => registered.push(e) });
      assert.ok(names.includes(LONG), `the long-running tool is registered (got ${names.join(", ")})`);
      const fc = await b.invoke({ function: LONG, arguments: { duration: 0.6, steps: 3 } }, { onProgress: (e) => perCall.push(e) });
      assert.equal(fc.status, "completed", `${fc.error?.code}: ${fc.error?.message}`);
      assert.match(fc.response, /Steps: 3/);
      assert.deepEqual(registered, [1, 2, 3].map((progress) => ({ server: "ev", tool: "trigger-long-running-operation", name: LONG, progress, total: 3 })));
      assert.deepEqual(perCall, registered, "the per-call listener gets the same events");
      const echo = await b.invoke({ function: "mcp__ev__echo", arguments: { message: "hi" } });
      assert.equal(echo.status, "completed");
      assert.equal(registered.length, 3, "nothing after the call ended, nothing for another call");
      const stats = tg[Symbol.for("toolgate.debug")].mcpStats();
      assert.ok(stats.progressDelivered >= 3);
    });
  }

  test("a listener option that is not a function is refused before anything is sent", async () => {
    const b = tg.branch();
    await assert.rejects(b.registerMcpServer({ name: "ev", url: live.url }, { security: LOOPBACK, onProgress: 1 }), { code: "unsupported-type" });
    await assert.rejects(b.loadMcpConfig({ mcpServers: {} }, { security: LOOPBACK, onToolsChanged: "x" }), { code: "unsupported-type" });
    await assert.rejects(tg.loadMcpTools({ mcpServers: {} }, { security: LOOPBACK, onToolsChanged: () => {} }), { code: "unsupported-type" });
    await assert.rejects(b.invoke({ function: "nope", arguments: {} }, { onProgress: {} }), { code: "unsupported-type" });
  });

  test("a server whose tools change at runtime refreshes the branch's tools", async () => {
    const changes = [];
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "live", url: live.url }, { security: LOOPBACK, onToolsChanged: (e) => changes.push(e) });
    assert.deepEqual(names, ["mcp__live__alpha", "mcp__live__beta"]);
    await eventually("the standalone stream opens", () => live.openGets === 1);

    live.change((server, tools) => {
      tools.set("gamma", addTool(server, "gamma"));
      tools.get("alpha").remove();
    });
    await eventually("both changes are reported", () => changes.some((c) => c.added?.includes("mcp__live__gamma")) && changes.some((c) => c.removed?.includes("mcp__live__alpha")));
    assert.ok(changes.every((c) => c.server === "live" && !c.error));
    assert.deepEqual(schemaNames(b), ["mcp__live__beta", "mcp__live__gamma"]);
    assert.deepEqual([...b.tools.keys()], ["mcp__live__beta", "mcp__live__gamma"]);
    const fc = await b.invoke({ function: "mcp__live__gamma", arguments: {} });
    assert.equal(fc.response, "gamma");
    await assert.rejects(b.invoke({ function: "mcp__live__alpha", arguments: {} }), { code: "tool-not-found" });

    const n = changes.length;
    live.change((server, tools) => tools.get("beta").update({ description: "beta, changed" }));
    await eventually("the change is reported", () => changes.length > n);
    assert.deepEqual(changes.at(-1), { server: "live", added: [], removed: [], changed: ["mcp__live__beta"] });
    assert.equal(b.schemaList[0].function.description, "beta, changed");
  });

  test("a refreshed list that collides with a local tool is refused whole and reported", async () => {
    const changes = [];
    const b = tg.branch();
    await b.registerMcpServer({ name: "live", url: live.url }, { security: LOOPBACK, qualify: false, onToolsChanged: (e) => changes.push(e) });
    b.register(tg.tool({ name: "delta", parameters: { type: "object", properties: {} }, handler: () => "local" }));
    const before = schemaNames(b);
    live.change((server, tools) => {
      tools.set("epsilon", addTool(server, "epsilon"));
      tools.set("delta", addTool(server, "delta"));
    });
    await eventually("the refusal is reported", () => changes.some((c) => c.error));
    const refused = changes.find((c) => c.error);
    assert.ok(tg.ToolgateError.isInstance(refused.error));
    assert.equal(refused.error.code, "duplicate-tool");
    assert.match(refused.error.message, /delta/);
    assert.deepEqual(schemaNames(b), before, "the old set stays, epsilon is not added");
    assert.equal((await b.invoke({ function: "delta", arguments: {} })).response, "local");
  });
});
