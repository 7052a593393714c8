// The playground's shell: permalinks (a link reproduces the view, and its code never runs before the
// person agrees), the phone layout (one column, 44 px targets, nothing wider than the screen) and
// the landmarks every view sits in.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startPlayground, openPage, closePage, copiedBy, assertAccessible, screenshot, assertNoSideScroll } from "./playground-harness.mjs";

let pg;

before(async () => {
  pg = await startPlayground();
});

after(async () => {
  await pg?.close();
});

const PAY = {
  kind: "schema",
  name: "pay",
  description: "Pay someone.",
  parameters: JSON.stringify({ type: "object", properties: { amount: { type: "integer", minimum: 1 }, to: { type: "string" } }, required: ["amount", "to"], additionalProperties: false }),
  handler: "(window.__ran = true, async ({ amount, to }) => `paid ${amount} to ${to}`)",
  strict: false,
  coerce: "lax",
};
const CALL = '{"function": "pay", "arguments": {"amount": "5", "to": "ann"}}';

/** Sets the page's tools and call through the store, as the panels do, and waits for the hash to follow. */
async function setView(page, defs, call) {
  await page.evaluate(async ({ defs, call }) => {
    const s = await import("/js/store.js");
    s.setDefs(defs, 0);
    s.setCall(call, "test");
  }, { defs, call });
  // waitForFunction takes a returned promise as a truthy value (it does not await it): the predicate
  // stays synchronous, each poll starting a check whose answer the next poll sees.
  await page.evaluate(() => {
    window.__viewFollowed = false;
  });
  await page.waitForFunction(() => {
    Promise.all([import("/js/permalink.js"), import("/js/store.js")]).then(async ([{ decodeView }, { state }]) => {
      const v = await decodeView(location.hash);
      window.__viewFollowed = Boolean(v && v.call === state.call && JSON.stringify(v.defs) === JSON.stringify(state.defs));
    }, () => {});
    return window.__viewFollowed;
  });
}

/** The visible buttons, selects, text inputs and summaries smaller than 44×44 px. */
const smallTargets = (page) => page.evaluate(() => [...document.querySelectorAll("button, select, input:not([type=checkbox]):not([type=radio]), summary")]
  .filter((e) => e.offsetParent !== null)
  .map((e) => ({ what: e.id || e.textContent.trim().slice(0, 30), h: e.getBoundingClientRect().height, w: e.getBoundingClientRect().width }))
  .filter((t) => t.h < 44 || t.w < 44));

const viewOf = (page) => page.evaluate(async () => {
  const { state } = await import("/js/store.js");
  return { names: state.built.entries.map((e) => e.name), call: state.call, ran: Boolean(window.__ran) };
});

for (const size of ["desktop", "phone"]) {
  test(`${size}: a permalink reproduces the tools and the call, and its code runs only after "Load"`, async () => {
    const page = await openPage(pg, { size });
    let other;
    try {
      // the handler's source is an expression that sets window.__ran when evaluated: it is ours here, so it runs
      await setView(page, [PAY], CALL);
      const link = await copiedBy(page, page.locator("#copy-link"));
      assert.equal(link, await page.evaluate(() => location.href));
      other = await openPage(pg, { size, path: new URL(link).pathname + new URL(link).hash });
      await other.waitForSelector("#permalink-notice");
      assert.match(await other.textContent("#permalink-notice"), /This link holds 1 tool \(pay\) with JavaScript/);
      assert.equal((await viewOf(other)).ran, false, "nothing from the link ran before Load");
      await assertAccessible(other, "permalink notice");
      await screenshot(other, "permalink-notice");
      if (size === "phone") await assertNoSideScroll(other);
      await other.click("#permalink-load");
      assert.deepEqual(await viewOf(other), { names: ["pay"], call: CALL, ran: true });
      assert.equal(await other.$("#permalink-notice"), null);
      assert.deepEqual(other.errors, []);
      await closePage(other);
      other = await openPage(pg, { size, path: new URL(link).pathname + new URL(link).hash });
      await other.click("#permalink-ignore");
      const kept = await viewOf(other);
      assert.equal(kept.ran, false);
      assert.notDeepEqual(kept.names, ["pay"], "the examples stay");
      assert.equal(await other.evaluate(() => location.hash), "", "the link's view leaves the address bar");
    } finally {
      if (other) await closePage(other);
      await closePage(page);
    }
  });
}

test("a damaged permalink says so and the examples are shown", async () => {
  const page = await openPage(pg, { path: "/#p=AZZZ" });
  try {
    await page.waitForSelector("text=/could not be read/");
    assert.ok((await viewOf(page)).names.length > 0);
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});

test("phone: one column, 44 px targets, a long line wraps instead of widening the page; landmarks and a viewport", async () => {
  const page = await openPage(pg, { size: "phone" });
  try {
    await page.evaluate(async () => (await import("/js/store.js")).setCall(`{"function": "add", "arguments": {"a": "${"x".repeat(3000)}"}}`, "test"));
    await assertNoSideScroll(page);
    const layout = await page.evaluate(() => {
      const box = (id) => document.getElementById(id).getBoundingClientRect();
      return {
        sameColumn: box("tools-panel").left === box("call-panel").left && box("call-panel").top > box("tools-panel").top,
        viewport: document.querySelector('meta[name="viewport"]')?.content,
        landmarks: ["header", "main", "footer"].map((t) => document.querySelectorAll(t).length),
        fontPx: parseFloat(getComputedStyle(document.body).fontSize),
      };
    });
    assert.equal(layout.sameColumn, true, "the tools and the call stack in one column");
    assert.deepEqual(await smallTargets(page), [], "every target is at least 44×44 px");
    assert.match(layout.viewport, /width=device-width/);
    assert.deepEqual(layout.landmarks, [1, 1, 1]);
    assert.ok(layout.fontPx >= 14, `body text is ${layout.fontPx} px`);
    await assertAccessible(page, "the whole page");
    await screenshot(page, "page");
  } finally {
    await closePage(page);
  }
});

for (const size of ["desktop", "phone"]) {
  test(`${size}: the dark theme passes axe too (contrast included), with results, issues and the MCP panel open`, async () => {
    const page = await openPage(pg, { size, colorScheme: "dark" });
    try {
      assert.equal(await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches), true);
      await page.evaluate(async () => (await import("/js/store.js")).setCall('{"function": "add", "arguments": {"a": 1, "zzz": 2}}', "test"));
      await page.click("#validate");
      await page.waitForSelector("#result .verdict.bad");
      const wrapped = await page.evaluate(() => [...document.querySelectorAll("th")].filter((th) => th.offsetWidth > 1).filter((th) => {
        const r = document.createRange();
        r.selectNodeContents(th);
        return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size > 1;
      }).map((th) => th.textContent));
      assert.deepEqual(wrapped, [], "no table heading breaks inside its word");
      await page.click("#mcp-panel summary");
      await page.waitForFunction(() => /full build ready/.test(document.getElementById("mcp-panel").textContent));
      if (size === "phone") assert.deepEqual(await smallTargets(page), [], "every target, the MCP panel's too, is at least 44×44 px");
      await assertAccessible(page, "the dark theme");
      await screenshot(page, "dark");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}
