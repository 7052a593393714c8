// MCP tools are validated as local typed tools are (issue 11), and loaders skip command servers
// with a warning unless strict. Against server-everything over Streamable HTTP on 127.0.0.1,
// behind a forwarding proxy that counts the tools/call requests that reach it.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { tg } from "./helpers.mjs";
import { startEverything } from "./mcp-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const SECRET = "tg-planted-secret-parity-41d2";

/** A proxy in front of `target` counting the POSTs whose body is a tools/call. */
async function startCountingProxy(target) {
  const t = new URL(target);
  const counter = { toolCalls: 0 };
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      if (req.method === "POST" && body.includes('"tools/call"')) counter.toolCalls++;
      const up = http.request({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: { ...req.headers, host: t.host } }, (r) => {
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      up.on("error", () => res.destroy());
      up.end(body);
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    counter,
    url: `http://127.0.0.1:${server.address().port}${t.pathname}`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

describe("MCP tools validate like local typed tools", () => {
  let server, proxy;
  before(async () => {
    server = await startEverything("streamable-http");
    proxy = await startCountingProxy(server.url);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await proxy?.close();
    await server?.stop();
  });
  const config = () => ({ name: "ev", url: proxy.url, headers: { "X-Toolgate-Test": SECRET } });

  test("validate, match and invoke refuse a bad echo call naming the field, before any request", async () => {
    const b = tg.branch();
    await b.registerMcpServer(config(), { security: LOOPBACK });
    const before = proxy.counter.toolCalls;
    const r = b.validate({ function: "mcp__ev__echo", arguments: {} });
    assert.equal(r.ok, false, "echo without its required message");
    assert.equal(r.error.code, "invalid-arguments");
    assert.match(r.error.message, /message/, `got ${r.error.message}, want the field named`);
    assert.ok(r.error.issues?.some((i) => JSON.stringify(i).includes("message")), `got issues ${JSON.stringify(r.error.issues)}, want one naming message`);
    assert.throws(() => b.match({ function: "mcp__ev__echo", arguments: { message: 5 } }), (e) => e.code === "invalid-arguments");
    await assert.rejects(b.invoke({ function: "mcp__ev__echo", arguments: {} }), (e) => e.code === "invalid-arguments" && !e.message.includes(SECRET));
    assert.equal(proxy.counter.toolCalls, before, "no tools/call reached the server for invalid arguments");

    const ok = b.validate({ function: "mcp__ev__echo", arguments: { message: "x" } });
    assert.ok(ok.ok, ok.error?.message);
    const fc = await b.invoke({ function: "mcp__ev__echo", arguments: { message: "hi" } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.equal(fc.response, "Echo: hi");
    assert.equal(proxy.counter.toolCalls, before + 1);
  });

  test("lax coercion applies and is reported, as for a local typed tool", async () => {
    const b = tg.branch();
    const names = await b.registerMcpServer(config(), { security: LOOPBACK });
    const sum = names.find((n) => /__(get-sum|add)$/.test(n));
    assert.ok(sum, `got ${names}, want get-sum or add`);
    const local = tg.tool({ name: "localSum", parameters: b.tools.get(sum).toolSchema.function.parameters, handler: ({ a, b }) => a + b });
    b.register(local);

    const v = b.validate({ function: sum, arguments: { a: "2", b: 3 } });
    assert.ok(v.ok, v.error?.message);
    assert.deepEqual(v.arguments, { a: 2, b: 3 });
    const lv = b.validate({ function: "localSum", arguments: { a: "2", b: 3 } });
    assert.deepEqual(v.conversions, lv.conversions, "the MCP tool reports the conversions a local typed tool with its schema reports");
    const want = [
      { path: "/a", from: "string", to: "number" },
      { path: "/b", from: "integer", to: "number" }, // 3 → 3.0, as Pydantic and a local typed tool report it
    ];
    assert.deepEqual(v.conversions, want);

    const fc = await b.invoke({ function: sum, arguments: { a: "2", b: 3 } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.deepEqual(fc.conversions, want);
    assert.deepEqual(fc.arguments, { a: 2, b: 3 });
    assert.equal(fc.response, "The sum of 2 and 3 is 5.");
    for (let i = 0; i < 3; i++) assert.ok(b.validate({ function: sum, arguments: { a: 1.5, b: 2.5 } }).ok);
    assert.equal(b._evaluated, 0, "an MCP tool is always validated in Go (the JS evaluator is for JS typed tools)");
  });

  test("the proxy's shapes stay LionAGI's: no request_options, no minimum fields", async () => {
    const b = tg.branch();
    await b.registerMcpServer(config(), { security: LOOPBACK });
    const echo = b.tools.get("mcp__ev__echo");
    assert.deepEqual(echo.minimumAcceptableFields, []);
    assert.deepEqual(echo.requiredFields, ["message"]);
    assert.equal(echo.toDict().request_options, null);
    const entry = b.schemaList.find((s) => s.function.name === "mcp__ev__echo");
    assert.deepEqual(entry.function.parameters.required, ["message"]);
    assert.ok(!("strict" in entry.function));
  });
});

describe("loaders and command servers", () => {
  let server;
  before(async () => {
    server = await startEverything("streamable-http");
  });
  after(async () => {
    await tg.mcp.cleanup();
    await server?.stop();
  });
  // A command server that would leave a marker file if it were ever started.
  const marker = path.join(os.tmpdir(), `toolgate-parity-never-started-${process.pid}-${Date.now()}`);
  const mcpJson = () => ({
    mcpServers: {
      local: { command: process.execPath, args: ["-e", `require("fs").writeFileSync(${JSON.stringify(marker)}, "started")`], env: { TOKEN: SECRET } },
      ev: { url: server.url, headers: { "X-Toolgate-Test": SECRET } },
    },
  });

  test("loadMcpConfig loads the URL server and warns about the command server, starting nothing", async () => {
    const b = tg.branch();
    const warnings = [];
    const out = await b.loadMcpConfig(mcpJson(), { security: LOOPBACK, onWarning: (server, error) => warnings.push({ server, error }) });
    assert.deepEqual(Object.keys(out), ["local", "ev"]);
    assert.deepEqual(out.local, []);
    assert.ok(out.ev.includes("mcp__ev__echo"), `got ${out.ev}`);
    assert.equal(warnings.length, 1, `got ${JSON.stringify(warnings)}`);
    const [w] = warnings;
    assert.equal(w.server, "local");
    assert.ok(tg.ToolgateError.isInstance(w.error));
    assert.equal(w.error.code, "unsupported");
    assert.ok(!w.error.message.includes(SECRET), w.error.message);
    assert.equal(fs.existsSync(marker), false, "the command server was never started");
    assert.equal((await b.invoke({ function: "mcp__ev__echo", arguments: { message: "loaded" } })).response, "Echo: loaded");

    const seen = [];
    const tools = await tg.loadMcpTools(JSON.stringify(mcpJson()), { security: LOOPBACK, onWarning: (server, error) => seen.push([server, error.code]) });
    assert.ok(tools.some((t) => t.function === "mcp__ev__echo"));
    assert.deepEqual(seen, [["local", "unsupported"]]);
  });

  test("strict: true refuses the whole config and registers nothing", async () => {
    const b = tg.branch();
    b.register(tg.tool(function keep(x) { return x; }));
    const warnings = [];
    await assert.rejects(
      b.loadMcpConfig(mcpJson(), { security: LOOPBACK, strict: true, onWarning: (s) => warnings.push(s) }),
      (e) => tg.ToolgateError.isInstance(e) && e.code === "unsupported" && !e.message.includes(SECRET),
    );
    assert.deepEqual([...b.tools.keys()], ["keep"], "nothing registered on a refusal");
    assert.deepEqual(warnings, []);
    await assert.rejects(tg.loadMcpTools(mcpJson(), { security: LOOPBACK, strict: true }), (e) => e.code === "unsupported");
    await assert.rejects(b.loadMcpConfig(mcpJson(), { security: LOOPBACK, strict: "yes" }), (e) => e.code === "unsupported-type");
    assert.equal(fs.existsSync(marker), false, "the command server was never started");
    const fc = await b.invoke({ function: "keep", arguments: { x: 1 } });
    assert.equal(fc.response, 1, "the instance keeps working");
  });
});
