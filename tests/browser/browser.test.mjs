// Browser suite: the packed package in Debian's headless Chromium, through the
// playground page and a page that imports the browser entries directly.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";
import { CEILING_MS } from "./playground-harness.mjs";
import { serveDir } from "./serve-dir.mjs";

const require = createRequire(import.meta.url);
const pkgDir = dirname(require.resolve("toolgate/package.json"));
const serveScript = process.env.TOOLGATE_SERVE;
let server, browser, base; // playwright gives Chromium a fresh temporary profile

before(async () => {
  server = spawn(process.execPath, [serveScript], { env: { ...process.env, PORT: "0", TOOLGATE_PKG_DIR: pkgDir }, stdio: ["ignore", "pipe", "inherit"] });
  base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/localhost:(\d+)\//);
      if (m) resolve(`http://localhost:${m[1]}`);
    });
    server.on("exit", (code) => reject(new Error(`server exited ${code}`)));
  });
  browser = await chromium.launch({
    timeout: CEILING_MS,
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
});

after(async () => {
  await browser?.close();
  server?.kill();
});

/** A new page whose waits have the suite's ceiling, not Playwright's 30 s. */
async function newPage() {
  const page = await browser.newPage();
  page.setDefaultTimeout(CEILING_MS);
  return page;
}

/**
 * Opens an empty page on the demo server's origin: the playground itself initializes the core build
 * (a page has one instance per build), so tests of initialize's own options start where it has not run.
 */
async function gotoBlank(page) {
  await page.route(`${base}/blank`, (r) => r.fulfill({ contentType: "text/html", body: "<!doctype html><title>blank</title>" }));
  await page.goto(`${base}/blank`);
}

/** Runs the demo server with env until it prints its URL or exits: {url?, code?, out, err}. */
function runServe(env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [serveScript], { env: { ...process.env, TOOLGATE_PKG_DIR: pkgDir, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/localhost:(\d+)\//);
      if (m) {
        child.kill();
        resolve({ port: Number(m[1]), out, err });
      }
    });
    child.stderr.on("data", (d) => (err += d));
    child.on("exit", (code) => resolve({ code, out, err }));
  });
}

test("make demo's server takes the next free port when its port is busy, and a busy PORT= ends in one line, no stack trace", async () => {
  const { createServer } = await import("node:net");
  const holder = createServer();
  await new Promise((r) => holder.listen(0, "127.0.0.1", r));
  const busy = holder.address().port;
  try {
    const next = await runServe({ PORT: "", TOOLGATE_DEMO_FIRST_PORT: String(busy) });
    assert.ok(next.port > busy, `it moved on from the busy port ${busy} (got ${next.port})`);
    assert.match(next.out, new RegExp(`port ${busy} is busy, so it uses ${next.port}`));
    const explicit = await runServe({ PORT: String(busy) });
    assert.equal(explicit.code, 1);
    assert.match(explicit.err, new RegExp(`^toolgate playground: port ${busy} is in use; .*PORT=`));
    assert.equal(explicit.err.trim().split("\n").length, 1, "one line");
    assert.doesNotMatch(explicit.err, /\n\s+at |EADDRINUSE/, "no stack trace, no raw error code");
  } finally {
    holder.close();
  }
});

test("the playground loads the core build (not the full one) and enables its controls when ready", async () => {
  const page = await newPage();
  const errors = [];
  const wasm = [];
  page.on("pageerror", (e) => errors.push(e));
  page.on("request", (r) => r.url().endsWith(".wasm") && wasm.push(new URL(r.url()).pathname));
  await page.goto(`${base}/`);
  assert.equal(await page.$eval("#controls", (f) => f.disabled), true, "disabled until ready");
  await page.waitForFunction(() => document.body.dataset.state === "ready");
  assert.match(await page.textContent("#status"), /^toolgate \S+ \(core build\) is ready in \d+ ms/);
  assert.equal(await page.$eval("#controls", (f) => f.disabled), false);
  assert.deepEqual(wasm.filter((p) => p === "/npm/toolgate-core.wasm"), ["/npm/toolgate-core.wasm"], "fetched once");
  assert.ok(!wasm.includes("/npm/toolgate.wasm"), "the full build waits for the MCP panel");
  assert.deepEqual(errors, []);
  await page.close();
});

test("the core and full browser entries work when imported directly", async () => {
  const page = await newPage();
  await gotoBlank(page);
  const result = await page.evaluate(async () => {
    const core = await import("/npm/core.browser.js");
    const tg = await core.initialize();
    const again = await core.initialize();
    const b = tg.branch({ tools: [tg.tool({ name: "id", parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] }, handler: ({ n }) => n })] });
    const big = await b.invoke('{"function":"id","arguments":{"n":9007199254740993}}');
    const bad = b.validate({ function: "id", arguments: { n: "x" } });
    let mcpInCore = "mcp" in tg;
    const full = await (await import("/npm/index.browser.js")).initialize();
    const denied = full.mcp.checkUrl("https://169.254.169.254/latest", full.mcp.trusted());
    const allowed = full.mcp.checkUrl("https://api.example.com/mcp", full.mcp.trusted());
    return {
      same: tg === again,
      flavor: tg.flavor,
      big: typeof big.response === "bigint" ? String(big.response) : "not a bigint",
      badCode: bad.ok ? "ok" : bad.error.code,
      isInstance: core.ToolgateError.isInstance(bad.error),
      mcpInCore,
      denied: denied.allowed,
      allowed: allowed.allowed,
    };
  });
  assert.deepEqual(result, { same: true, flavor: "core", big: "9007199254740993", badCode: "invalid-arguments", isInstance: true, mcpInCore: false, denied: false, allowed: true });
  await page.close();
});

test("host calls work in the browser: Go calls an async hook, gets its result, and a hook that throws or hangs ends cleanly", async () => {
  const page = await newPage();
  await gotoBlank(page);
  const result = await page.evaluate(async () => {
    const tg = await (await import("/npm/index.browser.js")).initialize();
    const debug = tg[Symbol.for("toolgate.debug")];
    const doubled = await debug.host(async (v, { signal }) => ({ v: v * 2, signal: signal instanceof AbortSignal }), 21);
    const threw = await debug.host(() => {
      throw new TypeError("secret-in-message");
    }, 0).then(() => "resolved", (e) => `${e.code}: ${e.message}`);
    const ac = new AbortController();
    let hookSignal, called;
    const hookCalled = new Promise((resolve) => (called = resolve));
    const hung = debug.host((_v, { signal }) => {
      hookSignal = signal;
      called();
      return new Promise(() => {});
    }, 0, ac.signal);
    await hookCalled; // the caller gives up while the hook hangs, not before Go has called it
    ac.abort();
    const abandoned = await hung.then(() => "resolved", () => "rejected");
    return { doubled, threw, abandoned, hookAborted: hookSignal.aborted, inFlight: debug.hostsInFlight(), after: await debug.host((v) => v, "ok") };
  });
  assert.deepEqual(result.doubled, { v: 42, signal: true });
  assert.match(result.threw, /^internal: the test hook threw: TypeError$/);
  assert.equal(result.abandoned, "rejected");
  assert.equal(result.hookAborted, true);
  assert.equal(result.inFlight, 0);
  assert.equal(result.after, "ok");
  await page.close();
});

test("schemas outside the fast path use toolgate-validator.wasm: fetched after initialize (lazy) or before (eager)", async () => {
  for (const mode of ["lazy", "eager"]) {
    const page = await newPage();
    await gotoBlank(page);
    const result = await page.evaluate(async ({ mode }) => {
      const tg = await (await import("/npm/core.browser.js")).initialize({ validator: mode });
      const parameters = { type: "object", properties: { n: { not: { multipleOf: 2 } } } };
      const attempt = () => {
        try {
          return tg.branch({ tools: [tg.tool({ name: "odd", parameters, handler: ({ n }) => n })] }).validate({ function: "odd", arguments: { n: 4 } });
        } catch (e) {
          return { thrown: e.code, message: e.message };
        }
      };
      const first = attempt();
      // lazy: the validator arrives in the background; tg.ready resolves once it has and is started
      await tg.ready("validator");
      const r = attempt();
      return { first: first.thrown ? `${first.thrown}: ${/still downloading/.test(first.message)}` : "validated", keyword: r.error?.issues?.[0]?.keyword };
    }, { mode });
    assert.equal(result.keyword, "not", mode);
    if (mode === "eager") assert.equal(result.first, "validated");
    else assert.ok(["validated", "unsupported: true"].includes(result.first), result.first);
    await page.close();
  }
});

/** A schema the fast path validates only with the validator module (an anyOf of objects), though a tool is made of it at once. */
const EITHER = {
  type: "object",
  properties: { n: { anyOf: [{ type: "object", properties: { a: { type: "integer" } } }, { type: "object", properties: { b: { type: "string" } } }] } },
  required: ["n"],
};

/**
 * Holds the page's requests for toolgate-validator.wasm until `release()` (a slow download, made by
 * the test, not the product): `requested` resolves when the first one arrives. `answer(route)`
 * gives the response (default: the real file).
 */
async function holdValidator(page, answer = (route) => route.continue()) {
  let release, seen;
  const released = new Promise((r) => (release = r));
  const requested = new Promise((r) => (seen = r));
  await page.evaluate((schema) => (window.EITHER = schema), EITHER);
  await page.route(/toolgate-validator\.wasm$/, async (route) => {
    seen();
    await released;
    await answer(route);
  });
  return { release, requested };
}

test("right after initialize, with the validator still downloading, invoke waits for it and the synchronous calls say how to wait", async () => {
  const page = await newPage();
  await gotoBlank(page);
  const held = await holdValidator(page);
  const early = await page.evaluate(async () => {
    const tg = await (await import("/npm/core.browser.js")).initialize(); // "lazy": the download starts now
    window.tg = tg;
    const caught = (f) => {
      try {
        f();
        return "no error";
      } catch (e) {
        return `${e.code}: ${e.message}`;
      }
    };
    // an anyOf of objects: the tool is made at once (its schema is surely valid), its validation needs the module
    const either = tg.tool({ name: "either", parameters: window.EITHER, handler: ({ n }) => n.a * 2 });
    const b = tg.branch({ tools: [either] });
    window.b = b;
    const validate = b.validate({ function: "either", arguments: { n: { a: 4 } } });
    const notTool = caught(() => tg.tool({ name: "odd", parameters: { type: "object", properties: { n: { not: { multipleOf: 2 } } } }, handler: ({ n }) => n }));
    window.calls = [b.invoke({ function: "either", arguments: { n: { a: 4 } } }), b.invoke({ function: "either", arguments: { n: "x" } })].map((p) => p.then((fc) => ({ status: fc.status, response: fc.response }), (e) => ({ thrown: `${e.code}: ${e.message}` })));
    return { validate: validate.ok ? "ok" : `${validate.error.code}: ${validate.error.message}`, notTool };
  });
  await held.requested;
  assert.match(early.validate, /^unsupported: .*still downloading: invoke waits for it by itself; .*await tg\.ready\("validator"\)/);
  assert.match(early.notTool, /^unsupported: .*still downloading.*await tg\.ready\("validator"\)/);
  held.release();
  const later = await page.evaluate(async () => {
    const [good, bad] = await Promise.all(window.calls);
    const odd = window.tg.tool({ name: "odd", parameters: { type: "object", properties: { n: { not: { multipleOf: 2 } } } }, handler: ({ n }) => n });
    window.b.register(odd);
    const even = await window.b.invoke({ function: "odd", arguments: { n: 4 } }).then(() => "invoked", (e) => e.issues?.[0]?.keyword);
    return { good, bad, even };
  });
  assert.deepEqual(later.good, { status: "completed", response: 8 });
  assert.match(later.bad.thrown, /^invalid-arguments: /);
  assert.equal(later.even, "not");
  await page.close();
});

test("a validator download that fails: invoke rejects naming the URL and docs/bundlers.md", async () => {
  const page = await newPage();
  await gotoBlank(page);
  const held = await holdValidator(page, (route) => route.fulfill({ status: 404, body: "" }));
  await page.evaluate(async () => {
    const tg = await (await import("/npm/core.browser.js")).initialize();
    const b = tg.branch({ tools: [tg.tool({ name: "either", parameters: window.EITHER, handler: () => 1 })] });
    window.call = b.invoke({ function: "either", arguments: { n: { a: 1 } } }).then(() => "invoked", (e) => `${e.code}: ${e.message}`);
  });
  await held.requested;
  held.release();
  const got = await page.evaluate(() => window.call);
  assert.match(got, /^unsupported: the full JSON Schema validator \(http:\/\/localhost:\d+\/npm\/toolgate-validator\.wasm\) could not be loaded: toolgate: fetching \S+ failed with HTTP 404; .*docs\/bundlers\.md/);
  await page.close();
});

test("MCP discovery right after initialize waits for the validator still downloading: a tool whose schema needs it is not left out", async () => {
  const { startPatternServer } = await import("./mcp-servers.mjs");
  const srv = await startPatternServer();
  const page = await newPage();
  try {
    // a page the demo server sends (loopback, so it may reach a loopback MCP server) that runs no toolgate of its own
    await page.goto(`${base}/oauth-callback.html`);
    const held = await holdValidator(page);
    await page.evaluate(async (url) => {
      const tg = await (await import("/npm/index.browser.js")).initialize(); // "lazy"
      const b = tg.branch();
      const warnings = [];
      window.registered = b.registerMcpServer({ name: "p", url }, { security: { allowUrls: true, allowLoopbackHttp: true }, onWarning: (s, e) => warnings.push(e.message) })
        .then(async (names) => ({ names, warnings, call: (await b.invoke({ function: "mcp__p__tagged", arguments: { tag_a: "x", other: 1 } }).catch((e) => e)).code }), (e) => ({ thrown: `${e.code}: ${e.message}` }));
    }, srv.url);
    await held.requested;
    held.release();
    const got = await page.evaluate(() => window.registered);
    assert.deepEqual(got, { names: ["mcp__p__tagged"], warnings: [], call: "invalid-arguments" });
  } finally {
    await page.close();
    await srv.close();
  }
});

test("a Vite production build of an app importing toolgate works", { timeout: 2 * CEILING_MS }, async () => {
  const { build } = await import("vite");
  const { mkdtempSync, cpSync, rmSync } = await import("node:fs");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  // The app lives inside the consumer project so "toolgate" resolves to the packed package.
  const root = join(dirname(fileURLToPath(import.meta.url)), "vite-app");
  const outDir = mkdtempSync(join(tmpdir(), "toolgate-vite-"));
  try {
    await build({ root, logLevel: "silent", build: { outDir, emptyOutDir: true, target: "es2022" } });
    const srv = await serveDir(outDir);
    const page = await newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(`http://localhost:${srv.address().port}/`);
    await page.waitForFunction(() => document.getElementById("out").textContent.startsWith("{")).catch(() => {
      throw new Error(`the bundled app did not finish: ${errors.join("; ") || "no page error"}`);
    });
    const got = JSON.parse(await page.textContent("#out"));
    assert.deepEqual(got, { flavor: "full", ok: true, badCode: "invalid-arguments", isInstance: true, response: 5, viaValidator: 7, mcp: "function" });
    await page.close();
    srv.close();
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

/** A validate answer as the vite-plans page writes it. */
function pageView(r) {
  if (r.ok) return { ok: true, function: r.function, arguments: r.arguments, conversions: r.conversions ?? null };
  return { ok: false, isInstance: true, code: r.error.code, message: r.error.message, tool: r.error.tool ?? null, issues: r.error.issues ?? null };
}

test("a Vite-built page validates from plans with the live branch's answers and fetches no .wasm", { timeout: 2 * CEILING_MS }, async () => {
  const { build } = await import("vite");
  const { mkdtempSync, rmSync, writeFileSync, readdirSync, readFileSync } = await import("node:fs");
  const { brotliCompressSync } = await import("node:zlib");
  const { tmpdir } = await import("node:os");
  const { join } = await import("node:path");
  const { fileURLToPath } = await import("node:url");
  const { initialize } = await import("toolgate");
  const { loadPlans } = await import("toolgate/plan");
  const tg = await initialize();
  const tools = [
    { name: "add", coerce: "none", parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] } },
    { name: "search", coerce: "none", parameters: { type: "object", properties: { query: { type: "string", minLength: 1 }, order: { enum: ["asc", "desc"] }, tags: { type: "array", items: { type: "string" } } }, required: ["query"], additionalProperties: false } },
  ];
  const calls = [
    { function: "add", arguments: { a: 1, b: 2 } },
    { function: "add", arguments: '{"a": 40, "b": 2}' },
    { function: "add", arguments: { a: 1 } },
    { function: "add", arguments: { a: "1", b: 2 } },
    { function: "search", arguments: { query: "wasm", order: "asc", tags: ["a"] } },
    { function: "search", arguments: { query: "", order: "up", extra: 1 } },
    { function: "nope", arguments: {} },
    { function: "add", arguments: "[1]" },
  ];
  // The app lives inside the consumer project so "toolgate/plan" resolves to the packed package.
  const root = join(dirname(fileURLToPath(import.meta.url)), "vite-plans");
  const doc = tg.buildPlans(tools);
  writeFileSync(join(root, "plans.json"), JSON.stringify(doc));
  writeFileSync(join(root, "calls.json"), JSON.stringify(calls));
  const b = tg.branch({ tools: tools.map((t) => tg.tool({ ...t, handler: (args) => args })) });
  const live = calls.map((c) => pageView(b.validate(c)));
  const fromPlans = calls.map((c) => pageView(loadPlans(doc).validate(c)));
  const outDir = mkdtempSync(join(tmpdir(), "toolgate-vite-plans-"));
  let srv;
  try {
    await build({ root, logLevel: "silent", build: { outDir, emptyOutDir: true, target: "es2022" } });
    const js = readdirSync(join(outDir, "assets")).filter((f) => f.endsWith(".js"));
    const brotli = js.reduce((n, f) => n + brotliCompressSync(readFileSync(join(outDir, "assets", f))).length, 0);
    console.log(`vite-plans: the page loads ${js.length} JS file(s), ${(brotli / 1024).toFixed(1)} KiB brotli`);
    assert.ok(brotli <= 64 * 1024, `got ${brotli} bytes of brotli JS, want at most 64 KiB`);
    srv = await serveDir(outDir);
    const page = await newPage();
    const errors = [];
    const requests = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("request", (r) => requests.push(r.url()));
    await page.goto(`http://localhost:${srv.address().port}/`);
    await page.waitForFunction(() => document.getElementById("out").textContent.startsWith("{")).catch(() => {
      throw new Error(`the plans page did not finish: ${errors.join("; ") || "no page error"}`);
    });
    const got = JSON.parse(await page.textContent("#out"));
    await page.close();
    assert.ok(requests.some((u) => new URL(u).pathname.endsWith(".js")), `requests seen: ${requests.join(", ")}`);
    assert.deepEqual(requests.filter((u) => /\.wasm(\?|$)/.test(new URL(u).pathname)), [], "the page requested WebAssembly");
    assert.deepEqual(got.tools, ["add", "search"]);
    assert.deepEqual(got.results, fromPlans, "the page answers as toolgate/plan in Node");
    // Where the plans decide (the evaluator answers), their answer is the live branch's.
    got.results.forEach((r, i) => {
      if (!r.ok && r.code === "unsupported") return;
      assert.deepEqual(r, live[i], JSON.stringify(calls[i]));
    });
    for (const i of [0, 1, 4, 6, 7]) assert.deepEqual(got.results[i], live[i], JSON.stringify(calls[i])); // valid calls and shapes: decided by any evaluator
  } finally {
    srv?.close();
    rmSync(outDir, { recursive: true, force: true });
  }
});

test("MCP OAuth: the popup flow registers an OAuth-protected server and calls it with the token", async () => {
  const { startOAuthWorld } = await import("../test/oauth-servers.mjs");
  const world = await startOAuthWorld();
  const page = await newPage();
  try {
    await page.goto(`${base}/`); // the playground page: it initializes the core build, this test the full one
    const out = await page.evaluate(async ({ url, asOrigin }) => {
      const tg = await (await import("/npm/index.browser.js")).initialize();
      const b = tg.branch();
      const auth = {
        redirectUrl: `${asOrigin}/callback`,
        clientMetadata: { client_name: "browser test" },
        redirectToAuthorization: (u) => new Promise((resolve, reject) => {
          const popup = window.open(u, "oauth", "popup");
          if (!popup) return reject(new Error("popup blocked"));
          addEventListener("message", function done(e) {
            if (e.origin !== asOrigin || e.source !== popup) return;
            removeEventListener("message", done);
            popup.close();
            resolve(e.data);
          });
        }),
      };
      const names = await b.registerMcpServer({ name: "docs", url }, { security: { allowUrls: true, allowLoopbackHttp: true }, auth });
      // the playground's lazy validator may still be on its way: invoke waits for it
      const fc = await b.invoke({ function: "mcp__docs__read", arguments: {} });
      await tg.mcp.cleanup();
      return { names, status: fc.status, response: fc.response };
    }, { url: world.url, asOrigin: world.as.origin });
    assert.deepEqual(out.names, ["mcp__docs__read", "mcp__docs__write"]);
    assert.equal(out.status, "completed");
    assert.equal(out.response, "read done");
    assert.equal(world.state.authorizations.length, 1);
    assert.ok(world.state.mcpAuthorizations.some((h) => /^Bearer at-/.test(h)));
  } finally {
    await page.close();
    await world.close();
  }
});
