// The playground's MCP panel, driven as a person would at desktop and phone sizes against
// server-everything on loopback (Streamable HTTP and SSE), a CORS-stripping proxy in front of it,
// the SDK v2 dual-era server behind CORS layers that allow the 2026-07-28 headers or only the
// legacy ones, an SDK v2 server with x-mcp-header tools, and the local OAuth world: the full build
// fetched only when the panel opens, the live policy verdict, Connect with the era found or pinned
// and the tools' annotations, calling echo, masked header values, the CORS hint for each era, tools
// left out (x-mcp-header, schemas that do not compile), a pasted .mcp.json, the OAuth popup, an
// elicitation form, and Disconnect.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startPlayground, openPage, closePage, checkView, assertNotInPage } from "./playground-harness.mjs";
import { startEverything, startCorsStripper, startOAuthWorld, startHangingServer, startEraServer, startCorsFront, startHeaderServer, MODERN_HEADERS, LEGACY_HEADERS } from "./mcp-servers.mjs";

// Typed into a header value: it must appear nowhere in the page.
const SECRET = "tg-planted-header-7c41e9";
const FULL = "/npm/toolgate.wasm";
const MODERN = "MCP 2026-07-28 (stateless)";
const LEGACY = "MCP 2025-11-25 (handshake)";
let pg, http, sse, stripped, hanging, dual, modernFront, legacyFront, mirror, mirrorBare;

before(async () => {
  [pg, http, sse, dual] = await Promise.all([startPlayground(), startEverything("streamable-http"), startEverything("sse"), startEraServer("v2-dual")]);
  [stripped, hanging, modernFront, legacyFront, mirror, mirrorBare] = await Promise.all([
    startCorsStripper(http.url),
    startHangingServer(),
    startCorsFront(dual.url, MODERN_HEADERS),
    startCorsFront(dual.url, LEGACY_HEADERS),
    startHeaderServer([...MODERN_HEADERS, "Mcp-Param-Region"]),
    startHeaderServer(MODERN_HEADERS),
  ]);
});

after(async () => {
  await pg?.close();
  await Promise.all([http?.stop(), sse?.stop(), dual?.stop(), ...[stripped, hanging, modernFront, legacyFront, mirror, mirrorBare].map((s) => s?.close())]);
});

/** The era badge(s) of a server in the tools list, as [{text, version}]. */
function eraBadges(page, server) {
  return page.$$eval(`#mcp-tools li[data-server="${server}"] .mcp-era`, (bs) => bs.map((b) => ({ text: b.textContent, version: b.dataset.protocolVersion })));
}

/** The HTTP requests dual (the era server) got from index on, as "POST server/discover", "POST initialize", …. */
const requestsSince = (index) => dual.state.requests.slice(index);

/** Calls tool with args from the call area and resolves to the response text once it completed. */
async function callOk(page, tool, args) {
  await page.selectOption("#mcp-call-tool", tool);
  await page.fill("#mcp-call-args", JSON.stringify(args));
  await page.click("#mcp-invoke");
  await page.waitForSelector("#mcp-call-status");
  assert.equal(await page.textContent("#mcp-call-status"), "completed", await page.textContent("#mcp-call-out"));
  return page.textContent("#mcp-call-response");
}

/** The CORS hint's header lines under root, as {name: value}. */
async function corsRows(page, root) {
  const lines = await page.locator(`${root} .mcp-cors-headers li`).allTextContents();
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(":")), l.slice(l.indexOf(":") + 2)]));
}

/** The warnings beside a server (tools left out), as [{tool, code, rule}]. */
function warnings(page, server) {
  return page.$$eval(`#mcp-tools li[data-server="${server}"] .mcp-warnings li`, (ls) => ls.map((l) => ({ tool: l.dataset.tool, code: l.dataset.code, rule: l.dataset.rule })));
}

/** What onWarning reports for the two tools of startHeaderServer that toolgate leaves out. */
const LEFT_OUT = [{ tool: "broken", code: "invalid-tool", rule: "x-mcp-header" }, { tool: "unreadable", code: "invalid-schema", rule: "" }];

/** A comma-separated header list as its names. */
const names = (list) => list.split(", ");

/**
 * A page at size (openPage; route(p) runs before it loads). It asks for gzip only: these tests need no
 * brotli, and the demo server's brotli at quality 11 of the three .wasm files (about 22 MB) is a
 * minute of CPU, which the other suites running beside this one on a small machine would feel.
 */
function pageAt(size, route = () => {}) {
  return openPage(pg, {
    size,
    route: async (p) => {
      await p.setExtraHTTPHeaders({ "accept-encoding": "gzip" });
      await route(p);
    },
  });
}

/** A page at size whose .wasm requests are recorded in page.wasm from the first one on. */
async function open(size) {
  const wasm = [];
  const page = await pageAt(size, (p) => p.on("request", (r) => r.url().endsWith(".wasm") && wasm.push(new URL(r.url()).pathname)));
  page.wasm = wasm;
  return page;
}

/** Opens the panel and waits for its full build. */
async function openPanel(page) {
  await page.click("#mcp-open");
  await page.waitForFunction(() => /ready in \d+ ms/.test(document.getElementById("mcp-build-status").textContent));
  assert.equal(await page.$eval(".mcp-controls", (f) => f.disabled), false, "the controls are enabled once the build is up");
}

/** Fills the server form: url, name, and the loopback policy unless policy is false. */
async function fillServer(page, { url, name = "ev", transport = "streamable-http", policy = true }) {
  await page.fill("#mcp-url", url);
  await page.fill("#mcp-name", name);
  await page.selectOption("#mcp-transport", transport);
  if (policy) {
    await page.check("#mcp-allow-urls");
    await page.check("#mcp-allow-loopback");
  }
}

/** Connects to server-everything, calls its elicitation tool and resolves to the form the panel shows. */
async function elicitationForm(page) {
  await openPanel(page);
  await fillServer(page, { url: http.url });
  await page.click("#mcp-connect");
  await page.waitForSelector('#mcp-tools li[data-tool="mcp__ev__trigger-elicitation-request"]');
  await page.selectOption("#mcp-call-tool", "mcp__ev__trigger-elicitation-request");
  await page.click("#mcp-invoke");
  const form = page.locator("form.mcp-elicit");
  await form.waitFor();
  return form;
}

/** The verdict's text once it says allowed or refused. */
async function verdict(page) {
  await page.waitForFunction(() => document.getElementById("mcp-verdict").dataset.allowed !== "");
  return (await page.textContent("#mcp-verdict")).trim();
}

/** Asserts SECRET is neither in the page's text nor in its markup. */
const assertSecretNowhere = (page, when) => assertNotInPage(page, SECRET, when);

/** Checks the view: axe, a screenshot, no side scroll on a phone. */
const view = checkView;

for (const size of ["desktop", "phone"]) {
  test(`${size}: the full build is fetched only when the MCP panel opens, and the policy verdict follows what you type`, async () => {
    const page = await open(size);
    try {
      assert.equal(await page.$eval("#mcp-details", (d) => d.open), false, "collapsed by default");
      assert.ok(!page.wasm.includes(FULL), `toolgate.wasm was fetched before the panel opened: ${page.wasm}`);
      await view(page, "mcp-closed");
      await openPanel(page);
      assert.deepEqual(page.wasm.filter((p) => p === FULL), [FULL], "opening the panel fetches the full build once");
      assert.match(await page.textContent("#mcp-build-status"), /^toolgate \S+ full build ready in \d+ ms\.$/);
      await page.fill("#mcp-url", http.url);
      assert.match(await verdict(page), /^Refused by rule allow-urls: .*allowUrls is false/, "fail-closed by default");
      await page.check("#mcp-allow-urls");
      assert.match(await verdict(page), /^Refused by rule scheme: /, "http is refused without allowLoopbackHttp");
      await page.check("#mcp-allow-loopback");
      assert.match(await verdict(page), /^Allowed by this policy/);
      assert.match(await page.textContent("#mcp-security"), /"allowUrls":true,"allowLoopbackHttp":true/);
      await page.fill("#mcp-url", "http://169.254.169.254/latest/meta-data");
      assert.match(await verdict(page), /^Refused by rule ip-forbidden: .*metadata/);
      await page.fill("#mcp-allowlist", "mcp.example.com");
      await page.fill("#mcp-url", http.url);
      assert.match(await verdict(page), /^Refused by rule ip-literal: .*not in urlAllowlist/, "an allowlist without the loopback address refuses it");
      await page.fill("#mcp-allowlist", `mcp.example.com, 127.0.0.1:${http.port}`);
      assert.match(await verdict(page), /^Allowed by this policy/, "listed with its port, it is allowed");
      assert.match(await page.textContent("#mcp-security"), /"urlAllowlist":\["mcp.example.com","127.0.0.1:\d+"\]/);
      await view(page, "mcp-policy");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });

  test(`${size}: a failed download of the full build is shown in the panel with its cause, and Retry loads it`, async () => {
    let broken = true;
    let requests = 0;
    const page = await pageAt(size, (p) => p.route(`**${FULL}`, (r) => {
      requests++;
      return broken ? r.fulfill({ status: 404, body: "not found" }) : r.continue();
    }));
    try {
      await page.click("#mcp-open");
      await page.waitForFunction(() => document.querySelector(".mcp-build").dataset.state === "failed");
      assert.match(await page.textContent("#mcp-build-status"), /^Could not load the full build: the server answered HTTP 404 .*toolgate\.wasm$/);
      assert.equal(requests, 1);
      assert.equal(await page.evaluate(() => document.activeElement?.id), "mcp-build-retry", "focus moves to Retry");
      assert.equal(await page.$eval(".mcp-controls", (f) => f.disabled), true, "the controls wait for the build");
      assert.equal(await page.$eval("#controls", (f) => f.disabled), false, "the rest of the page is unaffected");
      await view(page, "mcp-build-failed");
      broken = false;
      await page.click("#mcp-build-retry");
      await page.waitForFunction(() => /ready in \d+ ms/.test(document.getElementById("mcp-build-status").textContent));
      assert.equal(requests, 2, "Retry fetches it again, once");
      assert.equal(await page.$eval(".mcp-controls", (f) => f.disabled), false);
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });

  test(`${size}: Connect lists server-everything's tools with their annotations, echo answers, the header stays masked, Disconnect clears`, async () => {
    const page = await open(size);
    try {
      await openPanel(page);
      await fillServer(page, { url: http.url });
      await page.click("#mcp-add-header");
      await page.fill(".mcp-header-name", "X-Api-Key");
      await page.fill(".mcp-header-value", SECRET);
      assert.equal(await page.getAttribute(".mcp-header-value", "type"), "password", "the value is masked");
      await page.click(".mcp-code summary");
      const code = await page.textContent("#mcp-code");
      assert.match(code, /registerMcpServer\(\{"name":"ev","url":"http:\/\/127\.0\.0\.1:\d+\/mcp","headers":\{"X-Api-Key":"<value>"\}\}, \{ security: \{"allowUrls":true,"allowLoopbackHttp":true\} \}\)/);
      await page.click("#mcp-connect");
      await page.waitForSelector('#mcp-tools li[data-tool="mcp__ev__echo"]');
      assert.match(await page.textContent("#mcp-conn"), /^Connected to "ev" \(\d+ tools\)/);
      assert.deepEqual(await eraBadges(page, "ev"), [{ text: LEGACY, version: "2025-11-25" }], "server-everything (SDK v1) is of the legacy era");
      const echo = page.locator('li[data-tool="mcp__ev__echo"]');
      assert.match(await echo.textContent(), /Echoes back the input string/);
      assert.deepEqual(await echo.locator(".badge").allTextContents(), ["read-only", "not destructive", "idempotent", "closed world"]);
      await echo.locator(".mcp-schema summary").click();
      assert.match(await echo.locator(".mcp-schema pre").textContent(), /"message"/);
      await assertSecretNowhere(page, "after connecting");
      await view(page, "mcp-connected");
      await echo.getByRole("button", { name: "Call mcp__ev__echo" }).click();
      assert.equal(await page.inputValue("#mcp-call-tool"), "mcp__ev__echo");
      assert.deepEqual(JSON.parse(await page.inputValue("#mcp-call-args")), { message: "" }, "prefilled from the schema");
      await page.fill("#mcp-call-args", "{}");
      await page.click("#mcp-invoke");
      await page.waitForSelector("#mcp-call-out .mcp-failure");
      assert.match(await page.textContent("#mcp-call-out"), /mcp__ev__echo was not called: invalid-arguments: .*required/, "toolgate checks the arguments before sending");
      const words = `hello from the ${size} playground`;
      await page.fill("#mcp-call-args", JSON.stringify({ message: words }));
      await page.click("#mcp-invoke");
      await page.waitForSelector("#mcp-call-status");
      assert.equal(await page.textContent("#mcp-call-status"), "completed");
      assert.equal(await page.textContent("#mcp-call-response"), `Echo: ${words}`);
      await assertSecretNowhere(page, "after a call");
      await view(page, "mcp-call");
      await page.click("#mcp-disconnect");
      await page.waitForFunction(() => document.getElementById("mcp-conn").textContent.startsWith("Not connected."));
      assert.equal(await page.locator("#mcp-tools li").count(), 0, "the tool list is cleared");
      assert.equal(await page.isHidden(".mcp-call"), true, "nothing left to call");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });

  test(`${size}: a policy refusal names its rule, and a server without CORS headers gets the CORS hint with the headers to send`, async () => {
    const page = await open(size);
    try {
      await openPanel(page);
      await fillServer(page, { url: stripped.url, policy: false });
      await page.click("#mcp-add-header");
      await page.fill(".mcp-header-name", "Authorization");
      await page.fill(".mcp-header-value", `Bearer ${SECRET}`);
      await page.click("#mcp-connect");
      await page.waitForSelector("#mcp-notice .mcp-failure");
      assert.match(await page.textContent("#mcp-notice"), /policy-denied: .*The policy refused it by rule allow-urls/);
      await page.check("#mcp-allow-urls");
      await page.check("#mcp-allow-loopback");
      await page.click("#mcp-connect");
      await page.waitForSelector("#mcp-cors-hint");
      const hint = await page.textContent("#mcp-notice");
      assert.match(hint, /Could not connect to "ev": transport: .*Failed to fetch/);
      assert.match(hint, /CORS/);
      // the era was to be found: the headers of both, and the form's own header (Authorization)
      const rows = await corsRows(page, "#mcp-notice");
      assert.deepEqual(Object.keys(rows), ["Access-Control-Allow-Origin", "Access-Control-Allow-Methods", "Access-Control-Allow-Headers", "Access-Control-Expose-Headers"]);
      assert.equal(rows["Access-Control-Allow-Origin"], pg.base, "this page's origin");
      assert.equal(rows["Access-Control-Allow-Methods"], "GET, POST, DELETE, OPTIONS");
      assert.deepEqual(names(rows["Access-Control-Allow-Headers"]), [...MODERN_HEADERS, "Mcp-Session-Id", "Last-Event-ID"]);
      assert.equal(rows["Access-Control-Expose-Headers"], "Mcp-Session-Id");
      assert.equal(await page.getAttribute("#mcp-cors-hint", "data-era"), "");
      assert.match(await page.textContent("#mcp-conn"), /^Not connected\./);
      await assertSecretNowhere(page, "after the failure");
      await view(page, "mcp-cors");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });

  test(`${size}: Cancel stops a connect that hangs and a call that runs (its progress shown)`, async () => {
    const page = await open(size);
    try {
      await openPanel(page);
      await fillServer(page, { url: hanging.url, name: "slow" });
      await page.click("#mcp-connect");
      await page.waitForFunction(() => /Connecting to "slow"/.test(document.getElementById("mcp-conn").textContent));
      assert.equal(await page.isDisabled("#mcp-connect"), true, "one connect at a time");
      await view(page, "mcp-connecting");
      await page.click("#mcp-cancel");
      await page.waitForFunction(() => /^Not connected\. Stopped connecting to "slow"\./.test(document.getElementById("mcp-conn").textContent));
      assert.equal(await page.isHidden("#mcp-cancel"), true);
      await fillServer(page, { url: http.url, policy: false });
      await page.click("#mcp-connect");
      await page.waitForSelector('#mcp-tools li[data-tool="mcp__ev__echo"]');
      // a call that reports progress, cancelled while it runs
      await page.selectOption("#mcp-call-tool", "mcp__ev__trigger-long-running-operation");
      await page.fill("#mcp-call-args", JSON.stringify({ duration: 30, steps: 30 }));
      await page.click("#mcp-invoke");
      await page.waitForSelector("#mcp-call-progress li");
      assert.match(await page.textContent("#mcp-call-progress li"), /^1 of 30/);
      assert.match(await page.textContent("#mcp-call-out"), /Calling mcp__ev__trigger-long-running-operation…/);
      await view(page, "mcp-call-running");
      await page.click("#mcp-call-cancel");
      await page.waitForSelector("#mcp-call-status");
      assert.equal(await page.textContent("#mcp-call-status"), "cancelled");
      assert.equal(await page.isEnabled("#mcp-invoke"), true);
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });

  test(`${size}: a pasted .mcp.json connects its Streamable HTTP and SSE servers and shows each failed server's error in place`, async () => {
    const page = await open(size);
    try {
      await openPanel(page);
      await page.check("#mcp-allow-urls");
      await page.check("#mcp-allow-loopback");
      const config = { mcpServers: { streamed: { url: http.url }, legacy: { type: "sse", url: sse.url }, local: { command: "npx", args: ["server"] }, nocors: { url: stripped.url }, mirror: { url: mirror.url } } };
      await page.fill("#mcp-config", JSON.stringify(config, null, 2));
      await page.click("#mcp-config-load");
      await page.waitForSelector('#mcp-tools li[data-server="nocors"] .mcp-failure');
      assert.match(await page.textContent('#mcp-tools li[data-tool="mcp__streamed__echo"]'), /Echoes back/);
      assert.match(await page.textContent('#mcp-tools li[data-tool="mcp__legacy__echo"]'), /Echoes back/);
      assert.match(await page.textContent('#mcp-tools li[data-server="local"]'), /unsupported: .*no processes/);
      assert.match(await page.textContent('#mcp-tools li[data-server="nocors"]'), /Failed to fetch.*CORS/s);
      // the tools left out (x-mcp-header, a schema that does not compile) are warnings beside their
      // server, which is connected
      await page.waitForSelector('#mcp-tools li[data-tool="mcp__mirror__lookup"]');
      assert.deepEqual(await warnings(page, "mirror"), LEFT_OUT);
      assert.equal(await page.locator('#mcp-tools li[data-server="mirror"] .mcp-failure').count(), 0);
      assert.deepEqual(await eraBadges(page, "mirror"), [{ text: MODERN, version: "2026-07-28" }]);
      assert.deepEqual(await eraBadges(page, "legacy"), [{ text: LEGACY, version: "2025-11-25" }]);
      assert.match(await page.textContent("#mcp-conn"), /^Connected to "streamed" \(\d+ tools\), "legacy" \(\d+ tools\), "mirror" \(2 tools\)\..*2 not connected \(local, nocors\)/);
      await view(page, "mcp-config");
      await page.selectOption("#mcp-call-tool", "mcp__legacy__echo");
      await page.fill("#mcp-call-args", '{"message":"over sse"}');
      await page.click("#mcp-invoke");
      await page.waitForSelector("#mcp-call-response");
      assert.equal(await page.textContent("#mcp-call-response"), "Echo: over sse");
      await page.click("#mcp-disconnect");
      await page.waitForFunction(() => document.getElementById("mcp-conn").textContent.startsWith("Not connected."));
      assert.equal(await page.locator("#mcp-tools li").count(), 0);
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });

  test(`${size}: the server's elicitation request shows as a form, and the answer reaches the tool`, async () => {
    const page = await open(size);
    try {
      const form = await elicitationForm(page);
      assert.match(await form.textContent(), /Please provide inputs/);
      await form.getByLabel("String (name), required", { exact: true }).fill("Ada Lovelace");
      await view(page, "mcp-elicitation");
      await form.getByRole("button", { name: "Accept" }).click();
      await page.waitForSelector("#mcp-call-response");
      assert.equal(await page.textContent("#mcp-call-status"), "completed");
      assert.match(await page.textContent("#mcp-call-response"), /Ada Lovelace/);
      assert.equal(await form.count(), 0, "the form goes away once answered");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}

for (const size of ["desktop", "phone"]) {
  test(`${size}: with no pin, the SDK v2 dual-era server (its CORS allowing the new headers) is found to speak 2026-07-28, the panel says so, and echo answers`, async () => {
    const page = await open(size);
    try {
      await openPanel(page);
      await fillServer(page, { url: modernFront.url, name: "v2" });
      const from = dual.state.requests.length;
      await page.click("#mcp-connect");
      await page.waitForSelector('#mcp-tools li[data-tool="mcp__v2__echo"]');
      assert.deepEqual(await eraBadges(page, "v2"), [{ text: MODERN, version: "2026-07-28" }]);
      assert.match(await page.textContent("#mcp-conn"), /^Connected to "v2" \(\d+ tools\)\. "v2": \d+ tools in \d+ ms over MCP 2026-07-28 \(stateless\)\.$/);
      const seen = requestsSince(from);
      assert.equal(seen[0], "POST server/discover", `the first request is the probe: ${seen}`);
      assert.ok(!seen.includes("POST initialize"), `no handshake on the stateless revision: ${seen}`);
      assert.equal(await callOk(page, "mcp__v2__echo", { text: `modern from the ${size} playground` }), `modern from the ${size} playground`);
      await view(page, "mcp-modern");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });

  test(`${size}: tools whose x-mcp-header is invalid or whose schema does not compile are left out with a warning beside their server, and lookup's Mcp-Param-Region goes through`, async () => {
    const page = await open(size);
    try {
      await openPanel(page);
      await fillServer(page, { url: mirror.url, name: "hx" });
      await page.click("#mcp-connect");
      await page.waitForSelector('#mcp-tools li[data-tool="mcp__hx__lookup"]');
      assert.deepEqual(await eraBadges(page, "hx"), [{ text: MODERN, version: "2026-07-28" }]);
      assert.deepEqual(await warnings(page, "hx"), LEFT_OUT, "onWarning's tools, beside their server");
      assert.deepEqual(await page.$$eval('#mcp-tools li[data-server="hx"] .mcp-tool', (ls) => ls.map((l) => l.dataset.tool)), ["mcp__hx__echo", "mcp__hx__lookup"], "broken is not offered");
      assert.deepEqual(await page.$$eval("#mcp-call-tool option", (os) => os.map((o) => o.value)), ["mcp__hx__echo", "mcp__hx__lookup"]);
      assert.match(await page.textContent("#mcp-conn"), /"hx": 2 tools in \d+ ms over MCP 2026-07-28 \(stateless\); 2 left out\.$/);
      assert.equal(await callOk(page, "mcp__hx__lookup", { region: "eu-west1", query: "maps" }), "maps in eu-west1");
      await view(page, "mcp-x-mcp-header");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}

test("desktop: pinned to 2025-11-25, server-everything connects as before and the panel says so; the pin is in the code, and SSE offers no 2026-07-28 pin", async () => {
  const page = await open("desktop");
  try {
    await openPanel(page);
    await fillServer(page, { url: http.url });
    assert.deepEqual(await page.$$eval("#mcp-protocol option", (os) => os.map((o) => [o.value, o.textContent])), [["", "find it (default)"], ["2026-07-28", "2026-07-28"], ["2025-11-25", "2025-11-25"]]);
    await page.selectOption("#mcp-protocol", "2026-07-28");
    await page.selectOption("#mcp-transport", "sse");
    assert.equal(await page.inputValue("#mcp-protocol"), "", "SSE is legacy: a 2026-07-28 pin goes back to finding the era");
    assert.equal(await page.$eval('#mcp-protocol option[value="2026-07-28"]', (o) => o.disabled), true);
    await page.selectOption("#mcp-transport", "streamable-http");
    assert.equal(await page.$eval('#mcp-protocol option[value="2026-07-28"]', (o) => o.disabled), false);
    await page.selectOption("#mcp-protocol", "2025-11-25");
    await page.click(".mcp-code summary");
    assert.match(await page.textContent("#mcp-code"), /registerMcpServer\(\{"name":"ev","url":"http:\/\/127\.0\.0\.1:\d+\/mcp","protocolVersion":"2025-11-25"\}, /);
    await page.click("#mcp-connect");
    await page.waitForSelector('#mcp-tools li[data-tool="mcp__ev__echo"]');
    assert.deepEqual(await eraBadges(page, "ev"), [{ text: LEGACY, version: "2025-11-25" }]);
    assert.match(await page.textContent("#mcp-conn"), /over MCP 2025-11-25 \(handshake\)\.$/);
    assert.equal(await callOk(page, "mcp__ev__echo", { message: "pinned" }), "Echo: pinned");
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});

test("desktop: the SDK v2 dual-era server behind CORS that allows only the legacy headers still connects (the refused probe counts as legacy); pinned to 2026-07-28 it fails with the modern CORS hint", async () => {
  const page = await open("desktop");
  try {
    await openPanel(page);
    await fillServer(page, { url: legacyFront.url, name: "old" });
    const from = dual.state.requests.length;
    await page.click("#mcp-connect");
    await page.waitForSelector('#mcp-tools li[data-tool="mcp__old__echo"]');
    assert.deepEqual(await eraBadges(page, "old"), [{ text: LEGACY, version: "2025-11-25" }]);
    const seen = requestsSince(from);
    assert.ok(!seen.includes("POST server/discover"), `the probe never got past the preflight: ${seen}`);
    assert.equal(seen[0], "POST initialize", `the handshake is the first request to arrive: ${seen}`);
    assert.equal(await callOk(page, "mcp__old__echo", { text: "through the legacy door" }), "through the legacy door");
    assert.equal(await page.locator("#mcp-notice .verdict").count(), 0, "nothing to warn about");
    // the same server pinned to the stateless revision: every request carries the headers the preflight refuses
    await fillServer(page, { url: legacyFront.url, name: "pinned", policy: false });
    await page.selectOption("#mcp-protocol", "2026-07-28");
    await page.click("#mcp-connect");
    await page.waitForSelector("#mcp-notice #mcp-cors-hint");
    assert.equal(await page.getAttribute("#mcp-notice #mcp-cors-hint", "data-era"), "modern");
    const rows = await corsRows(page, "#mcp-notice");
    assert.deepEqual(names(rows["Access-Control-Allow-Headers"]), MODERN_HEADERS);
    assert.equal(rows["Access-Control-Allow-Methods"], "POST, OPTIONS");
    assert.ok(!("Access-Control-Expose-Headers" in rows), "no session id to read on the stateless revision");
    assert.ok(await page.isVisible('#mcp-tools li[data-tool="mcp__old__echo"]'), "the connected server stays");
    await view(page, "mcp-cors-modern");
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});

test("desktop: a call whose Mcp-Param-Region the server's CORS does not allow is refused by the browser, and the CORS hint names that header", async () => {
  const page = await open("desktop");
  try {
    await openPanel(page);
    await fillServer(page, { url: mirrorBare.url, name: "hn" });
    await page.click("#mcp-connect");
    await page.waitForSelector('#mcp-tools li[data-tool="mcp__hn__lookup"]');
    assert.equal(await callOk(page, "mcp__hn__echo", { text: "no header needed" }), "no header needed");
    await page.selectOption("#mcp-call-tool", "mcp__hn__lookup");
    await page.fill("#mcp-call-args", JSON.stringify({ region: "eu-west1", query: "maps" }));
    await page.click("#mcp-invoke");
    await page.waitForSelector("#mcp-call-out #mcp-cors-hint");
    assert.equal(await page.textContent("#mcp-call-status"), "failed", "a transport failure of a call is its outcome");
    assert.equal(await page.getAttribute("#mcp-call-out #mcp-cors-hint", "data-era"), "modern");
    const rows = await corsRows(page, "#mcp-call-out");
    assert.deepEqual(names(rows["Access-Control-Allow-Headers"]), [...MODERN_HEADERS, "Mcp-Param-Region"]);
    await view(page, "mcp-cors-param");
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});

test("phone: SSE chosen in the form connects to an SSE server and its echo answers", async () => {
  const page = await open("phone");
  try {
    await openPanel(page);
    await fillServer(page, { url: sse.url, name: "ev", transport: "sse" });
    await page.click("#mcp-connect");
    await page.waitForSelector('#mcp-tools li[data-tool="mcp__ev__echo"]');
    assert.deepEqual(await eraBadges(page, "ev"), [{ text: LEGACY, version: "2025-11-25" }], "SSE is legacy");
    await page.locator('li[data-tool="mcp__ev__echo"]').getByRole("button", { name: "Call mcp__ev__echo" }).click();
    await page.fill("#mcp-call-args", JSON.stringify({ message: "chosen sse" }));
    await page.click("#mcp-invoke");
    await page.waitForSelector("#mcp-call-status");
    assert.equal(await page.textContent("#mcp-call-response"), "Echo: chosen sse");
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});

for (const answer of ["Decline", "Cancel"]) {
  test(`desktop: an elicitation answered "${answer}" reaches the tool as ${answer.toLowerCase()}, with no values sent`, async () => {
    const page = await open("desktop");
    try {
      const form = await elicitationForm(page);
      await form.getByLabel("String (name), required", { exact: true }).fill("typed, then withdrawn");
      await form.getByRole("button", { name: answer, exact: true }).click();
      await page.waitForSelector("#mcp-call-response");
      const response = await page.textContent("#mcp-call-response");
      assert.match(response, new RegExp(answer === "Decline" ? "declin" : "cancel", "i"));
      assert.doesNotMatch(response, /typed, then withdrawn/, "nothing typed in the form is sent");
      assert.equal(await form.count(), 0);
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}

// Blocked: window.open refuses the first window (as a browser does outside a click), so the panel
// offers a button that opens it on the user's click.
const OAUTH = [
  { size: "desktop", blocked: false },
  { size: "phone", blocked: false },
  { size: "desktop", blocked: true },
  { size: "phone", blocked: true },
];

for (const { size, blocked } of OAUTH) {
  test(`${size}: an OAuth server's sign-in opens in a popup${blocked ? " (from a button when the browser blocks it)" : ""}, the callback page hands the code back, and the tools are called with the token`, async () => {
    const world = await startOAuthWorld();
    const page = await pageAt(size, (p) => blocked && p.addInitScript(() => {
      const open = window.open;
      let first = true;
      window.open = function (...args) {
        if (first) {
          first = false;
          return null;
        }
        return open.apply(this, args);
      };
    }));
    try {
      await openPanel(page);
      await fillServer(page, { url: world.url, name: "docs" });
      await page.check("#mcp-oauth");
      let popup = blocked ? null : page.waitForEvent("popup");
      await page.click("#mcp-connect");
      if (blocked) {
        const button = page.getByRole("button", { name: "Open the sign-in window" });
        await button.waitFor();
        assert.match(await page.textContent("#mcp-notice"), /The browser blocked the sign-in window/);
        await view(page, "mcp-oauth-blocked");
        popup = page.waitForEvent("popup");
        await button.click();
      }
      const win = await popup;
      const closed = win.isClosed() ? Promise.resolve() : win.waitForEvent("close"); // it may have closed already
      await page.waitForSelector('#mcp-tools li[data-tool="mcp__docs__read"]');
      await closed; // the sign-in window does not stay open
      assert.equal(world.state.authorizations.length, 1, "one authorization");
      assert.match(await page.textContent("#mcp-conn"), /^Connected to "docs" \(2 tools\)/);
      assert.equal(await page.locator("#mcp-notice .verdict").count(), 0, "no notice is left");
      await page.selectOption("#mcp-call-tool", "mcp__docs__read");
      await page.click("#mcp-invoke");
      await page.waitForSelector("#mcp-call-response");
      assert.equal(await page.textContent("#mcp-call-response"), "read done");
      assert.ok(world.state.mcpAuthorizations.some((h) => /^Bearer at-/.test(h)), "the call carried the token");
      const html = await page.content();
      assert.ok(!html.includes("tgoauthplanted"), "no code or token in the page");
      if (!blocked) await view(page, "mcp-oauth");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
      await world.close();
    }
  });
}
