// Shared by the playground's browser tests: the demo server on a free port, Debian's Chromium,
// pages at desktop and phone sizes, axe-core, and screenshots under the ignored output directory.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { createRequire } from "node:module";
import { chromium } from "playwright-core";

const require = createRequire(import.meta.url);
export const pkgDir = dirname(require.resolve("toolgate/package.json"));
const axePath = require.resolve("axe-core/axe.min.js");
const shotsDir = process.env.TOOLGATE_SCREENSHOTS || join(process.cwd(), "screenshots");

/**
 * The longest any wait on a page may take (Playwright's default timeout of every page here): a
 * ceiling for a machine busy with other work, never a delay; waits end on the event or state they
 * wait for.
 */
export const CEILING_MS = 300000;

/** The sizes every flow is driven at. */
export const SIZES = { desktop: { width: 1366, height: 900 }, phone: { width: 390, height: 844, isMobile: true, hasTouch: true } };

/** Starts the demo server (PORT=0) and Chromium. Returns {base, browser, close()}. */
export async function startPlayground(env = {}) {
  const server = spawn(process.execPath, [process.env.TOOLGATE_SERVE], { env: { ...process.env, PORT: "0", TOOLGATE_PKG_DIR: pkgDir, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  const base = await new Promise((resolve, reject) => {
    let out = "";
    server.stdout.on("data", (d) => {
      out += d;
      const m = out.match(/http:\/\/localhost:(\d+)\//);
      if (m) resolve(`http://localhost:${m[1]}`);
    });
    server.on("exit", (code) => reject(new Error(`the demo server exited ${code}`)));
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  return {
    base,
    browser,
    async close() {
      await browser.close();
      server.kill();
    },
  };
}

/**
 * A new page at size ("desktop" or "phone") on base + path. Unless wait is false, it waits until
 * the page is ready (body[data-state=ready]); colorScheme "dark" shows the dark theme. page.errors collects uncaught page errors; the
 * clipboard is granted so copy buttons work headless.
 */
export async function openPage(pg, { size = "desktop", path = "/", wait = true, route, colorScheme = "light" } = {}) {
  const { isMobile, hasTouch, ...viewport } = SIZES[size];
  const context = await pg.browser.newContext({ viewport, colorScheme, isMobile: Boolean(isMobile), hasTouch: Boolean(hasTouch), permissions: ["clipboard-read", "clipboard-write"] });
  context.setDefaultTimeout(CEILING_MS); // its popups too
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e));
  if (route) await route(page);
  await page.goto(pg.base + path);
  if (wait) await page.waitForFunction(() => document.body.dataset.state === "ready");
  page.size = size;
  return page;
}

/** Closes a page with its context. */
export async function closePage(page) {
  await page.context().close();
}

/**
 * Clicks a copy button (a Locator) and resolves to the text it put on the clipboard. The button
 * writes the clipboard asynchronously, so this empties it first and waits until it holds text.
 */
export async function copiedBy(page, button) {
  await page.evaluate(async () => {
    window.__copied = "";
    await navigator.clipboard.writeText("");
  });
  await button.click();
  // waitForFunction takes a returned promise as a truthy value (it does not await it): the predicate
  // stays synchronous, each poll starting a read whose text the next poll sees.
  const text = await page.waitForFunction(() => {
    navigator.clipboard.readText().then((t) => {
      window.__copied = t;
    }, () => {});
    return window.__copied || false;
  });
  return text.jsonValue();
}

/** Runs axe on the page as it is; fails on any moderate, serious or critical violation, naming each. */
export async function assertAccessible(page, view) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ["violations"] });
    return r.violations.filter((v) => v.impact === "moderate" || v.impact === "serious" || v.impact === "critical").map((v) => `${v.impact} ${v.id}: ${v.help} (${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")})`);
  });
  assert.deepEqual(violations, [], `axe on ${view} (${page.size})`);
}

/** Saves a full-page screenshot as <name>-<size>.png under the screenshots directory. */
export async function screenshot(page, name) {
  mkdirSync(shotsDir, { recursive: true });
  await page.screenshot({ path: join(shotsDir, `${name}-${page.size}.png`), fullPage: true });
}

/** Asserts the page is no wider than its viewport (no long line widens it). */
export async function assertNoSideScroll(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
  assert.ok(scroll <= width, `the page is ${scroll} px wide in a ${width} px viewport`);
}

/** Checks a view: axe, a screenshot, and no side scroll on a phone. */
export async function checkView(page, name) {
  await assertAccessible(page, name);
  await screenshot(page, name);
  if (page.size === "phone") await assertNoSideScroll(page);
}

/** Asserts secret is neither in the page's text nor in its markup (a typed value is a property, not markup). */
export async function assertNotInPage(page, secret, when) {
  const { text, html } = await page.evaluate(() => ({ text: document.body.innerText, html: document.documentElement.outerHTML }));
  assert.ok(!text.includes(secret), `the secret is in the page text ${when}`);
  assert.ok(!html.includes(secret), `the secret is in the page's markup ${when}`);
}
