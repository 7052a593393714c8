// Figure 8: size. Brotli (quality 11) and gzip (level 9) of every module the
// packed package ships (the two .wasm, wasm_exec.js, the JS entries and
// lib/), and the total a page downloads before its first validation, per
// build (and from plans, toolgate/plan): the browser entry's static import graph plus its .wasm, beside the
// ES modules of @cfworker/json-schema that a page imports the same way.
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
import { row, emit, packageDir, versionOf } from "../common.mjs";

const KiB = 1024;

/** raw, gzip-9 and brotli-11 bytes of a file. */
function sizes(file) {
  const raw = readFileSync(file);
  const br = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } });
  return { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length, brotli: br.length };
}

/** Every runtime module under dir: .wasm, .js, .mjs, .cjs (not declarations, not package.json). */
function modules(dir) {
  return readdirSync(dir, { recursive: true })
    .filter((f) => /\.(wasm|m?js|cjs)$/.test(f) && statSync(join(dir, f)).isFile())
    .sort();
}

/** The files a browser fetches for `entry`: its static relative imports and new URL(…, import.meta.url) assets, transitively. */
function graph(entry) {
  const seen = new Set();
  const visit = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (!file.endsWith(".js")) return;
    const text = readFileSync(file, "utf8").replace(/^\s*(\/\/|\*|\/\*).*$/gm, "");
    const specs = [
      ...text.matchAll(/(?:import|export)\s[^;]*?from\s*["'](\.{1,2}\/[^"']+)["']/g),
      ...text.matchAll(/new URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url\s*\)/g),
    ].map((m) => m[1]);
    for (const s of specs) visit(resolve(dirname(file), s));
  };
  visit(entry);
  return [...seen];
}

function total(files, size) {
  return files.reduce((t, f) => {
    const s = size(f);
    return { raw: t.raw + s.raw, gzip: t.gzip + s.gzip, brotli: t.brotli + s.brotli };
  }, { raw: 0, gzip: 0, brotli: 0 });
}

function moduleRows(pkg, size) {
  const files = modules(pkg);
  const all = total(files.map((f) => join(pkg, f)), size);
  const shipped = row({
    id: "size-package-total", figure: 8, unit: "KiB brotli-11", name: `size: every module the package ships (${files.length} files)`, toolgate: all.brotli / KiB,
    note: `gzip-9 ${(all.gzip / KiB).toFixed(1)} KiB, raw ${(all.raw / KiB).toFixed(1)} KiB; each file compressed on its own`,
  });
  return [shipped, ...files.map((f) => {
    const s = size(join(pkg, f));
    return row({
      id: `size-${f}`, figure: 8, unit: "KiB brotli-11", name: `size: ${f}`, toolgate: s.brotli / KiB,
      note: `gzip-9 ${(s.gzip / KiB).toFixed(1)} KiB, raw ${(s.raw / KiB).toFixed(1)} KiB`,
    });
  })];
}

function pageRows(pkg, size) {
  const cfDir = join(packageDir("@cfworker/json-schema"), "dist", "esm");
  const cfFiles = graph(join(cfDir, "index.js"));
  const cf = total(cfFiles, size);
  const peer = `@cfworker/json-schema ${versionOf("@cfworker/json-schema")}'s ES modules (${cfFiles.length} files, unminified)`;
  return [["core", "core.browser.js"], ["full", "index.browser.js"], ["plan", "plan.js"]].flatMap(([build, entry]) => {
    // toolgate-validator.wasm is fetched after initialize, and only schemas outside the fast path wait for it
    const files = graph(join(pkg, entry)).filter((f) => !f.endsWith("toolgate-validator.wasm"));
    const t = total(files, size);
    const wasm = files.filter((f) => f.endsWith(".wasm")).map((f) => relative(pkg, f));
    const note = `${entry}'s import graph: ${files.length - wasm.length} JS modules + ${wasm.join(", ") || "no .wasm"}; raw ${(t.raw / KiB).toFixed(0)} KiB; each file compressed on its own${wasm.length ? "; toolgate-validator.wasm, fetched after initialize, not counted" : ""}`;
    return [
      row({ id: `page-${build}-brotli`, figure: 8, unit: "KiB brotli-11", name: `a page's download before its first validation, ${build === "plan" ? "from plans (toolgate/plan)" : `${build} build`}`, toolgate: t.brotli / KiB, peer, peerValue: cf.brotli / KiB, note }),
      row({ id: `page-${build}-gzip`, figure: 8, unit: "KiB gzip-9", name: `a page's download before its first validation, ${build === "plan" ? "from plans (toolgate/plan)" : `${build} build`}`, toolgate: t.gzip / KiB, peer, peerValue: cf.gzip / KiB }),
    ];
  });
}

const pkg = packageDir("toolgate");
const cache = new Map();
const size = (f) => cache.get(f) ?? cache.set(f, sizes(f)).get(f);
emit([...moduleRows(pkg, size), ...pageRows(pkg, size)]);
