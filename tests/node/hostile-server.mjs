// A misbehaving MCP server (Streamable HTTP, legacy protocol) on 127.0.0.1 for
// the MCP tests: plain node:http, one scenario per URL path
// (http://127.0.0.1:PORT/<scenario>/mcp). Each scenario answers server/discover
// with 400 (a legacy server), initialize and notifications correctly, and
// misbehaves on tools/list; "ok" is the well-behaved control. Node only.
import http from "node:http";

const MiB = 1024 * 1024;
/** How many pings the ping-flood scenarios send on one stream. */
export const FLOOD_PINGS = 2000;

/** Starts an SSE answer and writes each JSON-RPC message as one event. */
function sse(res, ...messages) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const m of messages) res.write(`event: message\ndata: ${JSON.stringify(m)}\n\n`);
}

/** FLOOD_PINGS pings, as SSE events, in one string. */
function pings() {
  let out = "";
  for (let i = 0; i < FLOOD_PINGS; i++) out += `data: {"jsonrpc":"2.0","id":"ping-${i}","method":"ping"}\n\n`;
  return out;
}

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
  // An answer that carries another request's id (JSON).
  "wrong-id": (_state, msg) => ({ [ANSWER_ID]: `${msg.id}-not-yours`, tools: [tool("evil")] }),
  // On SSE: an answer with another id, then the right one (must register "good" only).
  "wrong-id-sse": (_state, msg, res) => {
    sse(res, { jsonrpc: "2.0", id: `${msg.id}-not-yours`, result: { tools: [tool("evil")] } }, { jsonrpc: "2.0", id: msg.id, result: { tools: [tool("good")] } });
    res.end();
  },
  // FLOOD_PINGS pings on the answer's stream, then the answer (must register).
  "ping-flood": (_state, msg, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(pings());
    res.end(`data: ${JSON.stringify({ jsonrpc: "2.0", id: msg.id, result: { tools: [tool("lookup")] } })}\n\n`);
  },
  // FLOOD_PINGS pings and never the answer (closed when the server stops).
  "ping-flood-silent": (state, _msg, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(pings());
    state.hanging.add(res);
    res.once("close", () => state.hanging.delete(res));
  },
  // The stream ends after an event id, inviting the client to resume it
  // (GET with Last-Event-ID), and so does every resumed stream.
  "sse-end": (_state, _msg, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end("id: 1\nretry: 0\ndata:\n\n");
  },
};

/** A result key that makes reply() answer with the given id instead of the request's. */
const ANSWER_ID = Symbol("answer id");

/** What a resumed stream (GET with Last-Event-ID) of each scenario answers. */
const RESUMES = {
  "sse-end": (state, req, res) => {
    state.resumes++;
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`id: ${Number(req.headers["last-event-id"]) + 1}\nretry: 0\ndata:\n\n`);
  },
};

/** The scenarios whose registration must succeed. */
export const BENIGN = ["ok", "collision", "wrong-id-sse", "ping-flood"];

/** Names of the scenarios that must fail registration. */
export const HOSTILE = Object.keys(SCENARIOS).filter((s) => !BENIGN.includes(s));

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
 * state counts requests per scenario, tools/list pages served, the answers
 * the client POSTed to the server's own requests (per scenario), the
 * resumed streams, and keeps the headers of the last request.
 */
export async function startHostile({ redirectTo } = {}) {
  const state = { requests: {}, answers: {}, resumes: 0, pages: 0, endlessBytes: 0, hanging: new Set(), lastHeaders: {} };
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
      if (req.method === "GET" && req.headers["last-event-id"] && RESUMES[scenario]) return RESUMES[scenario](state, req, res);
      if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
      let msg;
      try {
        msg = JSON.parse(await readBody(req));
      } catch {
        return json(res, 400, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } });
      }
      if (msg.id === undefined) return void res.writeHead(202).end(); // a notification
      if (msg.method === undefined) {
        // The client's answer to a request of the server's (a ping).
        state.answers[scenario] = (state.answers[scenario] ?? 0) + 1;
        return void res.writeHead(202).end();
      }
      const reply = (result) => {
        const { [ANSWER_ID]: id = msg.id, ...rest } = result;
        json(res, 200, { jsonrpc: "2.0", id, result: rest });
      };
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
