// MCP servers for the playground's MCP panel tests: server-everything on loopback (the same
// start as the Node suites), and a proxy in front of it that strips every Access-Control-* header,
// as a server that never heard of CORS would answer a page.
import http from "node:http";
export { startEverything } from "../test/mcp-servers.mjs";
export { startOAuthWorld } from "../test/oauth-servers.mjs";

/** A node:http proxy on 127.0.0.1 to target's origin that drops Access-Control-* headers; resolves to {url, close}. */
export function startCorsStripper(target) {
  const up = new URL(target);
  const server = http.createServer((req, res) => {
    const out = http.request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers: { ...req.headers, host: up.host } }, (r) => {
      const headers = Object.fromEntries(Object.entries(r.headers).filter(([k]) => !k.startsWith("access-control-")));
      res.writeHead(r.statusCode, headers);
      r.pipe(res);
    });
    out.on("error", () => res.destroy());
    req.pipe(out);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}${up.pathname}`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
      });
    });
  });
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
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/mcp`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
      });
    });
  });
}
