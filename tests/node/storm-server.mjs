// A hostile MCP server that floods its client with work (Streamable HTTP, legacy protocol), on
// 127.0.0.1, for the budget tests and the storm bench. Plain node:http. It declares
// capabilities.tools.listChanged and:
//  - on its standalone GET stream, sends notifications/tools/list_changed every `intervalMs`;
//  - with selfTrigger, answers tools/list and tools/call on an SSE stream that carries a
//    list_changed before the result: one call starts a storm in which every refresh asks for the
//    next one (no listener, no GET stream needed);
//  - lists `tools` tools with schemas of about `schemaBytes` bytes each; with `vary`, every
//    listing differs from the last in every schema (nothing can be reused);
//  - answers tools/call of "flood" with `progress` progress notifications and `logs` log
//    notifications (notifications/message) of `noteBytes` bytes each on the call's stream,
//    then the result; any other tool answers at once.
// The server runs in a child process (its own event loop: building a 40 MB flood must not count
// as the client's stall); startStorm() starts it and talks to it over IPC. Node only.
import http from "node:http";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One tool whose inputSchema is about `bytes` long; `nonce` changes its text. */
function bigTool(i, bytes, nonce) {
  const properties = {};
  const schema = { type: "object", properties };
  for (let k = 0; JSON.stringify(schema).length < bytes - 140; k++) {
    properties[`p${k}`] = { type: "string", description: `field ${k} of tool ${i} (${nonce}) `.padEnd(80, "."), maxLength: 100 + k };
  }
  return { name: `t${i}`, description: `tool ${i}`, inputSchema: schema };
}

/** Starts an SSE answer. */
function sseHead(res) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
}

/** One JSON-RPC message as an SSE event. */
const event = (m) => `event: message\ndata: ${JSON.stringify(m)}\n\n`;

const LIST_CHANGED = { jsonrpc: "2.0", method: "notifications/tools/list_changed" };

function readBody(req) {
  return new Promise((resolve, reject) => {
    const parts = [];
    req.on("data", (d) => parts.push(d));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res, body) {
  const text = JSON.stringify(body);
  res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** The server itself, in the child: listens on 127.0.0.1 and resolves to {port, state, options, stop}. */
async function serve(opts) {
  const options = { tools: 900, schemaBytes: 4096, intervalMs: 300, selfTrigger: true, vary: false, progress: 0, logs: 0, noteBytes: 2048, ...opts };
  const state = { lists: 0, gets: 0, sent: 0, calls: 0 };
  const open = new Set();
  const sockets = new Set();
  let listing = null;
  let listingKey = "";

  /** The tools/list result, rebuilt only when the options or (with vary) the listing change. */
  const tools = () => {
    const key = `${options.tools}/${options.schemaBytes}/${options.vary ? state.lists : 0}`;
    if (key !== listingKey) {
      listingKey = key;
      listing = Array.from({ length: options.tools }, (_, i) => bigTool(i, options.schemaBytes, options.vary ? state.lists : 0));
    }
    return listing;
  };

  const flood = (msg, res) => {
    sseHead(res);
    const token = msg.params?._meta?.progressToken;
    const message = "m".repeat(options.noteBytes);
    let chunk = "";
    for (let i = 0; i < options.progress; i++) {
      chunk += event({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: token ?? "none", progress: i + 1, total: options.progress, message } });
      if (chunk.length > 1 << 20) res.write(chunk), (chunk = "");
    }
    for (let i = 0; i < options.logs; i++) {
      chunk += event({ jsonrpc: "2.0", method: "notifications/message", params: { level: "info", logger: "storm", data: message } });
      if (chunk.length > 1 << 20) res.write(chunk), (chunk = "");
    }
    res.end(chunk + event({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: "flooded" }] } }));
  };

  const server = http.createServer(async (req, res) => {
    try {
      if (req.method === "DELETE") return void res.writeHead(200).end();
      if (req.method === "GET") {
        state.gets++;
        sseHead(res);
        const timer = setInterval(() => {
          state.sent++;
          res.write(event(LIST_CHANGED));
        }, options.intervalMs);
        open.add(res);
        res.once("close", () => {
          clearInterval(timer);
          open.delete(res);
        });
        return;
      }
      if (req.method !== "POST") return void res.writeHead(405).end();
      const msg = JSON.parse(await readBody(req));
      if (msg.id === undefined || msg.method === undefined) return void res.writeHead(202).end();
      const reply = (result) => json(res, { jsonrpc: "2.0", id: msg.id, result });
      switch (msg.method) {
        case "server/discover":
          res.writeHead(400, { "content-type": "application/json" });
          return void res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32600, message: "unsupported protocol version" } }));
        case "initialize":
          return reply({ protocolVersion: "2025-11-25", capabilities: { tools: { listChanged: true } }, serverInfo: { name: "storm", version: "0.0.0" } });
        case "ping":
          return reply({});
        case "tools/list": {
          state.lists++;
          const result = { jsonrpc: "2.0", id: msg.id, result: { tools: tools() } };
          if (!options.selfTrigger) return json(res, result);
          sseHead(res);
          state.sent++;
          return void res.end(event(LIST_CHANGED) + event(result));
        }
        case "tools/call":
          state.calls++;
          if (msg.params?.name === "flood") return flood(msg, res);
          if (!options.selfTrigger) return reply({ content: [{ type: "text", text: `called ${msg.params?.name}` }] });
          sseHead(res);
          state.sent++;
          return void res.end(event(LIST_CHANGED) + event({ jsonrpc: "2.0", id: msg.id, result: { content: [{ type: "text", text: `called ${msg.params?.name}` }] } }));
        default:
          return json(res, { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
      }
    } catch {
      res.destroy();
    }
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    options,
    state,
    stop: () =>
      new Promise((resolve) => {
        for (const res of open) res.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * Starts the storm server in a child process. Options: tools (900), schemaBytes (4096),
 * intervalMs (300: the GET stream's list_changed period), selfTrigger (true: each tools/list and
 * tools/call answer carries a list_changed), vary (false), progress (0), logs (0), noteBytes
 * (2048). Resolves to {url, state(), set(options), stop()}: state() resolves to the counts of
 * tools/list answers (lists), GET streams (gets), list_changed notifications sent (sent) and
 * tools/call requests (calls); set() changes options for what follows.
 */
export function startStorm(opts = {}) {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  let seq = 0;
  const waiting = new Map();
  child.on("message", (m) => {
    waiting.get(m.seq)?.(m);
    waiting.delete(m.seq);
  });
  const ask = (m) =>
    new Promise((resolve, reject) => {
      const id = ++seq;
      waiting.set(id, resolve);
      child.send({ ...m, seq: id }, (err) => err && reject(err));
    });
  return ask({ op: "start", options: opts }).then(({ port }) => ({
    url: `http://127.0.0.1:${port}/mcp`,
    state: () => ask({ op: "state" }).then((m) => m.state),
    set: (options) => ask({ op: "set", options }),
    stop: async () => {
      await ask({ op: "stop" }).catch(() => {});
      child.disconnect();
      await exited;
    },
  }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  let s;
  process.on("message", async (m) => {
    if (m.op === "start") s = await serve(m.options);
    else if (m.op === "set") Object.assign(s.options, m.options);
    else if (m.op === "stop") await s.stop();
    process.send({ seq: m.seq, port: s?.port, state: s?.state });
  });
}

/**
 * Measures the event loop of this process until stop(): a timer probe every `tickMs` records
 * each gap between ticks, and perf_hooks' histogram the delays. stop() resolves to {maxStallMs
 * (the longest gap beyond tickMs), blockedRatio (the time spent in gaps beyond tickMs, over the
 * time measured), histMaxMs (monitorEventLoopDelay's max), ms}.
 */
export async function measureLoop({ tickMs = 5 } = {}) {
  const { monitorEventLoopDelay } = await import("node:perf_hooks");
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  const start = performance.now();
  let last = start;
  let maxStall = 0;
  let blocked = 0;
  let timer;
  const tick = () => {
    const now = performance.now();
    const stall = now - last - tickMs;
    if (stall > 0) {
      maxStall = Math.max(maxStall, stall);
      blocked += stall;
    }
    last = now;
    timer = setTimeout(tick, tickMs);
  };
  timer = setTimeout(tick, tickMs);
  return {
    stop() {
      clearTimeout(timer);
      h.disable();
      const ms = performance.now() - start;
      return { maxStallMs: maxStall, blockedRatio: blocked / ms, histMaxMs: h.max / 1e6, ms };
    },
  };
}
