// Serves the playground and the built npm package on localhost. `make demo`.
// Files go out compressed when the browser accepts it (brotli, else gzip), as a
// production server should send the .wasm: brotli is what users download. Each
// compressed body is made once per file version and kept; an ETag lets the
// browser revalidate instead of downloading again (docs/wasm.md, "Serving the .wasm").
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { readFileSync, writeFileSync, mkdirSync, renameSync } from "node:fs";
import { createHash } from "node:crypto";
import { extname, join, normalize, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompress, gzipSync, constants } from "node:zlib";

const here = dirname(fileURLToPath(import.meta.url));
// TOOLGATE_PKG_DIR points /npm/ at an installed package (the browser tests use the packed one).
const roots = { "/npm/": process.env.TOOLGATE_PKG_DIR || join(here, "..", "npm"), "/": here };
const types = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm", ".css": "text/css", ".json": "application/json" };
// PORT names the one port to use (0: any free one); without it the server takes 8765, or the next
// free one when that is busy (TOOLGATE_DEMO_FIRST_PORT moves the start, for the tests).
const explicitPort = process.env.PORT !== undefined && process.env.PORT !== "";
const firstPort = Number(explicitPort ? process.env.PORT : process.env.TOOLGATE_DEMO_FIRST_PORT || 8765);
const PORTS_TRIED = 20;
const cache = new Map(); // "encoding file version" -> Buffer, or "pending" while brotli works
// Brotli bodies are also kept on disk (.build/demo-cache, or TOOLGATE_DEMO_CACHE), so the next
// `make demo` or test server sends brotli at once instead of compressing 20 MB of .wasm again.
const diskCache = process.env.TOOLGATE_DEMO_CACHE || join(here, "..", ".build", "demo-cache");

/** Where the brotli body of key lives on disk. */
function diskPath(key) {
  return join(diskCache, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.br`);
}

/** The brotli body of key from memory or disk, "pending" while it is being made, or undefined. */
function brotliFor(key) {
  const br = cache.get(`br ${key}`);
  if (br) return br;
  try {
    const body = readFileSync(diskPath(key));
    cache.set(`br ${key}`, body);
    return body;
  } catch {
    return undefined;
  }
}

/** Keeps a finished brotli body in memory and (best effort) on disk. */
function keepBrotli(key, body) {
  cache.set(`br ${key}`, body);
  try {
    mkdirSync(diskCache, { recursive: true });
    const tmp = `${diskPath(key)}.${process.pid}`;
    writeFileSync(tmp, body);
    renameSync(tmp, diskPath(key)); // whole or absent: another server may read it meanwhile
  } catch {
    // a read-only tree: memory only
  }
}

/** The encodings the request accepts, preferred first. */
function accepted(req) {
  const accept = String(req.headers["accept-encoding"] || "");
  return ["br", "gzip"].filter((e) => new RegExp(`\\b${e}\\b`).test(accept));
}

/**
 * The body to send and its encoding: brotli at quality 11 (what a CDN serves, and what the sizes
 * of docs/speed.md are) once it is made, in the background, the first time a file is asked for (half a minute
 * for the full build); gzip meanwhile; the file as it is when neither is accepted.
 */
function compressed(body, encodings, key) {
  if (encodings.includes("br")) {
    const br = brotliFor(key);
    if (Buffer.isBuffer(br)) return { body: br, encoding: "br" };
    if (!br) {
      cache.set(`br ${key}`, "pending");
      brotliCompress(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }, (err, out) => {
        if (err) cache.delete(`br ${key}`);
        else keepBrotli(key, out);
      });
    }
  }
  if (encodings.includes("gzip")) {
    let gz = cache.get(`gzip ${key}`);
    if (!gz) cache.set(`gzip ${key}`, (gz = gzipSync(body, { level: 9 })));
    return { body: gz, encoding: "gzip" };
  }
  return { body, encoding: "" };
}

/** The file under one of the roots a request path names, or null (outside the roots). */
function fileFor(path) {
  const prefix = Object.keys(roots).find((p) => path.startsWith(p));
  const rel = normalize(path.slice(prefix.length) || "index.html");
  return rel.startsWith("..") ? null : { file: join(roots[prefix], rel), ext: extname(rel) };
}

async function serve(req, res) {
  const target = fileFor(decodeURIComponent(new URL(req.url, "http://localhost").pathname));
  if (!target) return res.writeHead(403).end();
  try {
    const info = await stat(target.file);
    const version = `${info.size.toString(36)}-${info.mtimeMs.toString(36)}`;
    const out = compressed(await readFile(target.file), accepted(req), `${target.file} ${version}`);
    const etag = `"${version}${out.encoding ? `-${out.encoding}` : ""}"`; // one per representation
    // x-decoded-length: the file's own size, so the page can show download progress of a compressed body
    const headers = { "content-type": types[target.ext] || "application/octet-stream", "cache-control": "no-cache", etag, vary: "accept-encoding", "x-decoded-length": String(info.size) };
    if (req.headers["if-none-match"] === etag) return res.writeHead(304, headers).end();
    if (out.encoding) headers["content-encoding"] = out.encoding;
    res.writeHead(200, headers).end(out.body);
  } catch {
    res.writeHead(404).end("not found");
  }
}

const server = createServer((req, res) => {
  serve(req, res).catch(() => res.writeHead(500).end());
});

/** Ends the process with one line on stderr: never a stack trace. */
function fail(message) {
  console.error(`toolgate playground: ${message}`);
  process.exit(1);
}

/** Listens on port, or (without PORT) on the next one when it is busy, up to PORTS_TRIED ports. */
function listen(port, tried) {
  server.once("error", (e) => {
    server.removeAllListeners("listening"); // this attempt's callback must not run for the next one
    if (e?.code === "EADDRINUSE" && !explicitPort && tried + 1 < PORTS_TRIED) return listen(port + 1, tried + 1);
    if (e?.code === "EADDRINUSE") {
      fail(explicitPort
        ? `port ${port} is in use; stop what holds it or choose another (PORT=8766 make demo, or PORT=0 for any free port)`
        : `ports ${firstPort}–${port} are all in use; choose one with PORT=… make demo (PORT=0: any free port)`);
    }
    fail(`cannot listen on 127.0.0.1:${port}: ${e?.code ?? e?.message ?? e}`);
  });
  server.listen(port, "127.0.0.1", () => {
    server.removeAllListeners("error");
    server.on("error", (e) => fail(`the server failed: ${e?.code ?? e?.message ?? e}`));
    const at = server.address().port;
    if (tried > 0) console.log(`toolgate playground: port ${firstPort} is busy, so it uses ${at}`);
    console.log(`toolgate playground: http://localhost:${at}/  (Ctrl-C to stop)`);
  });
}

if (!Number.isInteger(firstPort) || firstPort < 0 || firstPort > 65535) fail(`PORT must be a port number (0 for any free one), got ${JSON.stringify(process.env.PORT)}`);
listen(firstPort, 0);
