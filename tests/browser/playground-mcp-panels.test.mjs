// The playground's MCP tools outside the MCP panel, and the panel's rough edges, driven against
// server-everything on loopback: after Connect its tools are in the tools list (server, era, task),
// in every provider tab, and call targets of the call panel (validated and invoked on the full
// build's branch); the traffic view with its messages, a notification and an image, secrets masked;
// the connect timeout; a cancelled call in plain words; "As code" calling the chosen tool; the
// task-only tool called to its end.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startPlayground, openPage, closePage, checkView, assertNotInPage } from "./playground-harness.mjs";
import { startEverything, startHangingServer } from "./mcp-servers.mjs";

const SECRET = "tg-planted-traffic-51d0aa";
const run = promisify(execFile);
const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];
let pg, http, hanging;

before(async () => {
  [pg, http, hanging] = await Promise.all([startPlayground(), startEverything("streamable-http"), startHangingServer()]);
});

after(async () => {
  await pg?.close();
  await Promise.all([http?.stop(), hanging?.close()]);
});

/** A page at size (in colorScheme), asking for gzip only (see playground-mcp.test.mjs). */
function pageAt(size, colorScheme = "light") {
  return openPage(pg, { size, colorScheme, route: (p) => p.setExtraHTTPHeaders({ "accept-encoding": "gzip" }) });
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
const assertSecretNowhere = (page, when) => assertNotInPage(page, SECRET, when);

/** Checks the view: axe, a screenshot, no side scroll on a phone. */
const view = checkView;

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
      assert.equal(await page.getAttribute("#result-follows", "data-mcp"), "ev", "the verdict says the MCP branch checked it");
      assert.match(await page.textContent("#result-follows"), /MCP server ev were validated on the branch the MCP panel registered them on/);
      const wrong = { function: "mcp__ev__echo", arguments: { message: 5 } };
      assert.deepEqual(await validateCall(page, JSON.stringify(wrong)), [{ ok: false, fn: null, code: "invalid-arguments" }], "checked against the server's schema");
      await page.fill("#call", JSON.stringify(call));
      await page.click("#invoke");
      await page.waitForSelector('#result .verdict[data-status="completed"]');
      assert.match(await page.textContent("#result .response"), /Echo: from the call panel/);
      assert.match(await page.textContent("#result-follows"), /MCP server ev were invoked on the branch/);
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

/** Calls tool with args from the MCP panel's call area; resolves once an outcome is shown. */
async function callTool(page, tool, args) {
  await page.selectOption("#mcp-call-tool", tool);
  await page.fill("#mcp-call-args", JSON.stringify(args));
  await page.click("#mcp-invoke");
}

for (const size of ["desktop", "phone"]) {
  test(`${size}: the traffic view lists the server's messages newest first, its progress notifications and an image, with the planted header masked (${size === "phone" ? "dark" : "light"} theme)`, async () => {
    const page = await pageAt(size, size === "phone" ? "dark" : "light");
    try {
      await connectEv(page, { header: true });
      const group = page.locator('#mcp-traffic li[data-server="ev"]');
      await page.click("#mcp-traffic-view > summary");
      await group.locator('.mcp-traffic-entry[data-kind="request"][data-method="tools/list"]').waitFor();
      await group.locator('.mcp-traffic-entry[data-kind="response"][data-method="tools/list"]').waitFor();
      const request = group.locator('.mcp-traffic-entry[data-kind="request"][data-method="tools/list"]').first();
      await request.locator("summary").click();
      assert.match(await request.textContent(), /X-Api-Key: •••/i, "the header is named, its value masked");
      await callTool(page, "mcp__ev__trigger-long-running-operation", { duration: 1, steps: 2 });
      await group.locator('.mcp-traffic-entry[data-kind="notification"][data-method="notifications/progress"]').first().waitFor();
      await page.waitForSelector("#mcp-call-status");
      const kinds = await group.locator(".mcp-traffic-entry").evaluateAll((es) => es.map((e) => `${e.dataset.kind} ${e.dataset.method}`));
      assert.equal(kinds[0], "response tools/call", `newest first: ${kinds.slice(0, 5)}`);
      await callTool(page, "mcp__ev__get-tiny-image", {});
      const image = group.locator(".mcp-traffic-image").first();
      await image.waitFor({ state: "attached" });
      assert.ok(await image.evaluate((img) => img.decode().then(() => img.naturalWidth > 0)), "the image is shown");
      await assertSecretNowhere(page, "in the traffic view");
      await view(page, "mcp-traffic");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}

test("desktop: a connect to a server that never answers ends at the connect timeout set in the form, and Connect works again", async () => {
  const page = await pageAt("desktop");
  try {
    await fillServer(page, { url: hanging.url, name: "slow" });
    assert.equal(await page.inputValue("#mcp-timeout"), "30", "the default");
    await page.fill("#mcp-timeout", "1");
    await page.click("#mcp-connect");
    await page.waitForSelector('#mcp-notice [data-rule="connect-timeout"]');
    assert.match(await page.textContent("#mcp-notice"), /Could not connect to "slow": no answer within 1 s/);
    assert.doesNotMatch(await page.textContent("#mcp-conn"), /Connecting/);
    assert.equal(await page.isEnabled("#mcp-connect"), true);
    assert.equal(await page.isHidden("#mcp-cancel"), true);
    await page.fill("#mcp-url", http.url);
    await page.fill("#mcp-name", "ev");
    await page.click("#mcp-connect");
    await page.waitForSelector('#mcp-tools li[data-tool="mcp__ev__echo"]');
    assert.equal(await page.locator("#mcp-notice .verdict").count(), 0, "the notice goes with the next connect");
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});

test("desktop: a cancelled call reads plainly; the task-only tool is marked and runs to its end; As code calls the chosen tool and cleans up, and runs in Node", async () => {
  const page = await pageAt("desktop");
  try {
    await connectEv(page);
    await callTool(page, "mcp__ev__trigger-long-running-operation", { duration: 30, steps: 30 });
    await page.waitForSelector("#mcp-call-progress li");
    await page.click("#mcp-call-cancel");
    await page.waitForSelector("#mcp-call-status");
    assert.equal(await page.textContent("#mcp-call-status"), "cancelled");
    const said = await page.textContent("#mcp-call-out");
    assert.match(said, /Cancelled: you stopped the call/);
    assert.doesNotMatch(said, /Error 20|without reason/);
    // the task-only tool: marked, and a call is one call that ends completed
    const research = page.locator('#mcp-tools li[data-tool="mcp__ev__simulate-research-query"]');
    assert.equal(await research.locator(".mcp-task").first().getAttribute("data-task-support"), "required");
    await callTool(page, "mcp__ev__simulate-research-query", { topic: "python" });
    await page.waitForSelector("#mcp-call-status");
    assert.equal(await page.textContent("#mcp-call-status"), "completed", await page.textContent("#mcp-call-out"));
    assert.match(await page.textContent("#mcp-call-response"), /python/i);
    // As code: the chosen tool with the box's arguments, the cleanup in a finally
    await page.selectOption("#mcp-call-tool", "mcp__ev__echo");
    await page.fill("#mcp-call-args", JSON.stringify({ message: "from the snippet" }));
    await page.click(".mcp-code summary");
    const code = await page.textContent("#mcp-code");
    assert.match(code, /b\.invoke\(\{ function: "mcp__ev__echo", arguments: \{"message":"from the snippet"\} \}\)/);
    assert.match(code, /\} finally \{\n\s+await tg\.mcp\.cleanup\(\)/);
    const file = join(process.cwd(), `mcp-snippet-${process.pid}.mjs`);
    writeFileSync(file, code);
    try {
      const { stdout } = await run(process.execPath, [file]);
      assert.equal(stdout.trim(), "completed Echo: from the snippet");
    } finally {
      rmSync(file, { force: true });
    }
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});
