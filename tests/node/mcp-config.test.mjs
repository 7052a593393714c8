// MCP config files through the packed package: VS Code's {servers} layout beside {mcpServers}, an
// object with neither refused, and ${VAR} references in urls and headers expanded from the env
// option (Node's default process.env), their values kept out of records and errors. The server is
// the official TypeScript SDK's low-level Server on 127.0.0.1, recording the Authorization header.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { tg } from "./helpers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const SECRET = "tg-planted-secret-env-5c0ffee1";

/** A stateless server with one tool, "whoami", that fails echoing the Authorization header it got. */
async function startLocal() {
  const seen = [];
  const httpServer = http.createServer(async (req, res) => {
    seen.push(req.headers.authorization ?? null);
    const server = new Server({ name: "config-env", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [{ name: "whoami", inputSchema: { type: "object" } }] }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: "text", text: `you sent ${req.headers.authorization}` }], isError: true,
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on("close", () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const port = httpServer.address().port;
  return {
    port, seen, url: `http://127.0.0.1:${port}/mcp`,
    stop: () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); }),
  };
}

/** Awaits a promise that must reject with a ToolgateError of code; returns the error. */
async function rejectsWith(promise, code, what) {
  const err = await promise.then(() => undefined, (e) => e);
  assert.ok(tg.ToolgateError.isInstance(err), `${what}: got ${err}, want a ToolgateError ${code}`);
  assert.equal(err.code, code, `${what}: got ${err.code} (${err.message}), want ${code}`);
  return err;
}

describe("MCP config files", () => {
  let local;
  before(async () => { local = await startLocal(); });
  after(async () => {
    await tg.mcp.cleanup();
    await local?.stop();
  });

  test("VS Code's {servers} layout loads, its stdio entries skipped as every command server is", async () => {
    const b = tg.branch();
    const warned = [];
    const out = await b.loadMcpConfig({
      inputs: [],
      servers: { vs: { type: "http", url: local.url }, local: { type: "stdio", command: "npx", args: ["server"] } },
    }, { security: LOOPBACK, onWarning: (server, e) => warned.push([server, e.code]) });
    assert.deepEqual(out, { vs: ["mcp__vs__whoami"], local: [] });
    assert.deepEqual(warned, [["local", "unsupported"]]);
    const tools = await tg.loadMcpTools(JSON.stringify({ servers: { vs: { type: "http", url: local.url } } }), { security: LOOPBACK });
    assert.deepEqual(tools.map((t) => t.function), ["mcp__vs__whoami"]);
  });

  test("an object with neither mcpServers nor servers (or both) is refused, not loaded as nothing", async () => {
    for (const cfg of [{}, { other: 1 }, { mcpServer: { a: { url: local.url } } }, { servers: {}, mcpServers: {} }, "{}"]) {
      await rejectsWith(tg.branch().loadMcpConfig(cfg, { security: LOOPBACK }), "invalid-request", JSON.stringify(cfg));
      await rejectsWith(tg.loadMcpTools(cfg, { security: LOOPBACK }), "invalid-request", `loadMcpTools ${JSON.stringify(cfg)}`);
    }
  });

  test("${env:VAR} in a header is sent expanded from the env option, and no record or error shows it", async () => {
    const b = tg.branch();
    const before = local.seen.length;
    const cfg = { servers: { vs: { type: "http", url: local.url, headers: { Authorization: "Bearer ${env:TG_TEST_TOKEN}" } } } };
    await b.loadMcpConfig(cfg, { security: LOOPBACK, env: { TG_TEST_TOKEN: SECRET, UNRELATED: "x" } });
    assert.ok(local.seen.length > before);
    assert.deepEqual([...new Set(local.seen.slice(before))], [`Bearer ${SECRET}`], "every request carried the expanded header");
    const fc = await b.invoke({ function: "mcp__vs__whoami", arguments: {} });
    assert.equal(fc.status, "failed");
    assert.equal(fc.error.code, "tool-error");
    for (const [what, text] of [
      ["the error message", fc.error.message],
      ["the error's result", JSON.stringify(fc.error.result)],
      ["the record", JSON.stringify(fc.toDict())],
      ["the tool's record", JSON.stringify(b.tools.get("mcp__vs__whoami").toDict?.() ?? null)],
      ["the tool result", JSON.stringify(tg.toolResult(fc, "mcp"))],
    ]) {
      assert.ok(!text.includes(SECRET), `${what} shows the expanded value: ${text}`);
    }
  });

  test("${VAR} reads process.env by default, and ${VAR:-default} takes the default when VAR is unset", async () => {
    process.env.TG_TEST_TOKEN_DEFAULT = SECRET;
    try {
      const before = local.seen.length;
      const b = tg.branch();
      await b.loadMcpConfig({
        mcpServers: { cc: { url: `http://127.0.0.1:\${TG_TEST_UNSET_PORT:-${local.port}}/mcp`, headers: { Authorization: "Bearer ${TG_TEST_TOKEN_DEFAULT}" } } },
      }, { security: LOOPBACK });
      assert.deepEqual([...b.tools.keys()], ["mcp__cc__whoami"]);
      assert.deepEqual([...new Set(local.seen.slice(before))], [`Bearer ${SECRET}`]);
    } finally {
      delete process.env.TG_TEST_TOKEN_DEFAULT;
    }
  });

  test("an unset variable, ${input:…} or a broken reference refuses the whole load, naming the variable and the server", async () => {
    const cases = [
      ["Bearer ${TG_TEST_SURELY_UNSET}", "unset-variable", "TG_TEST_SURELY_UNSET"],
      ["Bearer ${input:api-key}", "input-variable", "api-key"],
      ["Bearer ${TG_TEST", "variable-syntax", null],
    ];
    for (const [header, rule, named] of cases) {
      const b = tg.branch();
      const cfg = { servers: { ok: { type: "http", url: local.url }, gh: { type: "http", url: local.url, headers: { Authorization: header } } } };
      const err = await rejectsWith(b.loadMcpConfig(cfg, { security: LOOPBACK, env: { OTHER: SECRET } }), "invalid-tool", header);
      assert.equal(err.rule, rule);
      assert.equal(err.tool, "gh");
      if (named) assert.ok(err.message.includes(named), `the message names ${named}: ${err.message}`);
      assert.ok(!err.message.includes(SECRET));
      assert.equal(b.tools.size, 0, "nothing registered");
    }
    await rejectsWith(tg.loadMcpTools({ mcpServers: { u: { url: "http://127.0.0.1:${TG_TEST_NO_PORT}/mcp" } } }, { security: LOOPBACK, env: null }),
      "invalid-tool", "env: null sets nothing");
  });

  test("a bad env option is unsupported-type naming the key, never the value", async () => {
    const b = tg.branch();
    const cfg = { servers: { vs: { url: local.url, headers: { A: "${A}" } } } };
    const err = await rejectsWith(b.loadMcpConfig(cfg, { security: LOOPBACK, env: { A: 5 } }), "unsupported-type", "a number");
    assert.ok(err.message.includes("env.A"));
    await rejectsWith(b.loadMcpConfig(cfg, { security: LOOPBACK, env: "A=1" }), "unsupported-type", "a string");
  });
});
