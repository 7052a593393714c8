// MCP tool filtering and approval through the packed package: server-everything's annotated tools
// (compared with what the official TypeScript client lists), and a local server written with the
// SDK's Server class for destructive, unannotated and broken tools, whose tools/call log shows what
// was sent. Also the small gaps: a one-entry config's result mode, a tool-error's own content in
// tg.toolResult's mcp target, and the record of a tool-error. Everything listens on 127.0.0.1.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { ToolgateError } from "toolgate";
import { tg } from "./helpers.mjs";
import { startEverything } from "./mcp-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const OBJ = { type: "object", properties: { q: { type: "string" } } };

/** The local server's tools: name → {annotations?, inputSchema?, result?}. */
const LOCAL_TOOLS = {
  wipe: { annotations: { title: "Wipe", destructiveHint: true, openWorldHint: false }, inputSchema: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } },
  bare: {},
  peek: { annotations: { readOnlyHint: true, openWorldHint: false } },
  fetch: { annotations: { readOnlyHint: true, openWorldHint: true } },
  fail: {
    annotations: { readOnlyHint: true, openWorldHint: false },
    result: { content: [{ type: "text", text: "disk full" }, { type: "image", data: "aGk=", mimeType: "image/png" }], isError: true },
  },
};

/** A stateless SDK server over `tools`; `calls` logs every tools/call it receives ({name, arguments}). */
async function startLocal(tools) {
  const calls = [];
  const httpServer = http.createServer(async (req, res) => {
    const server = new Server({ name: "local-filter", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({
      tools: Object.entries(tools).map(([name, t]) => ({ name, inputSchema: t.inputSchema ?? OBJ, ...(t.annotations ? { annotations: t.annotations } : {}) })),
    }));
    server.setRequestHandler(CallToolRequestSchema, async (r) => {
      calls.push({ name: r.params.name, arguments: r.params.arguments });
      return tools[r.params.name].result ?? { content: [{ type: "text", text: `ran ${r.params.name}` }] };
    });
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
    calls,
    stop: () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); }),
  };
}

/** The spec's effective hints of an annotations object (absent: defaults). */
function effective(a = {}) {
  const readOnly = a.readOnlyHint ?? false;
  return { readOnly, destructive: readOnly ? false : (a.destructiveHint ?? true), openWorld: a.openWorldHint ?? true };
}

/** The error a call that must fail failed with. */
async function failed(b, name, args) {
  const fc = await b.invoke({ function: name, arguments: args });
  assert.equal(fc.status, "failed", `${name}: got ${fc.status}, want failed`);
  assert.ok(ToolgateError.isInstance(fc.error));
  return fc;
}

describe("MCP filtering and approval", () => {
  let ev;
  let local;
  let official; // server-everything's tools as the official client lists them
  before(async () => {
    [ev, local] = await Promise.all([startEverything("streamable-http"), startLocal(LOCAL_TOOLS)]);
    const c = new Client({ name: "official", version: "1.0.0" });
    await c.connect(new StreamableHTTPClientTransport(new URL(ev.url)));
    official = (await c.listTools()).tools;
    await c.close();
  });
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all([ev?.stop(), local?.stop()]);
  });

  test("tool.mcp carries server-everything's annotations and metadata as the official client sees them", async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK });
    assert.ok(official.every((t) => t.annotations), "server-everything annotates every tool");
    for (const t of official) {
      const tool = b.tools.get(`mcp__ev__${t.name}`);
      assert.ok(tool, `${t.name} is registered`);
      const meta = Object.fromEntries(["title", "outputSchema", "execution", "icons", "_meta"].filter((k) => t[k] !== undefined).map((k) => [k, t[k]]));
      const taskRequired = t.execution?.taskSupport === "required" ? { taskRequired: true } : {};
      assert.deepEqual(tool.mcp, { server: "ev", tool: t.name, annotations: t.annotations, protocolVersion: "2025-11-25", ...meta, ...taskRequired });
    }
    const info = b.tools.get("mcp__ev__echo").mcp;
    info.annotations.readOnlyHint = false;
    assert.equal(b.tools.get("mcp__ev__echo").mcp.annotations.readOnlyHint, true, "a fresh copy each time");
    assert.equal(tg.tool(function local() {}).mcp, null, "a local tool has none");
    assert.ok(!JSON.stringify(b.tools.get("mcp__ev__echo").toDict()).includes("readOnlyHint"), "the record is LionAGI's");
  });

  test("annotation filters keep exactly the tools whose effective hint matches", async () => {
    for (const [filter, pick] of [
      [{ readOnlyHint: true }, (h) => h.readOnly],
      [{ readOnlyHint: false }, (h) => !h.readOnly],
      [{ openWorldHint: true }, (h) => h.openWorld],
      [{ destructiveHint: false, openWorldHint: false }, (h) => !h.destructive && !h.openWorld],
    ]) {
      const b = tg.branch();
      const names = await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, filter, qualify: false });
      const want = official.filter((t) => pick(effective(t.annotations))).map((t) => t.name);
      assert.ok(want.length > 0, `${JSON.stringify(filter)} selects something`);
      assert.deepEqual(names, want, JSON.stringify(filter));
      assert.deepEqual([...b.tools.keys()], want);
    }
  });

  test("spec defaults: an unannotated tool counts as destructive and open-world", async () => {
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK, filter: { destructiveHint: true }, qualify: false });
    assert.deepEqual(names, ["wipe", "bare"]);
    const open = await tg.branch().registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK, filter: { openWorldHint: true }, qualify: false });
    assert.deepEqual(open, ["bare", "fetch"]);
  });

  test("allow and block take names and globs; block wins; every entry point takes the filter", async () => {
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, qualify: false, filter: { allow: ["get-*", "echo"], block: new Set(["get-env", "get-t?ny-image"]) } });
    const want = official.map((t) => t.name).filter((n) => (n.startsWith("get-") || n === "echo") && n !== "get-env" && n !== "get-tiny-image");
    assert.deepEqual(names, want);

    const cfg = { mcpServers: { ev: { url: ev.url }, lo: { url: local.url } } };
    const loaded = await tg.branch().loadMcpConfig(cfg, { security: LOOPBACK, filter: { allow: ["echo", "peek"] } });
    assert.deepEqual(loaded, { ev: ["mcp__ev__echo"], lo: ["mcp__lo__peek"] }, "one filter for every server");
    const tools = await tg.loadMcpTools(cfg, { security: LOOPBACK, filter: { block: ["*"] } });
    assert.deepEqual(tools, []);
  });

  test("a broken tool is left out with a warning; filtered out, it is not even read", async () => {
    const broken = await startLocal({ good: {}, broken: { inputSchema: { type: "string" } } });
    try {
      const warned = [];
      const kept = await tg.branch().registerMcpServer({ name: "br", url: broken.url }, { security: LOOPBACK, onWarning: (s, e) => warned.push([s, e.code, e.tool]) });
      assert.deepEqual(kept, ["mcp__br__good"]);
      assert.deepEqual(warned, [["br", "invalid-schema", "broken"]]);
      const names = await tg.branch().registerMcpServer({ name: "br", url: broken.url }, {
        security: LOOPBACK, filter: { block: ["broken"] }, onWarning: () => assert.fail("a filtered-out tool is not reported"),
      });
      assert.deepEqual(names, ["mcp__br__good"]);
    } finally {
      await broken.stop();
    }
  });

  test("filter refusals are typed, name the option and register nothing", async () => {
    const b = tg.branch();
    const cases = [
      [{ filter: { block: ["rm -rf"] } }, "invalid-request", "filter.block[0]"],
      [{ filter: { allow: "echo" } }, "unsupported-type", "filter.allow"],
      [{ filter: { only: ["x"] } }, "unsupported-type", '"only"'],
      [{ filter: { readOnlyHint: 1 } }, "unsupported-type", "filter.readOnlyHint"],
      [{ filter: { readOnlyHint: true }, toolNames: ["echo"] }, "invalid-request", "annotations"],
    ];
    for (const [opts, code, named] of cases) {
      await assert.rejects(b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, ...opts }), (e) => {
        assert.equal(e.code, code, `${JSON.stringify(opts)}: ${e.message}`);
        assert.ok(e.message.includes(named), `${e.message} names ${named}`);
        return true;
      });
    }
    assert.equal(b.tools.size, 0);
    const declared = await b.registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, toolNames: ["echo", "delete_all"], filter: { block: ["delete_*"] } });
    assert.deepEqual(declared, ["mcp__ev__echo"], "allow/block apply to declared tools");
  });

  test("approval: the hook sees the validated, coerced arguments; true sends the call", async () => {
    const b = tg.branch();
    const asked = [];
    await b.registerMcpServer({ name: "lo", url: local.url }, {
      security: LOOPBACK, requireApproval: ["destructive"],
      approve: (req, { signal }) => {
        assert.ok(signal instanceof AbortSignal);
        asked.push(req);
        return { approved: true };
      },
    });
    const before = local.calls.length;
    const fc = await b.invoke({ function: "mcp__lo__wipe", arguments: { n: "7" } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.deepEqual(asked, [{ server: "lo", tool: "wipe", name: "mcp__lo__wipe", arguments: { n: 7 }, annotations: LOCAL_TOOLS.wipe.annotations, rules: ["destructive"] }]);
    assert.deepEqual(local.calls.slice(before), [{ name: "wipe", arguments: { n: 7 } }]);
    const peek = await b.invoke({ function: "mcp__lo__peek", arguments: {} });
    assert.equal(peek.status, "completed");
    assert.equal(asked.length, 1, "a read-only tool is not destructive: not asked");
  });

  test("approval is fail-closed: false, a throw, a timeout or another answer end policy-denied and send nothing", async () => {
    const hooks = [
      [() => false, "refused it"],
      [async () => ({ approved: false, reason: "not on Fridays" }), '"not on Fridays"'],
      [() => { throw new TypeError("secret-in-throw"); }, "threw: TypeError"],
      [() => new Promise(() => {}), "did not answer within 50 ms"],
      [() => "yes", "answered string"],
      [() => ({ approved: "true" }), 'boolean "approved"'],
    ];
    for (const [approve, says] of hooks) {
      const b = tg.branch();
      // Only the hook that never answers meets the short timeout: a busy machine may take longer
      // than 50 ms to run the others, which must be judged by what they answer.
      const approvalTimeoutMs = says.startsWith("did not answer") ? 50 : 60_000;
      await b.registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK, requireApproval: ["all"], approve, approvalTimeoutMs });
      const before = local.calls.length;
      const fc = await failed(b, "mcp__lo__bare", { q: "x" });
      assert.equal(fc.error.code, "policy-denied");
      assert.equal(fc.error.rule, "approval");
      assert.equal(fc.error.tool, "mcp__lo__bare");
      assert.ok(fc.error.message.includes('tool "bare" needs approval'), fc.error.message);
      assert.ok(fc.error.message.includes(says), `${fc.error.message} says ${says}`);
      assert.ok(!fc.error.message.includes("secret-in-throw"), "a thrown message is never quoted");
      assert.equal(local.calls.length, before, "the server saw no tools/call");
    }
  });

  test("the hook's signal aborts when the approval times out", async () => {
    const b = tg.branch();
    let aborted;
    await b.registerMcpServer({ name: "lo", url: local.url }, {
      security: LOOPBACK, requireApproval: ["openWorld"], approvalTimeoutMs: 30,
      approve: (_req, { signal }) => new Promise((resolve) => { aborted = new Promise((r) => signal.addEventListener("abort", () => r(true))); void resolve; }),
    });
    await failed(b, "mcp__lo__fetch", {});
    assert.equal(await aborted, true);
  });

  test("the caller's cancellation during an approval ends the call as cancelled, not denied, and sends nothing", async () => {
    const b = tg.branch();
    const ctrl = new AbortController();
    let hookSignal;
    await b.registerMcpServer({ name: "lo", url: local.url }, {
      security: LOOPBACK, requireApproval: ["all"],
      approve: (_req, { signal }) => {
        hookSignal = signal;
        setImmediate(() => ctrl.abort()); // the caller gives up while the approval is pending
        return new Promise(() => {});
      },
    });
    const before = local.calls.length;
    const fc = await b.invoke({ function: "mcp__lo__bare", arguments: {} }, { signal: ctrl.signal });
    assert.ok(fc.status === "aborted" || fc.status === "cancelled", `got ${fc.status} (${fc.error?.code}: ${fc.error?.message})`);
    assert.notEqual(fc.error?.rule, "approval");
    assert.equal(hookSignal.aborted, true, "the hook is told to stop");
    assert.equal(local.calls.length, before);
  });

  test("requireApproval without approve (and approve without requireApproval) refuses, registering nothing", async () => {
    const b = tg.branch();
    await assert.rejects(b.registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK, requireApproval: ["destructive"] }),
      (e) => e.code === "invalid-request" && e.message.includes("approve"));
    await assert.rejects(b.registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK, approve: () => true }),
      (e) => e.code === "invalid-request" && e.message.includes("requireApproval"));
    await assert.rejects(b.loadMcpConfig({ mcpServers: { lo: { url: local.url } } }, { security: LOOPBACK, requireApproval: ["all"] }), { code: "invalid-request" });
    await assert.rejects(tg.loadMcpTools({ mcpServers: { lo: { url: local.url } } }, { security: LOOPBACK, requireApproval: ["sometimes"], approve: () => true }), { code: "invalid-request" });
    await assert.rejects(b.registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK, requireApproval: ["all"], approve: "yes" }), { code: "unsupported-type" });
    assert.equal(b.tools.size, 0);
    const tools = await tg.loadMcpTools({ mcpServers: { lo: { url: local.url } } }, { security: LOOPBACK, requireApproval: ["all"], approve: () => false, filter: { allow: ["peek"] } });
    const b2 = tg.branch({ tools });
    const fc = await failed(b2, "mcp__lo__peek", {});
    assert.equal(fc.error.rule, "approval", "loadMcpTools' tools keep their approval");
  });

  test("a tool-error's own content reaches tg.toolResult's mcp target, and its record keeps the result", async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "lo", url: local.url }, { security: LOOPBACK });
    const fc = await failed(b, "mcp__lo__fail", {});
    assert.equal(fc.error.code, "tool-error");
    assert.deepEqual(tg.toolResult(fc, "mcp"), { content: LOCAL_TOOLS.fail.result.content, isError: true });
    assert.ok(!JSON.stringify(tg.toolResult(fc, "gemini")).includes("aGk="), "other targets send the failure text");
    const rec = fc.toDict();
    assert.deepEqual(rec.execution.error.result, { content: LOCAL_TOOLS.fail.result.content, isError: true });
    assert.equal(rec.execution.error.code, "tool-error");
  });

  test("a one-entry MCP config takes result: full", async () => {
    const b = tg.branch();
    b.register({ echo: { url: ev.url, security: LOOPBACK, result: "full" } });
    const fc = await b.invoke({ function: "echo", arguments: { message: "hi" } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.deepEqual(fc.response.content, [{ type: "text", text: "Echo: hi" }]);
    assert.equal(b.tools.get("echo").toDict().mcp_config.echo.result, "full");
    assert.throws(() => b.register({ sum: { url: ev.url, security: LOOPBACK, result: "raw" } }), { code: "unsupported-type" });
  });
});
