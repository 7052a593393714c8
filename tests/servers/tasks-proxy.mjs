// A recording proxy for the task tests: it stands on 127.0.0.1 in front of an MCP server over
// Streamable HTTP (server-everything, whose tasks live in its session and cannot be seen from
// outside), forwards every request and answer unchanged (SSE streams included), and records each
// JSON-RPC message the client sent, so a test sees which task methods a client used (tasks/get,
// tasks/result, tasks/cancel, notifications/cancelled) and can ask the server about a task in the
// client's own session (ask). Node only.
import http from "node:http";
import { EventEmitter } from "node:events";

/**
 * Starts the proxy for target (an http URL). Resolves to {url, sent, events, ask(), stop()}: sent
 * holds {method, id, params, session} per JSON-RPC message the client sent (responses included,
 * method "response"), in order; events emits "sent" with each.
 */
export async function startRecordingProxy(target) {
  const to = new URL(target);
  const sent = [];
  const events = new EventEmitter();
  events.setMaxListeners(100);
  const open = new Set();
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = Buffer.concat(chunks);
    if (body.length > 0) {
      let parsed;
      try {
        parsed = JSON.parse(body.toString("utf8"));
      } catch {
        parsed = undefined;
      }
      for (const m of [parsed].flat()) {
        if (!m || typeof m !== "object") continue;
        const rec = { method: m.method ?? "response", id: m.id, params: m.params, session: req.headers["mcp-session-id"] };
        sent.push(rec);
        events.emit("sent", rec);
      }
    }
    const headers = { ...req.headers, host: to.host };
    const up = http.request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode, answer.headers);
      answer.pipe(res);
    });
    open.add(up);
    up.on("close", () => open.delete(up));
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    up.end(body);
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}${to.pathname}`,
    sent,
    events,
    /**
     * Sends one request to the server in the client's session (its Mcp-Session-Id and version)
     * and resolves to the JSON-RPC answer: how a test reads a task the client made.
     */
    ask: async (session, method, params, version = "2025-11-25") => {
      const id = `proxy-${sent.length}-${Math.random()}`;
      const r = await fetch(target, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-session-id": session, "mcp-protocol-version": version },
        body: JSON.stringify({ jsonrpc: "2.0", id, method, params }),
      });
      const text = await r.text();
      const messages = r.headers.get("content-type")?.startsWith("text/event-stream")
        ? text.split("\n").filter((l) => l.startsWith("data:") && l.slice(5).trim() !== "").map((l) => JSON.parse(l.slice(5)))
        : [JSON.parse(text)];
      return messages.find((m) => m.id === id);
    },
    stop: async () => {
      for (const up of open) up.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
