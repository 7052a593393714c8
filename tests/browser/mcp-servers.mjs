// MCP servers for the playground's MCP panel tests: server-everything on loopback (the same
// start as the Node suites), a proxy in front of it that strips every Access-Control-* header (as
// a server that never heard of CORS would answer a page), the Node suites' SDK v2 dual-era server
// behind a CORS layer of a chosen allow-list, and an SDK v2 server whose tools carry x-mcp-header
// annotations, one of them invalid.
import http from "node:http";
import { dirname, join } from "node:path";
import * as z from "zod/v4";
import { createMcpHandler, McpServer, fromJsonSchema } from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
export { startEverything } from "../test/mcp-servers.mjs";
export { startOAuthWorld } from "../test/oauth-servers.mjs";

// mcp-era-servers.mjs reads its tool set from tests/fixtures; make test-browser runs this suite from
// .build/consumer, where the Node suites' copy (test/) does not sit beside it, so it is named here
// from the repository TOOLGATE_SERVE is in.
process.env.TOOLGATE_FIXTURES ??= join(dirname(process.env.TOOLGATE_SERVE), "..", "tests", "fixtures");
export const { startEraServer } = await import("../test/mcp-era-servers.mjs");

/** What a page's requests carry on the 2026-07-28 wire (docs/mcp-eras.md, "Browsers and CORS"). */
export const MODERN_HEADERS = ["Content-Type", "Accept", "Authorization", "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"];
/** What they carry on the legacy wire: a server that allows only these refuses the modern probe's preflight. */
export const LEGACY_HEADERS = ["Content-Type", "Accept", "Authorization", "MCP-Protocol-Version", "Mcp-Session-Id", "Last-Event-ID"];

/** Listens on 127.0.0.1 (a port the kernel picks); resolves to {url, port, close} for path. */
function listen(server, path) {
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}${path}`,
        port,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
      });
    });
  });
}

/**
 * A small CORS layer in front of next(req, res): the preflight answered here with allowHeaders
 * (nothing else is allowed, as a real server's list would), every other answer given the page's
 * origin and Mcp-Session-Id to read.
 */
function withCors(allowHeaders, next) {
  return (req, res) => {
    const cors = { "access-control-allow-origin": req.headers.origin || "*", "access-control-expose-headers": "Mcp-Session-Id", vary: "Origin" };
    if (req.method === "OPTIONS") {
      res.writeHead(204, { ...cors, "access-control-allow-methods": "GET, POST, DELETE, OPTIONS", "access-control-allow-headers": allowHeaders.join(", "), "access-control-max-age": "0" });
      return res.end();
    }
    for (const [k, v] of Object.entries(cors)) res.setHeader(k, v);
    next(req, res);
  };
}

/** A proxy of every request to target's origin, its answer's own Access-Control-* headers dropped. */
function proxyTo(target) {
  const up = new URL(target);
  return (req, res) => {
    const out = http.request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: { ...req.headers, host: up.host } }, (r) => {
      const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !k.startsWith("access-control-")));
      res.writeHead(r.statusCode, headers);
      r.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  };
}

/** A node:http proxy on 127.0.0.1 to target's origin that drops Access-Control-* headers; resolves to {url, close}. */
export function startCorsStripper(target) {
  return listen(http.createServer(proxyTo(target)), new URL(target).pathname);
}

/**
 * The server at target (an era server's url) behind the CORS layer, on its own origin (so its era
 * is found afresh): allowHeaders is the preflight's Access-Control-Allow-Headers. Resolves to {url, close}.
 */
export function startCorsFront(target, allowHeaders) {
  return listen(http.createServer(withCors(allowHeaders, proxyTo(target))), new URL(target).pathname);
}

/** A string property mirrored into the Mcp-Param-{header} header. */
const mirrored = (header) => ({ type: "string", "x-mcp-header": header });

// A validator that checks nothing, so the SDK takes a schema its own compiler would refuse.
const unchecked = { getValidator: () => (input) => ({ valid: true, data: input, errorMessage: undefined }) };

/**
 * An SDK v2 server (createMcpHandler, mounted with toNodeHandler) behind the CORS layer with
 * allowHeaders, with four tools: echo; lookup, whose region is mirrored into Mcp-Param-Region;
 * broken, whose annotation "Bad Zone" is not an HTTP token (rule not-a-token), so a client on the
 * 2026-07-28 wire leaves it out; unreadable, whose $ref points at the network, which toolgate's
 * compiler refuses (invalid-schema). Resolves to {url, close}.
 */
export function startHeaderServer(allowHeaders) {
  const text = (t) => ({ content: [{ type: "text", text: t }] });
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "x-mcp-header", version: "1.0.0" });
    server.registerTool("echo", { description: "Echoes its text.", inputSchema: z.object({ text: z.string() }) }, async ({ text: t }) => text(t));
    server.registerTool("lookup", {
      description: "Looks a query up in a region (the region travels as Mcp-Param-Region).",
      inputSchema: fromJsonSchema({ type: "object", properties: { region: mirrored("Region"), query: { type: "string" } }, required: ["region", "query"] }),
    }, async ({ region, query }) => text(`${query} in ${region}`));
    server.registerTool("broken", {
      description: "Its x-mcp-header is not an HTTP token.",
      inputSchema: fromJsonSchema({ type: "object", properties: { zone: mirrored("Bad Zone") } }),
    }, async () => text("never offered"));
    server.registerTool("unreadable", {
      description: "Its schema refers to the network.",
      inputSchema: fromJsonSchema({ type: "object", properties: { spec: { $ref: "https://schemas.example.com/spec.json" } } }, unchecked),
    }, async () => text("never offered"));
    return server;
  });
  const serve = toNodeHandler(handler);
  const server = http.createServer(withCors(allowHeaders, (req, res) => serve(req, res).catch((e) => {
    if (!res.headersSent) res.writeHead(500).end(String(e));
  })));
  return listen(server, "/mcp").then((s) => ({ ...s, close: () => Promise.all([handler.close(), s.close()]) }));
}

/**
 * An SDK v2 server behind a CORS layer allowing either wire's headers, with one tool, "tagged", whose schema
 * has patternProperties: compiling it takes the full validator module (toolgate-validator.wasm).
 * Resolves to {url, close}.
 */
export function startPatternServer() {
  const handler = createMcpHandler(() => {
    const server = new McpServer({ name: "pattern", version: "1.0.0" });
    server.registerTool("tagged", {
      description: "Takes tags named tag_*.",
      inputSchema: fromJsonSchema({ type: "object", patternProperties: { "^tag_": { type: "string" } }, additionalProperties: false }),
    }, async (args) => ({ content: [{ type: "text", text: Object.keys(args).join(",") }] }));
    return server;
  });
  const serve = toNodeHandler(handler);
  const server = http.createServer(withCors([...new Set([...MODERN_HEADERS, ...LEGACY_HEADERS])], (req, res) => serve(req, res).catch((e) => {
    if (!res.headersSent) res.writeHead(500).end(String(e));
  })));
  return listen(server, "/mcp").then((s) => ({ ...s, close: () => Promise.all([handler.close(), s.close()]) }));
}

/** A server on 127.0.0.1 that allows CORS but never answers a POST (a connect that hangs); resolves to {url, close}. */
export function startHangingServer() {
  const server = http.createServer((req, res) => {
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", req.headers["access-control-request-headers"] || "content-type");
    if (req.method === "OPTIONS") return res.writeHead(204).end();
    if (req.method !== "POST") return res.writeHead(405).end();
    // POST: never answered
  });
  return listen(server, "/mcp");
}
