// Client capabilities as hooks through the packed package: server-everything (Streamable HTTP, and
// the legacy SSE transport once) shows the tools that need sampling, elicitation and roots only to a
// client that declares them, and its tools reach the hooks; a local server written with the
// official TypeScript SDK covers what server-everything lacks (defaults applied to an elicitation,
// a request for a capability that was not declared, a hook that throws). Everything listens on
// 127.0.0.1 and is stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { tg } from "./helpers.mjs";
import { CEILING_MS } from "./waits.mjs";
import { startEverything } from "./mcp-servers.mjs";
import { serveSdkV1 } from "./sdk-v1-http.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const SECRET = "tg-hook-secret-51c0";
const NEEDS_HOOKS = ["trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"];

/** A sampling hook answering with its prompt echoed, recording the params it got. */
function echoModel(seen = []) {
  return async (params, { signal }) => {
    assert.ok(signal instanceof AbortSignal);
    seen.push(params);
    const text = params.messages.map((m) => m.content.text).join(" ");
    return { role: "assistant", content: { type: "text", text: `app model says: ${text}` }, model: "app-model", stopReason: "endTurn" };
  };
}

/** The response text of a call that must complete. */
async function callText(b, name, args = {}) {
  const fc = await b.invoke({ function: name, arguments: args });
  assert.equal(fc.status, "completed", `${name}: got ${fc.status} (${fc.error?.code}: ${fc.error?.message})`);
  return typeof fc.response === "string" ? fc.response : JSON.stringify(fc.response);
}

/**
 * A stateful Streamable HTTP server on the SDK's McpServer. Its tools send the client requests of
 * their own mid-call (on the call's stream) and report what the client answered, error or result.
 */
async function startLocal() {
  const ask = (server, extra, request, schema, options) =>
    extra.sendRequest(request, schema, options).then(
      (r) => JSON.stringify(r),
      (e) => `error ${e.code} ${e.message}`,
    );
  const build = () => {
    const server = new McpServer({ name: "local-capabilities", version: "1.0.0" });
    server.registerTool("ask-defaults", { description: "Elicits a form whose fields have defaults." }, async (extra) => ({
      content: [{ type: "text", text: await ask(server, extra, { method: "elicitation/create", params: {
        message: "Your details?",
        requestedSchema: { type: "object", properties: {
          name: { type: "string", default: "Ada" },
          age: { type: "integer", minimum: 0, default: 36 },
          color: { type: "string", enum: ["red", "blue"], default: "blue" },
          note: { type: "string" },
        } },
      } }, ElicitResultSchema) }],
    }));
    server.registerTool("sample", { description: "Asks for sampling." }, async (extra) => ({
      content: [{ type: "text", text: await ask(server, extra, { method: "sampling/createMessage", params: {
        messages: [{ role: "user", content: { type: "text", text: "hello" } }], maxTokens: 5,
      } }, CreateMessageResultSchema) }],
    }));
    server.registerTool("ask-briefly", { description: "Elicits, giving up after 300 ms (notifications/cancelled)." }, async (extra) => ({
      content: [{ type: "text", text: await ask(server, extra, { method: "elicitation/create", params: {
        message: "Quick!", requestedSchema: { type: "object", properties: {} },
      } }, ElicitResultSchema, { timeout: 300 }) }],
    }));
    server.registerTool("roots", { description: "Asks for the roots." }, async (extra) => ({
      content: [{ type: "text", text: await ask(server, extra, { method: "roots/list" }, ListRootsResultSchema) }],
    }));
    return server;
  };
  const host = await serveSdkV1(build);
  return {
    url: host.url,
    stop: host.stop,
  };
}

describe("MCP client capabilities", () => {
  let ev;
  let evSSE;
  let local;
  before(async () => {
    [ev, evSSE, local] = await Promise.all([startEverything("streamable-http"), startEverything("sse"), startLocal()]);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all([ev?.stop(), evSSE?.stop(), local?.stop()]);
  });

  test("server-everything lists the tools that need sampling, elicitation and roots only to a client with those hooks", async () => {
    const plain = await tg.branch().registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK });
    for (const n of NEEDS_HOOKS) assert.ok(!plain.includes(`mcp__ev__${n}`), `${n} is hidden without hooks (got ${plain.join(", ")})`);
    const capable = await tg.branch().registerMcpServer({ name: "ev", url: ev.url }, {
      security: LOOPBACK, roots: [{ uri: "file:///tmp/work", name: "work" }], sampling: echoModel(), elicitation: async () => ({ action: "decline" }),
    });
    for (const n of NEEDS_HOOKS) assert.ok(capable.includes(`mcp__ev__${n}`), `${n} is listed with hooks (got ${capable.join(", ")})`);
    assert.ok(!capable.includes("mcp__ev__trigger-url-elicitation"), "URL-mode elicitation is not declared");
    assert.equal(capable.length, plain.length + NEEDS_HOOKS.length);
  });

  test("server-everything's sampling, elicitation and roots tools reach the hooks", async () => {
    const seen = [];
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: ev.url }, {
      security: LOOPBACK,
      roots: async () => [{ uri: "file:///srv/project", name: "project" }],
      sampling: echoModel(seen),
      elicitation: async (params) => {
        assert.equal(params.requestedSchema.type, "object");
        return { action: "accept", content: { name: "Ada Lovelace", check: true } };
      },
    });
    const sampled = await callText(b, "mcp__ev__trigger-sampling-request", { prompt: "ping the model", maxTokens: 20 });
    assert.match(sampled, /app model says: .*ping the model/);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].maxTokens, 20);

    const elicited = await callText(b, "mcp__ev__trigger-elicitation-request");
    assert.match(elicited, /- Name: Ada Lovelace/);
    assert.match(elicited, /- Favorite Integer: 42/, "the schema's default fills a field the hook left out");
    assert.match(elicited, /It was a dark and stormy night\./);

    assert.match(await callText(b, "mcp__ev__get-roots-list"), /URI: file:\/\/\/srv\/project/);
  });

  test("over the legacy SSE transport, a sampling hook answers server-everything", async () => {
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "evsse", url: evSSE.url, transport: "sse" }, { security: LOOPBACK, sampling: echoModel() });
    assert.ok(names.includes("mcp__evsse__trigger-sampling-request"));
    assert.match(await callText(b, "mcp__evsse__trigger-sampling-request", { prompt: "over sse" }), /app model says: .*over sse/);
  });

  test("an accepted elicitation gets the requested schema's defaults for what the hook left out (SEP-1034)", async () => {
    for (const [answer, want] of [
      [{ action: "accept" }, { name: "Ada", age: 36, color: "blue" }],
      [{ action: "accept", content: { name: "Grace", note: "hi" } }, { name: "Grace", age: 36, color: "blue", note: "hi" }],
    ]) {
      const b = tg.branch();
      await b.registerMcpServer({ name: "local", url: local.url }, { security: LOOPBACK, elicitation: async () => answer });
      const got = JSON.parse(await callText(b, "mcp__local__ask-defaults"));
      assert.deepEqual(got, { action: "accept", content: want });
    }
  });

  test("a request for a capability that was not declared is answered -32601 and the call still ends", async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "local", url: local.url }, { security: LOOPBACK, elicitation: async () => ({ action: "cancel" }) });
    assert.match(await callText(b, "mcp__local__sample"), /^error -32601 .*Method not found/);
    assert.match(await callText(b, "mcp__local__roots"), /^error -32601 .*Method not found/);
    assert.equal(await callText(b, "mcp__local__ask-defaults"), '{"action":"cancel"}', "the declared one still works");
  });

  test("a hook that throws answers -32603 without its message, and the instance keeps working", async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "local", url: local.url }, {
      security: LOOPBACK,
      sampling: async () => { throw new Error(`model down: ${SECRET}`); },
      roots: () => [{ uri: "https://example.com/not-a-file" }],
      elicitation: async () => ({ action: "sure" }),
    });
    const sampled = await callText(b, "mcp__local__sample");
    assert.match(sampled, /^error -32603 .*the client's sampling hook failed/);
    assert.ok(!sampled.includes(SECRET), sampled);
    assert.match(await callText(b, "mcp__local__roots"), /^error -32602 .*roots\[0\]\.uri must be a file:\/\/ URI/);
    assert.match(await callText(b, "mcp__local__ask-defaults"), /^error -32602 .*action must be "accept", "decline" or "cancel"/);
    const again = tg.branch();
    await again.registerMcpServer({ name: "local", url: local.url }, { security: LOOPBACK, sampling: echoModel() });
    assert.match(await callText(again, "mcp__local__sample"), /app model says: hello/);
  });

  test("when the server cancels its request, the hook's signal aborts", async () => {
    let aborted;
    const wasAborted = new Promise((resolve) => { aborted = resolve; });
    const b = tg.branch();
    // timeoutMs is the ceiling, so only the server's cancel (after its 300 ms) can abort the hook before half of it
    await b.registerMcpServer({ name: "local", url: local.url }, {
      security: { ...LOOPBACK, timeoutMs: CEILING_MS },
      elicitation: (_params, { signal }) => new Promise((resolve) => {
        signal.addEventListener("abort", () => { aborted(true); resolve({ action: "cancel" }); }, { once: true });
      }),
    });
    assert.match(await callText(b, "mcp__local__ask-briefly"), /^error -32001 .*timed out/i);
    const late = new Promise((resolve) => setTimeout(resolve, CEILING_MS / 2, false).unref());
    assert.equal(await Promise.race([wasAborted, late]), true, "aborted by the server's cancel, well before timeoutMs");
  });

  test("hook options of the wrong type are refused, naming the option, and register nothing", async () => {
    const b = tg.branch();
    const cfg = { name: "local", url: local.url };
    for (const [opts, re] of [
      [{ sampling: "model" }, /option sampling must be a function/],
      [{ elicitation: { action: "accept" } }, /option elicitation must be a function/],
      [{ roots: "file:///x" }, /option roots must be a function/],
      [{ roots: [{ name: "no uri" }] }, /option roots\[0\] must be \{uri: string, name\?: string\}/],
      [{ roots: [{ uri: "/tmp" }] }, /roots\[0\]\.uri must be a file:\/\/ URI/],
    ]) {
      await assert.rejects(b.registerMcpServer(cfg, { security: LOOPBACK, ...opts }), (e) => e.code === "unsupported-type" && re.test(e.message));
    }
    await assert.rejects(b.loadMcpConfig({ mcpServers: {} }, { security: LOOPBACK, sampling: 1 }), /option sampling must be a function/);
    await assert.rejects(tg.loadMcpTools({ mcpServers: {} }, { security: LOOPBACK, elicitation: true }), /option elicitation must be a function/);
    assert.equal(b.schemaList.length, 0);
  });

  test("loadMcpConfig and loadMcpTools pass the hooks to every server", async () => {
    const config = { mcpServers: { local: { url: local.url } } };
    const b = tg.branch();
    await b.loadMcpConfig(config, { security: LOOPBACK, sampling: echoModel() });
    assert.match(await callText(b, "mcp__local__sample"), /app model says: hello/);
    const tools = await tg.loadMcpTools(config, { security: LOOPBACK, roots: [{ uri: "file:///r" }] });
    const viaTools = tg.branch({ tools });
    assert.match(await callText(viaTools, "mcp__local__roots"), /"uri":"file:\/\/\/r"/);
  });
});
