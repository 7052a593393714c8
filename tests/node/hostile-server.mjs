// A misbehaving MCP server (Streamable HTTP, legacy protocol) on 127.0.0.1 for
// the MCP tests: plain node:http, one scenario per URL path
// (http://127.0.0.1:PORT/<scenario>/mcp). Each scenario answers server/discover
// with 400 (a legacy server), initialize and notifications correctly, and
// misbehaves on tools/list; "ok" is the well-behaved control. Node only.
import http from "node:http";

const MiB = 1024 * 1024;

function tool(name, inputSchema = { type: "object", properties: { q: { type: "string" } } }) {
  return { name, description: `tool ${name}`, inputSchema };
}

/** What each scenario answers to tools/list: a result object, or a function that writes the response itself. */
const SCENARIOS = {
  ok: () => ({ tools: [tool("lookup")] }),
  // M1: a valid JSON-RPC answer of 5 MiB.
  big: () => ({ tools: [{ ...tool("big"), description: "x".repeat(5 * MiB) }] }),
  // M2: an SSE event whose data line never ends (bounded: 32 MiB at most).
  "endless-sse": (state, _msg, res) => {
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    res.write("event: message\ndata: ");
    const chunk = Buffer.alloc(64 * 1024, "a");
    let sent = 0;
    const pump = () => {
      while (sent < 32 * MiB && !res.destroyed) {
        sent += chunk.length;
        state.endlessBytes = sent;
        if (!res.write(chunk)) return void res.once("drain", pump);
      }
      res.end();
    };
    pump();
  },
  // M3: the request is accepted and never answered (closed when the server stops).
  silent: (state, _msg, res) => {
    state.hanging.add(res);
    res.once("close", () => state.hanging.delete(res));
  },
  // M8: every page points to the same next page.
  cursor: (state) => {
    state.pages++;
    return { tools: [tool(`page${state.pages}`)], nextCursor: "same-cursor" };
  },
  // M9: two tools with one name.
  duplicate: () => ({ tools: [tool("search"), tool("search")] }),
  // M9: names that one careless sanitiser would map to one provider name
  // (well-formed: they must register as three tools).
  collision: () => ({ tools: [tool("search-a"), tool("search.a"), tool("search_a")] }),
  // M9: names outside the MCP spec's [A-Za-z0-9._-]{1,128}.
  "invalid-name": () => ({ tools: [tool("fine"), tool("a b")] }),
  "empty-name": () => ({ tools: [tool("fine"), tool("")] }),
  "unicode-name": () => ({ tools: [tool("fine"), tool("ｆｏｏ\u200b")] }),
  // M11: an inputSchema that points at the local disk.
  "ref-file": () => ({
    tools: [tool("reader", { type: "object", properties: { p: { $ref: "file:///etc/passwd" } } })],
  }),
  // M12: every request, initialize included, answered 307 to another loopback
  // server (handled before the protocol; this entry only lists the scenario).
  redirect: () => {
    throw new Error("unreachable: redirect is answered before the protocol");
  },
  // M17: an HTML page where JSON-RPC is due.
  html: (_state, _msg, res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><html><body>{\"jsonrpc\":\"2.0\"}</body></html>");
  },
};

/** Names of the scenarios that must fail registration ("ok" and "collision" must not). */
export const HOSTILE = Object.keys(SCENARIOS).filter((s) => s !== "ok" && s !== "collision");

function readBody(req, limit = MiB) {
  return new Promise((resolve, reject) => {
    const parts = [];
    let n = 0;
    req.on("data", (d) => {
      n += d.length;
      if (n > limit) {
        reject(new Error("request too large"));
        req.destroy();
      } else parts.push(d);
    });
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/**
 * Starts the hostile server. `redirectTo` is the URL the "redirect" scenario
 * sends every request to (307). Resolves to {url(scenario), state, close()}:
 * state counts requests per scenario, tools/list pages served, and keeps the
 * headers of the last request.
 */
export async function startHostile({ redirectTo } = {}) {
  const state = { requests: {}, pages: 0, endlessBytes: 0, hanging: new Set(), lastHeaders: {} };
  const sockets = new Set();
  const server = http.createServer(async (req, res) => {
    try {
      const [, scenario, rest] = req.url.split("/");
      state.requests[scenario] = (state.requests[scenario] ?? 0) + 1;
      state.lastHeaders = req.headers;
      if (scenario === "redirect") {
        res.writeHead(307, { location: redirectTo });
        return void res.end();
      }
      if (!(scenario in SCENARIOS) || !rest?.startsWith("mcp")) return json(res, 404, { error: "no such scenario" });
      if (req.method === "DELETE") return void res.writeHead(200).end();
      if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
      let msg;
      try {
        msg = JSON.parse(await readBody(req));
      } catch {
        return json(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      }
      if (msg.id === undefined) return void res.writeHead(202).end(); // a notification
      const reply = (result) => json(res, 200, { jsonrpc: "2.0", id: msg.id, result });
      switch (msg.method) {
        case "server/discover":
          return json(res, 400, { jsonrpc: "2.0", id: msg.id, error: { code: -32600, message: "Bad Request: unsupported protocol version" } });
        case "initialize":
          return reply({
            protocolVersion: "2025-11-25",
            capabilities: { tools: {} },
            serverInfo: { name: `hostile-${scenario}`, version: "0.0.0" },
          });
        case "ping":
          return reply({});
        case "tools/list": {
          const out = SCENARIOS[scenario](state, msg, res);
          if (out !== undefined) reply(out);
          return;
        }
        case "tools/call":
          return reply({ content: [{ type: "text", text: `called ${msg.params?.name}` }] });
        default:
          return json(res, 200, { jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "Method not found" } });
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
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    state,
    url: (scenario) => `${base}/${scenario}/mcp`,
    close: () =>
      new Promise((resolve) => {
        for (const res of state.hanging) res.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * A loopback server that only counts the requests it receives: the target
 * of the redirect scenario, which must see none.
 */
export async function startCounter() {
  const counter = { hits: 0 };
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    counter.hits++;
    json(res, 200, { jsonrpc: "2.0", id: 1, result: {} });
  });
  server.on("connection", (s) => {
    counter.connections = (counter.connections ?? 0) + 1;
    sockets.add(s);
    s.once("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    counter,
    url: `http://127.0.0.1:${server.address().port}/mcp`,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
