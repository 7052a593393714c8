// Bundlers: apps importing toolgate bundled by esbuild as docs/bundlers.md says, served from a
// plain static server and run in Debian's headless Chromium. (Vite: browser.test.mjs.)
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, cpSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { CEILING_MS } from "./playground-harness.mjs";
import { serveDir } from "./serve-dir.mjs";

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("toolgate/package.json"));
const esbuild = require.resolve("esbuild/bin/esbuild");
// The app lives inside the consumer project so "toolgate" resolves to the packed package.
const appDir = join(dirname(fileURLToPath(import.meta.url)), "esbuild-app");
let browser;
const made = [];

before(async () => {
  browser = await chromium.launch({
    timeout: CEILING_MS,
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** Runs esbuild's command line in the app's folder with args (docs/bundlers.md's command) into a new folder, with index.html beside the bundle; returns the folder. */
function esbuildInto(args) {
  const dist = mkdtempSync(join(tmpdir(), "toolgate-esbuild-"));
  made.push(dist);
  const r = spawnSync(esbuild, [...args, `--outdir=${dist}`, "--log-level=warning"], { cwd: appDir, encoding: "utf8" }); // the native binary, or its Node shim (#!)
  assert.equal(r.status, 0, r.stderr);
  cpSync(join(appDir, "index.html"), join(dist, "index.html"));
  return dist;
}

/** Serves dir over HTTP on a free port as a static host does (404 for a missing file); opens the page and returns {out, wasm: the .wasm paths requested}. */
async function runPage(dir) {
  const srv = await serveDir(dir);
  const page = await browser.newPage();
  page.setDefaultTimeout(CEILING_MS);
  const wasm = [];
  page.on("request", (r) => r.url().endsWith(".wasm") && wasm.push(new URL(r.url()).pathname));
  try {
    await page.goto(`http://localhost:${srv.address().port}/`);
    await page.waitForFunction(() => document.getElementById("out").textContent !== "loading");
    return { out: await page.textContent("#out"), wasm, port: srv.address().port };
  } finally {
    await page.close();
    srv.close();
  }
}

const WORKS = { flavor: "full", status: "completed", response: 42, bad: "invalid-arguments" };
const BUNDLE = ["main.js", "--bundle", "--format=esm"];

test("esbuild without the copy step: the .wasm is a 404 and the error names its URL and docs/bundlers.md", { timeout: 2 * CEILING_MS }, async () => {
  const dist = esbuildInto(BUNDLE);
  assert.deepEqual(readdirSync(dist).filter((f) => f.endsWith(".wasm")), [], "esbuild copied no .wasm");
  const { out, port } = await runPage(dist);
  assert.equal(out.split(";")[0], `error: toolgate: fetching http://localhost:${port}/toolgate.wasm failed with HTTP 404`);
  assert.match(out, /initialize\(\{ wasmURL, validatorURL \}\): see toolgate's docs\/bundlers\.md$/);
});

test("esbuild, the .wasm files copied beside the bundle (docs/bundlers.md): the app runs, the validator module included", { timeout: 2 * CEILING_MS }, async () => {
  const dist = esbuildInto(BUNDLE);
  for (const f of readdirSync(pkgDir).filter((f) => f.endsWith(".wasm"))) cpSync(join(pkgDir, f), join(dist, f)); // cp node_modules/toolgate/*.wasm dist/
  const { out, wasm } = await runPage(dist);
  assert.deepEqual(JSON.parse(out), WORKS);
  assert.deepEqual(wasm.sort(), ["/toolgate-validator.wasm", "/toolgate.wasm"]);
});

test("esbuild with --loader:.wasm=file and the imported URLs passed to initialize (docs/bundlers.md): the app runs", { timeout: 2 * CEILING_MS }, async () => {
  const dist = esbuildInto(["main-urls.js", "--bundle", "--format=esm", "--loader:.wasm=file"]);
  cpSync(join(dist, "main-urls.js"), join(dist, "main.js")); // index.html loads main.js
  const { out, wasm } = await runPage(dist);
  assert.deepEqual(JSON.parse(out), WORKS);
  assert.equal(wasm.length, 2);
  assert.ok(wasm.every((p) => /^\/toolgate(-validator)?-[A-Z0-9]+\.wasm$/.test(p)), wasm.join(", "));
});

test("webpack 5 with no configuration for the .wasm (docs/bundlers.md): new URL(…, import.meta.url) emits them; the app runs", { timeout: 2 * CEILING_MS }, async () => {
  const webpack = require("webpack");
  const dist = mkdtempSync(join(tmpdir(), "toolgate-webpack-"));
  made.push(dist);
  const stats = await new Promise((resolve, reject) => {
    webpack({ mode: "production", context: appDir, entry: "./main.js", output: { path: dist, filename: "main.js" } }, (err, s) => (err ? reject(err) : resolve(s)));
  });
  assert.ok(!stats.hasErrors(), stats.toString("errors-only"));
  cpSync(join(appDir, "index.html"), join(dist, "index.html"));
  assert.equal(readdirSync(dist).filter((f) => f.endsWith(".wasm")).length, 2, "the full build's .wasm and the validator's");
  const { out, wasm } = await runPage(dist);
  assert.deepEqual(JSON.parse(out), WORKS);
  assert.equal(wasm.length, 2);
});
