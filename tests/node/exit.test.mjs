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

const here = dirname(fileURLToPath(import.meta.url));
const dir = join(here, "exit-programs");
mkdirSync(dir, { recursive: true });

/** Runs program (ESM text) in a child; resolves to its stdout, rejects if it has not exited after 90 s. */
function runProgram(name, program) {
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, program);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { timeout: 90000, killSignal: "SIGKILL" }, (err, stdout, stderr) => {
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
