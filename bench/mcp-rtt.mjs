// make bench: the round-trip time of an MCP `echo` call through toolgate
// beside the official TypeScript SDK (@modelcontextprotocol/sdk), against the
// same server-everything process, in the same run, over Streamable HTTP and
// SSE. Prints median and p90 of 200 calls after 20 warm-up calls, and the
// ratio. Run from .build/consumer so that "toolgate" is the packed package.
import { existsSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";

const WARMUP = 20;
const CALLS = 200;
const here = dirname(fileURLToPath(import.meta.url));

/** toolgate as installed where the bench runs (the packed package). */
async function loadToolgate() {
  try {
    return await import("toolgate");
  } catch {
    return import(pathToFileURL(join(process.cwd(), "node_modules", "toolgate", "index.node.js")).href);
  }
}

/** The server launcher of the Node tests, wherever this file was copied to. */
async function loadServers() {
  for (const p of ["../tests/node/mcp-servers.mjs", "../test/mcp-servers.mjs"]) {
    const f = join(here, p);
    if (existsSync(f)) return import(pathToFileURL(f).href);
  }
  throw new Error("mcp-rtt: tests/node/mcp-servers.mjs not found");
}

async function measure(fn) {
  for (let i = 0; i < WARMUP; i++) await fn(i);
  const ms = [];
  for (let i = 0; i < CALLS; i++) {
    const t0 = performance.now();
    await fn(i);
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
  return { median: q(0.5), p90: q(0.9) };
}

async function viaToolgate(tg, server) {
  const b = tg.branch();
  await b.registerMcpServer(
    { name: "everything", url: server.url, transport: server.mode },
    { toolNames: ["echo"], security: { allowUrls: true, allowLoopbackHttp: true } },
  );
  const r = await measure(async (i) => {
    const fc = await b.invoke({ function: "mcp__everything__echo", arguments: { message: `m${i}` } });
    if (fc.status !== "completed" || fc.response !== `Echo: m${i}`) throw new Error(`toolgate echo failed: ${fc.status} ${fc.error?.message}`);
  });
  await tg.mcp.cleanup();
  return r;
}

async function viaSDK(server) {
  const client = new Client({ name: "toolgate-bench", version: "0.0.0" });
  const url = new URL(server.url);
  const transport = server.mode === "sse" ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url);
  await client.connect(transport);
  const r = await measure(async (i) => {
    const res = await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
    if (res.content?.[0]?.text !== `Echo: m${i}`) throw new Error("sdk echo failed");
  });
  await client.close();
  return r;
}

const { initialize } = await loadToolgate();
const { startEverything } = await loadServers();
const tg = await initialize();
const rows = [];
for (const mode of ["streamable-http", "sse"]) {
  const server = await startEverything(mode);
  try {
    // Alternate the order so that neither client always meets a colder server.
    const a = await viaToolgate(tg, server);
    const s = await viaSDK(server);
    const s2 = await viaSDK(server);
    const a2 = await viaToolgate(tg, server);
    const tgr = { median: (a.median + a2.median) / 2, p90: (a.p90 + a2.p90) / 2 };
    const sdk = { median: (s.median + s2.median) / 2, p90: (s.p90 + s2.p90) / 2 };
    rows.push({ mode, tg: tgr, sdk });
  } finally {
    await server.stop();
  }
}

const f = (x) => x.toFixed(2).padStart(6);
console.log(`\nMCP echo round trip (ms), server-everything on 127.0.0.1, ${CALLS} calls after ${WARMUP} warm-up, mean of 2 rounds`);
console.log("| transport       | toolgate median / p90 | TS SDK median / p90 | ratio (median) |");
console.log("|-----------------|-----------------------|---------------------|----------------|");
for (const r of rows) {
  console.log(
    `| ${r.mode.padEnd(15)} | ${f(r.tg.median)} / ${f(r.tg.p90)}       | ${f(r.sdk.median)} / ${f(r.sdk.p90)}     | ${(r.tg.median / r.sdk.median).toFixed(2).padStart(5)}x         |`,
  );
}
// The Go instance keeps a JS timer pending (its next scheduled wake-up, up to
// a minute away): exit instead of waiting for it.
process.exit(0);
