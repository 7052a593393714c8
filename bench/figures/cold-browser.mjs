// Figure 7b: cold start in Chromium (Debian's, driven by playwright-core as
// the browser suite does): navigation start → first validation, core and full
// builds and plans (toolgate/plan, the plans inlined in the page as a bundler
// inlines an imported JSON file; no WebAssembly), for an uncached load (a fresh browser context each sample) and a
// cached one (a persistent profile, after two loads), beside @cfworker/json-schema
// loaded the same way. A tiny static server on 127.0.0.1 serves the packed
// package and cfworker's ES modules, uncompressed, cacheable for an hour.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join, normalize } from "node:path";
import { chromium } from "playwright-core";
import { median, row, emit, packageDir, versionOf, spread } from "../common.mjs";
import { initialize } from "toolgate/core";

const SAMPLES = 5;
const KINDS = ["core", "full", "plan", "cfworker"];
const SCHEMA = { type: "object", properties: { a: { type: "integer" } }, required: ["a"] };
const LAUNCH = {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".wasm": "application/wasm" };

/** The plans of the page "plan", built ahead as a frontend's build does. */
const PLANS = JSON.stringify((await initialize()).buildPlans([{ name: "one", parameters: SCHEMA, coerce: "none" }]));

/** The page of one kind: load it, validate {a: 1} once, publish the time in window.__bench. */
function page(kind) {
  const validate = kind === "cfworker"
    ? `const { Validator } = await import("/cfworker/index.js"); ok = new Validator(SCHEMA, "2020-12").validate({ a: 1 }).valid;`
    : kind === "plan"
    ? `const { loadPlans } = await import("/pkg/plan.js"); ok = loadPlans(${PLANS}).validate({ function: "one", arguments: { a: 1 } }).ok;`
    : `const { initialize } = await import("/pkg/${kind === "core" ? "core" : "index"}.browser.js"); const tg = await initialize();
       ok = tg.branch({ tools: [tg.tool({ name: "one", parameters: SCHEMA, handler: (a) => a, coerce: "none" })] }).validate({ function: "one", arguments: { a: 1 } }).ok;`;
  return `<!doctype html><meta charset="utf-8"><title>${kind}</title><script type="module">
const SCHEMA = ${JSON.stringify(SCHEMA)}; let ok = false;
try { ${validate} window.__bench = { ms: performance.now(), ok }; } catch (e) { window.__bench = { error: String(e && e.stack || e) }; }
</script>`;
}

/** Serves /page/KIND.html, /pkg/ (the packed package) and /cfworker/ (its ES modules); counts what it serves. */
function startServer() {
  const roots = { "/pkg/": packageDir("toolgate"), "/cfworker/": join(packageDir("@cfworker/json-schema"), "dist", "esm") };
  const served = { requests: 0, bytes: 0 };
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    const kind = path.match(/^\/page\/(\w+)\.html$/)?.[1];
    const prefix = Object.keys(roots).find((p) => path.startsWith(p));
    const rel = prefix && normalize(path.slice(prefix.length));
    try {
      if (!kind && (!prefix || rel.startsWith(".."))) throw new Error("not found");
      const body = kind ? Buffer.from(page(kind)) : await readFile(join(roots[prefix], rel));
      served.requests++;
      served.bytes += body.length;
      res.writeHead(200, { "content-type": TYPES[extname(path)] || "application/octet-stream", "cache-control": "public, max-age=3600" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve({ server, served, base: `http://127.0.0.1:${server.address().port}` })));
}

/** One load of a kind's page in `context`: {ms, requests, bytes} (what the server served for it). */
async function load(context, srv, kind) {
  const p = await context.newPage();
  Object.assign(srv.served, { requests: 0, bytes: 0 });
  await p.goto(`${srv.base}/page/${kind}.html`);
  const r = await (await p.waitForFunction(() => window.__bench, null, { timeout: 120000 })).jsonValue();
  await p.close();
  if (!r.ok) throw new Error(`${kind} page: ${r.error ?? "the validation failed"}`);
  return { ms: r.ms, ...srv.served };
}

async function uncached(browser, srv) {
  const got = Object.fromEntries(KINDS.map((k) => [k, []]));
  for (let s = 0; s < SAMPLES; s++) {
    for (const kind of KINDS) {
      const context = await browser.newContext();
      got[kind].push(await load(context, srv, kind));
      await context.close();
    }
  }
  return got;
}

/**
 * Cached loads need a profile on disk: an in-memory context's HTTP cache does not keep a
 * multi-MiB .wasm, so each kind gets a persistent context in a fresh temporary profile.
 */
async function cached(srv) {
  const got = {};
  for (const kind of KINDS) {
    const dir = mkdtempSync(join(tmpdir(), "toolgate-bench-chromium-"));
    const context = await chromium.launchPersistentContext(dir, LAUNCH);
    try {
      for (let i = 0; i < 2; i++) await load(context, srv, kind); // prime the HTTP cache (and the wasm code cache)
      got[kind] = [];
      for (let s = 0; s < SAMPLES; s++) got[kind].push(await load(context, srv, kind));
    } finally {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return got;
}

/** The rows of one cache mode: core, full and plans beside cfworker. */
function rowsOf(mode, got, version) {
  const ms = (k) => got[k].map((g) => g.ms);
  const servedNote = (k) => `${median(got[k].map((g) => g.requests))} requests, ${(median(got[k].map((g) => g.bytes)) / 1024).toFixed(0)} KiB served`;
  return ["core", "full", "plan"].map((k) => row({
    id: `cold-browser-${k}-${mode}`, figure: 7, unit: "ms", name: `cold start, Chromium, ${k === "plan" ? "from plans (no WebAssembly)" : `${k} build`}, ${mode} load → first validation`,
    toolgate: median(ms(k)), peer: `@cfworker/json-schema ${versionOf("@cfworker/json-schema")}, ${mode} load → first validation`, peerValue: median(ms("cfworker")),
    note: `Chromium ${version}, headless; ${spread(ms(k), 0)} ms; per load ${servedNote(k)} (cfworker ${servedNote("cfworker")})`,
  }));
}

const srv = await startServer();
const browser = await chromium.launch(LAUNCH);
try {
  const u = await uncached(browser, srv);
  const c = await cached(srv);
  emit([...rowsOf("uncached", u, browser.version()), ...rowsOf("cached", c, browser.version())]);
} finally {
  await browser.close();
  srv.server.close();
}
