// Figure 8b: the playground as a person gets it from `make demo`'s server (brotli, as a CDN would
// send it): bytes over the wire and time from navigation to "ready", uncached, in Debian's Chromium.
// The page loads the core build only; the full build waits for the MCP panel.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { median, row, emit, packageDir, spread, BENCH_DIR } from "../common.mjs";

const SAMPLES = 5;
const LAUNCH = {
  executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
};

/** Starts web-demo/serve.mjs on a free port over the packed package; resolves to {child, base}. */
function startDemo() {
  const child = spawn(process.execPath, [join(BENCH_DIR, "..", "..", "..", "web-demo", "serve.mjs")], { env: { ...process.env, PORT: "0", TOOLGATE_PKG_DIR: packageDir("toolgate") }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/localhost:(\d+)\//);
      if (m) resolve({ child, base: `http://localhost:${m[1]}` });
    });
    child.on("exit", (code) => reject(new Error(`serve.mjs exited ${code}`)));
  });
}

/** Waits until the server sends the .wasm brotli-compressed (it compresses in the background on first request). */
async function warm(base) {
  for (let i = 0; i < 240; i++) {
    const r = await fetch(`${base}/npm/toolgate-core.wasm`, { headers: { "accept-encoding": "br" } });
    await r.arrayBuffer();
    if (r.headers.get("content-encoding") === "br") return;
    await new Promise((done) => setTimeout(done, 500));
  }
  throw new Error("the demo server never sent brotli");
}

/** One uncached load: {ms, bytes, requests} (bytes as they crossed the wire, from the DevTools protocol). */
async function load(browser, base) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  let bytes = 0;
  let requests = 0;
  cdp.on("Network.loadingFinished", (e) => {
    bytes += e.encodedDataLength;
    requests++;
  });
  await page.goto(`${base}/`);
  await page.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 120000 });
  const ms = await page.evaluate(() => performance.now());
  const counted = { bytes, requests };
  await context.close();
  return { ms, ...counted };
}

const { child, base } = await startDemo();
const browser = await chromium.launch(LAUNCH);
try {
  await warm(base);
  const got = [];
  for (let s = 0; s < SAMPLES; s++) got.push(await load(browser, base));
  const ms = got.map((g) => g.ms);
  const kib = median(got.map((g) => g.bytes)) / 1024;
  emit([
    row({ id: "playground-ready", figure: 8, unit: "ms", name: "the playground, uncached: navigation → ready (make demo's server, brotli)", toolgate: median(ms), note: `Chromium ${browser.version()}, headless, loopback; ${spread(ms, 0)} ms` }),
    row({ id: "playground-bytes", figure: 8, unit: "KiB", name: "the playground, uncached: bytes over the wire until ready", toolgate: kib, note: `${median(got.map((g) => g.requests))} responses finished by then (HTML, CSS, JS modules, toolgate-core.wasm); the full build waits for the MCP panel, toolgate-validator.wasm is fetched after ready` }),
  ]);
} finally {
  await browser.close();
  child.kill();
}
