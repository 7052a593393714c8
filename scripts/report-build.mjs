// Prints each .wasm's size (raw, gzip, brotli) and the cold start in Node
// (load → first validation), for `make build`.
import { readFileSync } from "node:fs";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { pathToFileURL } from "node:url";

const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
for (const [file, entry] of [["npm/toolgate-core.wasm", "npm/core.node.js"], ["npm/toolgate.wasm", "npm/index.node.js"]]) {
  const raw = readFileSync(file);
  const gz = gzipSync(raw, { level: 9 }).length;
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  const t0 = performance.now();
  const { initialize } = await import(pathToFileURL(entry).href);
  const tg = await initialize();
  const b = tg.branch({ tools: [tg.tool(function add(a, b) { return a + b; })] });
  const r = b.validate({ function: "add", arguments: { a: 1, b: 2 } });
  const ms = performance.now() - t0;
  if (!r.ok) throw r.error;
  console.log(`${file}: ${kib(raw.length)} raw, ${kib(gz)} gzip, ${kib(br)} brotli; cold start (import → first validation) ${ms.toFixed(0)} ms`);
}
{
  const raw = readFileSync("npm/toolgate-validator.wasm");
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  console.log(`npm/toolgate-validator.wasm: ${kib(raw.length)} raw, ${kib(gzipSync(raw, { level: 9 }).length)} gzip, ${kib(br)} brotli; loaded only for schemas outside the fast path`);
}
