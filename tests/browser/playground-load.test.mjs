// The playground's load states: progress while the core build downloads, a stalled download given
// up with a message, each way a load fails shown with its cause and Retry, and the file fetched once
// per attempt. Driven through request interception and Chromium's network throttling.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startPlayground, openPage, closePage, assertAccessible, screenshot, assertNoSideScroll } from "./playground-harness.mjs";

const CORE = "**/npm/toolgate-core.wasm";
let pg;

before(async () => {
  pg = await startPlayground();
});

after(async () => {
  await pg?.close();
});

/** Records every text #status shows, from the first paint on. */
async function recordStatus(page) {
  await page.addInitScript(() => {
    window.__statuses = [];
    document.addEventListener("DOMContentLoaded", () => {
      const s = document.getElementById("status");
      window.__statuses.push(s.textContent);
      new MutationObserver(() => window.__statuses.push(s.textContent)).observe(s, { childList: true, characterData: true, subtree: true });
    });
  });
}

const failures = [
  { name: "an HTTP 404", route: (r) => r.fulfill({ status: 404, body: "not found" }), says: /^Could not load toolgate: the server answered HTTP 404 .*for toolgate-core\.wasm$/ },
  { name: "a connection reset", route: (r) => r.abort("connectionreset"), says: /^Could not load toolgate: the connection failed while requesting toolgate-core\.wasm: .*Is the server still running\?$/ },
  { name: "corrupt bytes", route: (r) => r.fulfill({ status: 200, contentType: "application/wasm", body: Buffer.from("\0asm\x01\0\0\0garbage that is not a module") }), says: /^Could not load toolgate: toolgate-core\.wasm arrived \(\d+ B\) but is not a valid WebAssembly module: / },
];

for (const size of ["desktop", "phone"]) {
  for (const f of failures) {
    test(`${size}: ${f.name} while loading is shown with its cause and Retry, fetched once, and Retry then loads`, async () => {
      let requests = 0;
      let broken = true;
      const page = await openPage(pg, {
        size,
        wait: false,
        route: (p) => p.route(CORE, (r) => {
          requests++;
          return broken ? f.route(r) : r.continue();
        }),
      });
      try {
        await page.waitForFunction(() => document.body.dataset.state === "failed");
        assert.match(await page.textContent("#status"), f.says);
        assert.equal(requests, 1, "one request per attempt");
        assert.equal(await page.isVisible("#retry"), true);
        assert.equal(await page.evaluate(() => document.activeElement?.id), "retry", "focus moves to Retry");
        assert.equal(await page.$eval("#controls", (c) => c.disabled), true, "the controls stay disabled");
        await assertAccessible(page, `failed load (${f.name})`);
        if (f === failures[0]) {
          await screenshot(page, "load-failed");
          if (size === "phone") await assertNoSideScroll(page);
        }
        broken = false;
        await page.click("#retry");
        await page.waitForFunction(() => document.body.dataset.state === "ready");
        assert.equal(requests, 2);
        assert.equal(await page.isVisible("#retry"), false);
        assert.equal(await page.$eval("#controls", (c) => c.disabled), false);
        assert.deepEqual(page.errors, []);
      } finally {
        await closePage(page);
      }
    });
  }
}

test("a download that stalls is given up with a message and Retry, and nothing can be clicked meanwhile", async () => {
  const page = await openPage(pg, {
    wait: false,
    route: async (p) => {
      await p.clock.install();
      await p.route(CORE, () => {}); // never answered
    },
  });
  try {
    await page.waitForFunction(() => /^Downloading toolgate/.test(document.getElementById("status").textContent));
    assert.equal(await page.$eval("#controls", (c) => c.disabled), true);
    assert.equal(await page.$eval("#workbench", (m) => m.getAttribute("aria-busy")), "true");
    await page.clock.fastForward(25000);
    await page.waitForFunction(() => document.body.dataset.state === "failed");
    assert.match(await page.textContent("#status"), /^Could not load toolgate: toolgate-core\.wasm: nothing arrived for 20 s; the connection looks stalled$/);
    assert.equal(await page.isVisible("#retry"), true);
  } finally {
    await closePage(page);
  }
});

test("a slow download shows bytes and percent as it arrives, then how long the start took", async () => {
  const page = await openPage(pg, {
    wait: false,
    route: async (p) => {
      await recordStatus(p);
      const cdp = await p.context().newCDPSession(p);
      await cdp.send("Network.enable");
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 40, downloadThroughput: 400 * 1024, uploadThroughput: 400 * 1024 });
    },
  });
  try {
    await page.waitForFunction(() => document.body.dataset.state === "ready");
    const statuses = await page.evaluate(() => window.__statuses);
    const percents = statuses.map((s) => s.match(/^Downloading toolgate: [\d.]+ [kM]?B of [\d.]+ MB \((\d+)%\)$/)).filter(Boolean).map((m) => Number(m[1]));
    assert.ok(percents.some((p) => p > 0 && p < 100), `a percent between 0 and 100 was shown: ${statuses.join(" | ")}`);
    assert.deepEqual(percents, [...percents].sort((a, b) => a - b), "progress only grows");
    assert.match(statuses.at(-1), /^toolgate \S+ \(core build\) is ready in \d+ ms \(download and start: \d+ ms\)\.$/);
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});
