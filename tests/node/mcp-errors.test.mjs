// MCP HTTP errors as users see them through the packed package: the status and the server's
// JSON-RPC error as data on the ToolgateError (transport: httpStatus, rpcCode, rpcMessage), a message that
// says what the status means, the legacy SSE hint only for a real legacy SSE server, nothing
// registered, no header value quoted, and the branch still working. Servers are node:http on
// 127.0.0.1 and server-everything in SSE mode, stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { tg } from "./helpers.mjs";
import { startEverything } from "./mcp-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
// Planted in the Authorization header of every config: no error may contain it.
const SECRET = "tg-planted-secret-9d2b47";
const SSE_HINT = 'set transport: "sse"';

/** A node:http server on 127.0.0.1 answering every request (its text in req.body) with handler; resolves to {url, close}. */
function serve(handler) {
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      req.body = body;
      handler(req, res);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}/mcp`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
      });
    });
  });
}

/** registerMcpServer's refusal of config: a transport ToolgateError that quotes no secret. */
async function refusal(b, config) {
  const before = [...b.tools.keys()];
  let err;
  try {
    await b.registerMcpServer({ name: "srv", headers: { Authorization: `Bearer ${SECRET}` }, ...config }, { security: LOOPBACK });
  } catch (e) {
    err = e;
  }
  assert.ok(tg.ToolgateError.isInstance(err), `got ${err}, want a ToolgateError`);
  assert.equal(err.code, "transport", `got ${err.code} (${err.message}), want transport`);
  assert.ok(!err.message.includes(SECRET), `the message quotes the header value: ${err.message}`);
  assert.ok(!String(err.transport?.rpcMessage ?? "").includes(SECRET), `rpcMessage quotes the header value: ${err.transport?.rpcMessage}`);
  assert.deepEqual([...b.tools.keys()], before, "a refusal registered tools");
  return err;
}

describe("MCP HTTP errors", () => {
  const servers = [];
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all(servers.map((s) => s.close()));
  });
  const start = async (handler) => {
    const s = await serve(handler);
    servers.push(s);
    return s;
  };

  test("401 says authorization and names the WWW-Authenticate scheme, not its parameters", async () => {
    const s = await start((_req, res) => {
      res.writeHead(401, { "WWW-Authenticate": `Bearer realm="${SECRET}", error="invalid_token"` }).end();
    });
    const b = tg.branch();
    const err = await refusal(b, { url: s.url });
    assert.deepEqual(err.transport, { httpStatus: 401 });
    assert.match(err.message, /requires authorization/);
    assert.match(err.message, /HTTP 401 Unauthorized, WWW-Authenticate scheme "Bearer"/);
    assert.ok(!err.message.includes("invalid_token"), err.message);
    assert.ok(!err.message.includes(SSE_HINT), err.message);
  });

  test("403 with a JSON-RPC error keeps its code and message, redacted", async () => {
    const s = await start((_req, res) => {
      res.writeHead(403, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32001, message: `token ${SECRET} lacks the scope` } }));
    });
    const err = await refusal(tg.branch(), { url: s.url });
    assert.deepEqual(err.transport, { httpStatus: 403, rpcCode: -32001, rpcMessage: "token [redacted] lacks the scope" });
    assert.deepEqual([err.httpStatus, err.rpcCode], [403, -32001], "the deprecated 0.1 names read the group");
    assert.match(err.message, /refused authorization/);
    assert.match(err.message, /JSON-RPC error -32001/);
  });

  test("404 says the path was not found, the URL redacted", async () => {
    const s = await start((_req, res) => res.writeHead(404, { "Content-Type": "text/plain" }).end("Not Found"));
    const err = await refusal(tg.branch(), { url: `${s.url}?key=${SECRET}` });
    assert.deepEqual(err.transport, { httpStatus: 404 });
    assert.match(err.message, /the path was not found/);
    assert.match(err.message, /\/mcp\?key=\[redacted\]/);
    assert.ok(!err.message.includes(SSE_HINT), err.message);
  });

  test("a JSON-RPC error answered to tools/call keeps its code and message on fc.error", async () => {
    const s = await start((req, res) => {
      const answer = (m, member) => {
        res.writeHead(200, { "Content-Type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id: m.id, ...member }));
      };
      const m = JSON.parse(req.body || "{}");
      if (m.id === undefined) return res.writeHead(202).end();
      if (m.method === "initialize") {
        return answer(m, { result: { protocolVersion: "2025-06-18", capabilities: { tools: {} }, serverInfo: { name: "x", version: "0" } } });
      }
      if (m.method === "tools/list") {
        return answer(m, { result: { tools: [{ name: "t", inputSchema: { type: "object", properties: {} } }] } });
      }
      return answer(m, { error: { code: -32602, message: `unknown tool argument for ${SECRET}` } });
    });
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "rpc", url: s.url, headers: { Authorization: `Bearer ${SECRET}` } }, { security: LOOPBACK });
    const fc = await b.invoke({ function: names[0], arguments: {} });
    assert.equal(fc.status, "failed");
    assert.ok(tg.ToolgateError.isInstance(fc.error), `got ${fc.error}`);
    assert.equal(fc.error.code, "transport");
    assert.deepEqual(fc.error.transport, { rpcCode: -32602, rpcMessage: "unknown tool argument for [redacted]" });
    assert.match(fc.error.message, /JSON-RPC error -32602/);
    assert.ok(!fc.error.message.includes(SECRET), fc.error.message);
  });

  test("the branch keeps working after the refusals", async () => {
    const b = tg.branch();
    b.register(tg.tool(function echo(text) { return text; }));
    const fc = await b.invoke({ function: "echo", arguments: { text: "hi" } });
    assert.equal(fc.status, "completed");
    assert.equal(fc.response, "hi");
  });
});

describe("an SSE-only server addressed without transport: \"sse\"", () => {
  let server;
  before(async () => {
    server = await startEverything("sse");
  });
  after(async () => {
    await tg.mcp.cleanup();
    await server?.stop();
  });

  test("the error says so and names the transport; with it, the server registers", async () => {
    const b = tg.branch();
    const err = await refusal(b, { url: server.url });
    const status = err.transport?.httpStatus;
    assert.ok(status >= 400 && status < 500, `got httpStatus ${status}`);
    assert.match(err.message, /does not speak Streamable HTTP/);
    assert.ok(err.message.includes(SSE_HINT), err.message);
    const names = await b.registerMcpServer({ name: "srv", url: server.url, transport: "sse" }, { security: LOOPBACK });
    assert.ok(names.length > 0, "registered no tools with transport: sse");
  });
});
