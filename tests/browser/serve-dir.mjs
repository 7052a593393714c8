// A static host for the browser suite's built pages: a directory served over HTTP on a free
// loopback port, a missing file a 404 (as a static host answers a .wasm a bundler did not copy).
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

/** Serves dir on a free port of 127.0.0.1; resolves to the listening server (close it when done). */
export async function serveDir(dir) {
  const srv = createServer(async (req, res) => {
    const path = new URL(req.url, "http://x").pathname;
    try {
      const body = await readFile(join(dir, path === "/" ? "index.html" : path));
      const type = path.endsWith(".wasm") ? "application/wasm" : path.endsWith(".js") ? "text/javascript" : "text/html";
      res.writeHead(200, { "content-type": type }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  return srv;
}
