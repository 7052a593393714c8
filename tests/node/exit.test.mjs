// A Node program that used toolgate exits when its work is done: Go's timers hold the event loop
// only while a call is in flight (lib/instance.js _holdTimers). Each case runs in a child process
// of its own, with the package as users install it; a child that does not exit is killed, and the
// test fails, long before the 10-minute MCP deadline it configures could let it go.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync, mkdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { CEILING_MS } from "./waits.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, "exit-programs");
mkdirSync(dir, { recursive: true });

/** Runs program (ESM text) in a child; resolves to its stdout, rejects if it has not exited by the ceiling. */
function runProgram(name, program) {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, program);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { timeout: CEILING_MS, killSignal: "SIGKILL" }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${name}: ${err.killed ? "did not exit" : err.message}\n${stderr}`));
      else resolve(stdout);
    });
  });
}

for (const mode of ["sse", "streamable-http"]) {
  test(`after an MCP call over ${mode} and tg.mcp.cleanup(), the process exits (its 10-minute request deadline holds nothing)`, async () => {
    const out = await runProgram(
      `mcp-${mode}`,
      `import { initialize } from "toolgate";
import { startEverything } from ${JSON.stringify(join(here, "mcp-servers.mjs"))};
const srv = await startEverything(${JSON.stringify(mode)});
const tg = await initialize();
const b = tg.branch();
const security = { allowUrls: true, allowLoopbackHttp: true, timeoutMs: 600000 };
await b.registerMcpServer({ name: "ev", url: srv.url${mode === "sse" ? ', transport: "sse"' : ""} }, { security });
const fc = await b.invoke({ function: "mcp__ev__echo", arguments: { message: "hi" } });
await tg.mcp.cleanup();
await srv.stop();
console.log(fc.status, fc.response);
`,
    );
    assert.match(out, /completed Echo: hi/);
  });
}

test("with onToolsChanged (the standalone GET stream held open), tg.mcp.cleanup() closes it and the process exits", async () => {
  // The server runs in the program: its close() resolves only once every connection has ended, so
  // the program gets past it only if cleanup() closed the stream.
  const out = await runProgram(
    "mcp-list-changes",
    `import http from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { initialize } from "toolgate";
const sessions = new Map();
let gets = 0;
const httpServer = http.createServer(async (req, res) => {
  if (req.method === "GET") gets++;
  let t = sessions.get(req.headers["mcp-session-id"]);
  if (!t) {
    const server = new McpServer({ name: "live", version: "1.0.0" });
    server.registerTool("echo", { inputSchema: {} }, async () => ({ content: [{ type: "text", text: "hi" }] }));
    t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => sessions.set(id, t) });
    await server.connect(t);
  }
  await t.handleRequest(req, res);
});
await new Promise((r) => httpServer.listen(0, "127.0.0.1", r));
const tg = await initialize();
const b = tg.branch();
const security = { allowUrls: true, allowLoopbackHttp: true, timeoutMs: 600000 };
await b.registerMcpServer({ name: "live", url: \`http://127.0.0.1:\${httpServer.address().port}/mcp\` }, { security, onToolsChanged: () => {} });
// polled, not awaited as an event: a call sent in the very tick the GET arrives fails (ECONNRESET)
while (gets === 0) await new Promise((r) => setTimeout(r, 10));
const fc = await b.invoke({ function: "mcp__live__echo", arguments: {} });
await tg.mcp.cleanup();
await new Promise((r) => httpServer.close(r));
console.log(fc.status, fc.response, "streams", gets);
`,
  );
  assert.match(out, /completed hi streams 1/);
});

test("a call in flight still holds its timers: a hanging handler's timeoutMs ends it as cancelled, then the process exits", async () => {
  const out = await runProgram(
    "handler-timeout",
    `import { initialize } from "toolgate";
const tg = await initialize();
const hang = tg.tool({ name: "hang", parameters: { type: "object", properties: {} }, handler: () => new Promise(() => {}), timeoutMs: 300 });
const fc = await tg.branch({ tools: [hang] }).invoke({ function: "hang", arguments: {} });
console.log(fc.status, fc.error.code);
`,
  );
  assert.match(out, /cancelled timeout/);
});

test("with client hooks (a Streamable HTTP GET stream open) and tg.mcp.cleanup(), the process exits", async () => {
  const out = await runProgram(
    "mcp-hooks",
    `import { initialize } from "toolgate";
import { startEverything } from ${JSON.stringify(join(here, "mcp-servers.mjs"))};
const srv = await startEverything("streamable-http");
const tg = await initialize();
const b = tg.branch();
const security = { allowUrls: true, allowLoopbackHttp: true, timeoutMs: 600000 };
const sampling = async (p) => ({ role: "assistant", model: "m", content: { type: "text", text: "hooked " + p.messages[0].content.text } });
await b.registerMcpServer({ name: "ev", url: srv.url }, { security, sampling, roots: [{ uri: "file:///w" }] });
const fc = await b.invoke({ function: "mcp__ev__trigger-sampling-request", arguments: { prompt: "hi" } });
await tg.mcp.cleanup();
await srv.stop();
console.log(fc.status, JSON.stringify(fc.response));
`,
  );
  assert.match(out, /completed .*hooked .*hi/);
});
