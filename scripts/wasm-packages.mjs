// What a Go wasm build links, package by package: `make wasm-packages`
// (or `node scripts/wasm-packages.mjs file.wasm [top]`) on a build made
// WITHOUT -ldflags=-s, so the module keeps its "name" section. Each
// function body of the code section is charged to the package its name
// starts with; the sizes are bytes of code before compression, and each
// package's brotli column compresses its bodies alone (a guide to what
// removing the package would save, not an exact share of the download).
// Data (the read-only tables, pclntab) is shown as one line.
import { readFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

const file = process.argv[2];
const top = Number(process.argv[3] ?? 40);
if (!file) {
  console.error("usage: node scripts/wasm-packages.mjs build.wasm [top]");
  process.exit(2);
}
const buf = readFileSync(file);

function leb(pos) {
  let result = 0, shift = 0, b;
  do {
    b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    shift += 7;
  } while (b & 0x80);
  return [result, pos];
}

let imports = 0;
let code = null; // [start, end]
let data = 0;
let names = null; // [start, end]
for (let pos = 8; pos < buf.length; ) {
  const id = buf[pos++];
  let size;
  [size, pos] = leb(pos);
  const end = pos + size;
  if (id === 2) {
    // count function imports: they take the first function indexes
    let n, p = pos;
    [n, p] = leb(p);
    for (let i = 0; i < n; i++) {
      let len;
      [len, p] = leb(p); p += len;
      [len, p] = leb(p); p += len;
      const kind = buf[p++];
      if (kind === 0) { [, p] = leb(p); imports++; }
      else if (kind === 1) { p += 1; const f = buf[p++]; [, p] = leb(p); if (f & 1) [, p] = leb(p); }
      else if (kind === 2) { const f = buf[p++]; [, p] = leb(p); if (f & 1) [, p] = leb(p); }
      else if (kind === 3) { p += 2; }
    }
  } else if (id === 10) code = [pos, end];
  else if (id === 11) data = size;
  else if (id === 0) {
    const [len, p] = leb(pos);
    if (buf.toString("latin1", p, p + len) === "name") names = [p + len, end];
  }
  pos = end;
}
if (!names) {
  console.error(`${file} has no name section: build it without -ldflags=-s`);
  process.exit(1);
}

const fnName = new Map();
for (let p = names[0]; p < names[1]; ) {
  const sub = buf[p++];
  let size;
  [size, p] = leb(p);
  if (sub === 1) {
    let n, q = p;
    [n, q] = leb(q);
    for (let i = 0; i < n; i++) {
      let idx, len;
      [idx, q] = leb(q);
      [len, q] = leb(q);
      fnName.set(idx, buf.toString("utf8", q, q + len));
      q += len;
    }
  }
  p += size;
}

// The package of a symbol. The linker writes a package path with "/" as
// "_" ("math_big.nat.add", "github.com_toolgate_toolgate_core.Compile"):
// a module path that starts with a host keeps the host's dots.
const hosts = /^(github\.com|golang\.org|gopkg\.in|google\.golang\.org)_/;
function pkgOf(sym) {
  const host = sym.match(hosts);
  const dot = sym.indexOf(".", host ? host[0].length : 0);
  return dot < 0 ? sym : sym.slice(0, dot);
}

const byPkg = new Map();
let [count, p] = leb(code[0]);
for (let i = 0; i < count; i++) {
  const [size, body] = leb(p);
  const name = fnName.get(imports + i) ?? "?";
  const pkg = pkgOf(name);
  let e = byPkg.get(pkg);
  if (!e) byPkg.set(pkg, (e = { bytes: 0, parts: [] }));
  e.bytes += size;
  e.parts.push(buf.subarray(body, body + size));
  p = body + size;
}

const q = { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } };
const rows = [...byPkg].map(([pkg, e]) => ({ pkg, bytes: e.bytes, br: brotliCompressSync(Buffer.concat(e.parts), q).length }));
rows.sort((a, b) => b.br - a.br);
const kib = (n) => (n / 1024).toFixed(1).padStart(8);
const whole = brotliCompressSync(buf, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
console.log(`${file}: ${kib(buf.length)} KiB, ${kib(whole)} KiB brotli; code ${kib(code[1] - code[0])} KiB, data ${kib(data)} KiB`);
console.log(`${"package".padEnd(48)} code KiB  brotli KiB`);
for (const r of rows.slice(0, top)) console.log(`${r.pkg.padEnd(48)}${kib(r.bytes)}  ${kib(r.br)}`);
const rest = rows.slice(top);
if (rest.length) console.log(`${`(${rest.length} more)`.padEnd(48)}${kib(rest.reduce((s, r) => s + r.bytes, 0))}  ${kib(rest.reduce((s, r) => s + r.br, 0))}`);
