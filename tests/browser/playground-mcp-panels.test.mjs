// The playground's MCP tools outside the MCP panel, and the panel's rough edges, driven against
// server-everything on loopback: after Connect its tools are in the tools list (server, era, task),
// in every provider tab, and call targets of the call panel (validated and invoked on the full
// build's branch); the traffic view with its messages, a notification and an image, secrets masked;
// the connect timeout; a cancelled call in plain words; "As code" calling the chosen tool; the
// task-only tool called to its end.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startPlayground, openPage, closePage, assertAccessible, screenshot, assertNoSideScroll } from "./playground-harness.mjs";
import { startEverything, startHangingServer } from "./mcp-servers.mjs";

const SECRET = "tg-planted-traffic-51d0aa";
const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];
let pg, http, hanging;

before(async () => {
  [pg, http, hanging] = await Promise.all([startPlayground(), startEverything("streamable-http"), startHangingServer()]);
});

after(async () => {
  await pg?.close();
  await Promise.all([http?.stop(), hanging?.close()]);
});

/** A page at size, asking for gzip only (see playground-mcp.test.mjs). */
function pageAt(size) {
  return openPage(pg, { size, route: (p) => p.setExtraHTTPHeaders({ "accept-encoding": "gzip" }) });
}

/** Opens the MCP panel, waits for the full build, fills the loopback policy and the server. */
async function fillServer(page, { url, name = "ev", header = false }) {
  await page.click("#mcp-open");
  await page.waitForFunction(() => /ready in \d+ ms/.test(document.getElementById("mcp-build-status").textContent));
  await page.fill("#mcp-url", url);
  await page.fill("#mcp-name", name);
  await page.check("#mcp-allow-urls");
  await page.check("#mcp-allow-loopback");
  if (header) {
    await page.click("#mcp-add-header");
    await page.fill(".mcp-header-name", "X-Api-Key");
    await page.fill(".mcp-header-value", SECRET);
  }
}

/** Connects server-everything as "ev" (with the planted header when asked) and waits for its echo. */
async function connectEv(page, opts = {}) {
  await fillServer(page, { url: http.url, ...opts });
  await page.click("#mcp-connect");
  await page.waitForSelector('#mcp-tools li[data-tool="mcp__ev__echo"]');
}

/** Puts text in the call box and validates it; resolves to the verdicts as [{ok, fn, code}]. */
async function validateCall(page, text) {
  await page.fill("#call", text);
  await page.click("#validate");
  await page.waitForSelector("#result .verdict[data-ok]");
  return page.$$eval("#result .verdict[data-ok]", (vs) => vs.map((v) => ({ ok: v.dataset.ok === "true", fn: v.dataset.function ?? null, code: v.dataset.code ?? null })));
}

/** Asserts SECRET is neither in the page's text nor in its markup. */
async function assertSecretNowhere(page, when) {
  const { text, html } = await page.evaluate(() => ({ text: document.body.innerText, html: document.documentElement.outerHTML }));
  assert.ok(!text.includes(SECRET), `the header value is in the page text ${when}`);
  assert.ok(!html.includes(SECRET), `the header value is in the page's markup ${when}`);
}

async function view(page, name) {
  await assertAccessible(page, name);
  await screenshot(page, name);
  if (page.size === "phone") await assertNoSideScroll(page);
}

for (const size of ["desktop", "phone"]) {
  test(`${size}: after Connect, server-everything's tools are in the tools list, every provider tab and the call panel, where a model's call to echo is valid and invokes`, async () => {
    const page = await pageAt(size);
    try {
      await connectEv(page);
      const item = page.locator('#mcp-tool-list li[data-mcp-tool="mcp__ev__echo"]');
      await item.waitFor();
      assert.match(await item.textContent(), /MCP tool of server ev/);
      assert.equal(await item.locator(".mcp-era").getAttribute("data-protocol-version"), "2025-11-25");
      assert.equal(await page.getAttribute('#mcp-tool-list li[data-mcp-tool="mcp__ev__simulate-research-query"] .mcp-task', "data-task-support"), "required", "the task tool is marked");
      for (const target of TARGETS) {
        await page.click(`#provider-tab-${target}`);
        const tools = page.locator('.provider-mcp[data-servers="ev"] .mcp-provider-tools');
        await tools.waitFor();
        assert.match(await tools.textContent(), /mcp__ev__echo/, `${target}: the MCP tools are exported`);
      }
      await page.click("#provider-tab-openai-chat");
      await page.check("#provider-option-openai-chat");
      await page.waitForSelector('.provider-mcp .provider-report[id^="mcp-"]');
      // a model's call to echo, as OpenAI Chat sends it: valid on the MCP branch
      const call = { id: "call_ev1", type: "function", function: { name: "mcp__ev__echo", arguments: JSON.stringify({ message: "from the call panel" }) } };
      assert.deepEqual(await validateCall(page, JSON.stringify(call)), [{ ok: true, fn: "mcp__ev__echo", code: null }]);
      assert.match(await page.textContent("#result .covers"), /MCP tool of server "ev"/);
      const wrong = { function: "mcp__ev__echo", arguments: { message: 5 } };
      assert.deepEqual(await validateCall(page, JSON.stringify(wrong)), [{ ok: false, fn: null, code: "invalid-arguments" }], "checked against the server's schema");
      await page.fill("#call", JSON.stringify(call));
      await page.click("#invoke");
      await page.waitForSelector('#result .verdict[data-status="completed"]');
      assert.match(await page.textContent("#result .response"), /Echo: from the call panel/);
      // its samples come from its schema
      await item.locator(".tool-pick").click();
      await page.waitForFunction(() => /Samples for mcp__ev__echo/.test(document.querySelector(".samples").textContent));
      await page.click('[data-sample="anthropic"]');
      assert.deepEqual(await page.$$eval("#result .verdict[data-ok]", (vs) => vs.map((v) => v.dataset.ok)), ["true"]);
      await view(page, "mcp-panels");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}
