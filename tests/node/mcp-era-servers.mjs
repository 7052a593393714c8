// MCP servers of both protocol eras for the era tests, written with the official TypeScript SDKs,
// each offering the tool set of tests/fixtures/mcp-eras/tools.json. Node only.
//
//   v2-dual     SDK v2 createMcpHandler, default posture: 2026-07-28 per request, and 2025-era
//               traffic served statelessly from the same factory.
//   v2-modern   SDK v2 createMcpHandler with legacy: "reject": 2026-07-28 only.
//   v1-stateful SDK v1 McpServer + StreamableHTTPServerTransport with session ids (2025 era).
//   v1-sse      SDK v1 McpServer + SSEServerTransport: the deprecated HTTP+SSE transport (2025 era).
//
// Each runs in this process on http.createServer().listen(0, "127.0.0.1"): the kernel picks the
// port and nothing is reachable from outside the machine. stop() closes every connection.
import http from "node:http";
import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as z from "zod/v4";
import * as v2 from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { McpServer as McpServerV1 } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";

const fixturesDir = process.env.TOOLGATE_FIXTURES ?? join(dirname(fileURLToPath(import.meta.url)), "../fixtures");

/** The shared contract: tool names, the grown tool, and the params of the requests the tools send. */
export const SPEC = JSON.parse(readFileSync(join(fixturesDir, "mcp-eras", "tools.json"), "utf8"));

/** What each kind serves: its transport, and the eras a client can reach it on. */
export const KINDS = {
  "v2-dual": { transport: "streamable-http", eras: ["modern", "legacy"] },
  "v2-modern": { transport: "streamable-http", eras: ["modern"] },
  "v1-stateful": { transport: "streamable-http", eras: ["legacy"] },
  "v1-sse": { transport: "sse", eras: ["legacy"] },
};

const text = (t) => ({ content: [{ type: "text", text: t }] });
const ECHO = { description: "Echoes its text.", inputSchema: z.object({ text: z.string() }) };
const NONE = z.object({});
const ADD = { description: "Adds two integers.", inputSchema: z.object({ a: z.number().int(), b: z.number().int() }) };

/** The tool's answer to an elicitation result: "hello <name>", or "declined" for anything but accept. */
const greeting = (action, content) => (action === "accept" ? `hello ${content?.name}` : "declined");

/** The text a sampling result carries. */
const sampled = (result) => (result.content?.type === "text" ? result.content.text : JSON.stringify(result.content));

/** The roots' URIs, joined. */
const joinedRoots = (roots) => roots.map((r) => r.uri).join(SPEC.rootsSeparator);

/**
 * One SDK v2 server: a fresh McpServer per request (the factory), its tools written once for both
 * eras. ask, sample and roots return inputRequired(...) until the client's answer is in
 * ctx.mcpReq.inputResponses: on 2026-07-28 that is an input_required result and the client's
 * retry; on a 2025-era request the SDK's legacy shim sends the real server→client request.
 * grow sets a flag the factory reads (every later instance lists extra) and publishes
 * tools_list_changed on the handler's bus (subscriptions/listen) and on the instance (2025 era).
 */
function v2Factory(state) {
  return ({ era }) => {
    state.eras.push(era);
    const server = new v2.McpServer({ name: "v2-eras", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
    server.registerTool("echo", ECHO, async ({ text: t }) => text(t));
    server.registerTool("add", ADD, async ({ a, b }) => text(String(a + b)));
    server.registerTool("ask", { description: "Asks the user for a name (elicitation).", inputSchema: NONE }, async (_args, ctx) => {
      const view = v2.inputResponse(ctx.mcpReq.inputResponses, "name");
      if (view.kind === "elicit") return text(greeting(view.action, view.content));
      return v2.inputRequired({ inputRequests: { name: v2.inputRequired.elicit(SPEC.ask) } });
    });
    server.registerTool("sample", { description: "Asks the client's model (sampling).", inputSchema: NONE }, async (_args, ctx) => {
      const view = v2.inputResponse(ctx.mcpReq.inputResponses, "reply");
      if (view.kind === "sampling") return text(sampled(view.result));
      return v2.inputRequired({ inputRequests: { reply: v2.inputRequired.createMessage(SPEC.sample) } });
    });
    server.registerTool("roots", { description: "Lists the client's roots.", inputSchema: NONE }, async (_args, ctx) => {
      const view = v2.inputResponse(ctx.mcpReq.inputResponses, "roots");
      if (view.kind === "roots") return text(joinedRoots(view.roots));
      return v2.inputRequired({ inputRequests: { roots: v2.inputRequired.listRoots() } });
    });
    const addExtra = () => server.registerTool(SPEC.grown, { description: "Added by grow." }, async () => text(SPEC.grown));
    server.registerTool("grow", { description: `Adds the tool ${SPEC.grown}.` }, async () => {
      const first = !state.grown;
      state.grown = true;
      if (first) addExtra(); // the instance's own notifications/tools/list_changed (the 2025 era)
      state.handler.notify.toolsChanged(); // every open subscriptions/listen stream (2026-07-28)
      return text("grown");
    });
    if (state.grown) addExtra();
    return server;
  };
}

/** One SDK v1 session server: the same tools as server→client requests on the session. */
function v1Server(state) {
  const server = new McpServerV1({ name: "v1-eras", version: "1.0.0" }, { capabilities: { tools: { listChanged: true } } });
  const shape = (schema) => schema.shape;
  server.registerTool("echo", { description: ECHO.description, inputSchema: shape(ECHO.inputSchema) }, async ({ text: t }) => text(t));
  server.registerTool("add", { description: ADD.description, inputSchema: shape(ADD.inputSchema) }, async ({ a, b }) => text(String(a + b)));
  server.registerTool("ask", { description: "Asks the user for a name (elicitation)." }, async () => {
    const r = await server.server.elicitInput(SPEC.ask);
    return text(greeting(r.action, r.content));
  });
  server.registerTool("sample", { description: "Asks the client's model (sampling)." }, async () => text(sampled(await server.server.createMessage(SPEC.sample))));
  server.registerTool("roots", { description: "Lists the client's roots." }, async () => text(joinedRoots((await server.server.listRoots()).roots)));
  const addExtra = (s) => s.registerTool(SPEC.grown, { description: "Added by grow." }, async () => text(SPEC.grown));
  server.registerTool("grow", { description: `Adds the tool ${SPEC.grown}.` }, async () => {
    if (!state.grown) {
      state.grown = true;
      for (const s of state.sessions.values()) addExtra(s.server); // registerTool sends list_changed on each session
    }
    return text("grown");
  });
  if (state.grown) addExtra(server);
  return server;
}

/**
 * Starts one server of a kind in KINDS on 127.0.0.1. Resolves to {kind, transport, url, eras,
 * state, stop()} once it listens. state records how the server was reached: eras, the era of
 * every v2 factory call; requests, one line per HTTP request ("POST server/discover", "GET",
 * "POST response", ...); openStreams, the GET and subscriptions/listen requests still open, with
 * "stream-opened" and "stream-closed" events on state.events.
 */
export async function startEraServer(kind) {
  if (!KINDS[kind]) throw new Error(`unknown kind ${kind}`);
  const state = { grown: false, eras: [], requests: [], sessions: new Map(), openStreams: 0, events: new EventEmitter() };
  let serve;
  let path = "/mcp";
  if (kind === "v1-stateful") {
    serve = async (req, res, body) => {
      const id = req.headers["mcp-session-id"];
      let s = id && state.sessions.get(id);
      if (!s) {
        const server = v1Server(state);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (sid) => state.sessions.set(sid, s),
          onsessionclosed: (sid) => state.sessions.delete(sid),
        });
        s = { server, transport };
        await server.connect(transport);
      }
      await s.transport.handleRequest(req, res, body);
    };
  } else if (kind === "v1-sse") {
    path = "/sse";
    serve = async (req, res, body) => {
      const url = new URL(req.url, "http://127.0.0.1");
      if (req.method === "GET" && url.pathname === "/sse") {
        const transport = new SSEServerTransport("/messages", res);
        const server = v1Server(state);
        state.sessions.set(transport.sessionId, { server, transport });
        res.on("close", () => state.sessions.delete(transport.sessionId));
        await server.connect(transport);
        return;
      }
      const s = req.method === "POST" && url.pathname === "/messages" && state.sessions.get(url.searchParams.get("sessionId"));
      if (!s) {
        res.writeHead(404).end();
        return;
      }
      await s.transport.handlePostMessage(req, res, body);
    };
  } else {
    state.handler = v2.createMcpHandler(v2Factory(state), kind === "v2-modern" ? { legacy: "reject" } : {});
    serve = toNodeHandler(state.handler);
  }
  const httpServer = http.createServer(async (req, res) => {
    const body = req.method === "POST" ? await readJSON(req) : undefined;
    const methods = [body].flat().map((m) => m?.method ?? (m?.id !== undefined ? "response" : "?"));
    const line = req.method === "POST" ? `POST ${methods.join(",")}` : req.method;
    state.requests.push(line);
    if (req.method === "GET" || methods.includes("subscriptions/listen")) {
      state.openStreams++;
      res.on("close", () => {
        state.openStreams--;
        state.events.emit("stream-closed", line);
      });
      state.events.emit("stream-opened", line);
    }
    serve(req, res, body).catch((e) => {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    });
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    kind,
    eras: KINDS[kind].eras,
    transport: KINDS[kind].transport,
    url: `http://127.0.0.1:${httpServer.address().port}${path}`,
    state,
    /** Closes the server; graceful waits for every open request (a held stream too), else they are cut. */
    stop: async ({ graceful = false } = {}) => {
      if (!graceful) {
        await state.handler?.close();
        httpServer.closeAllConnections();
      }
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

/** A POST body parsed as JSON; the text when it is not JSON (the SDKs then answer their parse error). */
async function readJSON(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
