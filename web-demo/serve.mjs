// Serves the playground and the built npm package on localhost. `make demo`.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
// TOOLGATE_PKG_DIR points /npm/ at an installed package (the browser tests use the packed one).
const roots = { "/npm/": process.env.TOOLGATE_PKG_DIR || join(here, "..", "npm"), "/": here };
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json" };
const port = Number(process.env.PORT || 8765);

const server = createServer(async (req, res) => {
  const path = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
  const prefix = Object.keys(roots).find((p) => path.startsWith(p));
  const rel = normalize(path.slice(prefix.length) || "index.html");
  if (rel.startsWith("..")) {
    res.writeHead(403).end();
    return;
  }
  try {
    const body = await readFile(join(roots[prefix], rel));
    res.writeHead(200, { "content-type": types[extname(rel)] || "application/octet-stream", "cache-control": "no-store" });
    res.end(body);
  } catch {
    res.writeHead(404).end("not found");
  }
});
server.listen(port, "127.0.0.1", () => {
  console.log(`toolgate playground: http://localhost:${server.address().port}/  (Ctrl-C to stop)`);
});
