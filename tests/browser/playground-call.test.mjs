// The playground's call panel, form and history, driven as a person would at desktop and phone
// sizes: samples in every provider shape and their verdicts, what each check covers, the README's
// pay example with its issues table pointing into the call, invoke in the worker (record, timeout,
// Cancel of a busy handler, superseded and stale results, a tool that no longer builds), the form
// generated from the schema, history with replay, and the keyboard shortcuts. Tool definitions are
// set through the store module, so these tests do not depend on the tools panel's markup.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startPlayground, openPage, closePage, assertAccessible, screenshot, assertNoSideScroll } from "./playground-harness.mjs";

let pg;
before(async () => {
  pg = await startPlayground();
});
after(async () => {
  await pg?.close();
});

const ADD = { kind: "function", source: "function add(a, b = 2) {\n  /** Add two numbers.\n   *\n   * Args:\n   *   a: first number\n   *   b: second number\n   */\n  return Number(a) + Number(b);\n}", schemaMode: "lionagi", docstringStyle: "google", strictFuncCall: false };
const PAY = {
  kind: "schema", name: "pay", description: "Pay someone.", strict: false, coerce: "lax",
  parameters: JSON.stringify({ type: "object", properties: { amount: { type: "integer", minimum: 1 }, to: { type: "string" } }, required: ["amount", "to"] }),
  handler: "async ({ amount, to }) => `paid ${amount} to ${to}`",
};
const SLOW = { kind: "schema", name: "slow", description: "Never answers in time.", parameters: "{}", handler: "() => new Promise((resolve) => setTimeout(() => resolve('late'), 60000))", timeoutMs: 800, strict: false, coerce: "lax" };
// The busy handler says when it starts (a BroadcastChannel the page listens to), then never yields.
const BUSY = { kind: "schema", name: "busy", description: "Spins.", parameters: "{}", handler: "() => { new BroadcastChannel('tg-test').postMessage('busy started'); for (;;) {} }", strict: false, coerce: "lax" };
// The gate handler answers only when the test releases it.
const GATE = { kind: "schema", name: "gate", description: "Waits to be released.", parameters: "{}", handler: "() => new Promise((resolve) => { const c = new BroadcastChannel('tg-test'); c.onmessage = (e) => { if (e.data === 'release') resolve('released') }; c.postMessage('gate started') })", strict: false, coerce: "lax" };
const EVENT = {
  kind: "schema", name: "create_event", description: "Create a calendar event.", strict: false, coerce: "lax",
  parameters: JSON.stringify({
    type: "object", required: ["title", "start"],
    properties: {
      title: { type: "string", description: "what it is" }, start: { type: "string", format: "date-time" },
      minutes: { type: "integer", minimum: 5 }, kind: { type: "string", enum: ["meeting", "focus"] }, remind: { type: "boolean" },
      guests: { type: "array", items: { type: "string" } }, place: { type: "object", properties: { room: { type: "string" }, floor: { type: "integer" } } },
    },
  }),
  handler: "(args) => args",
};

async function setDefs(page, defs, selected = 0) {
  await page.evaluate(([d, s]) => import("/js/store.js").then((m) => m.setDefs(d, s)), [defs, selected]);
}

/** Starts recording the "outcome" events (JSON-safe) in window.outcomes. */
async function recordOutcomes(page) {
  await page.evaluate(() => import("/js/store.js").then((s) => {
    window.outcomes = [];
    s.on("outcome", (o) => window.outcomes.push(JSON.parse(JSON.stringify({ ...o, result: o.result && (o.result.ok ? o.result : { ok: false, code: o.result.error.code, issues: o.result.error.issues }) }))));
  }));
}

/** The verdicts shown: [{cls, code, text, issues: ["path keyword"], covers}]. */
function verdicts(page) {
  return page.$$eval("#result .verdict-row", (rows) => rows.map((r) => {
    const v = r.querySelector(".verdict");
    return {
      cls: v.classList.contains("ok") ? "ok" : v.classList.contains("bad") ? "bad" : "warn",
      code: v.dataset.code || "",
      text: v.textContent,
      issues: [...v.querySelectorAll("tr.issue")].map((tr) => `${tr.dataset.path} ${tr.dataset.keyword}`),
      covers: r.querySelector(".covers")?.textContent || "",
    };
  }));
}

async function sample(page, id) {
  await page.click(`#call-panel [data-sample="${id}"]`);
  return verdicts(page);
}

/** Clicks Invoke and waits for the outcome (the result area no longer busy and showing a status). */
async function invoke(page) {
  await page.click("#invoke");
  await page.waitForSelector("#result:not([aria-busy]) [data-status]");
  return page.$eval("#result .verdict", (v) => ({ status: v.dataset.status, code: v.dataset.code, text: v.textContent }));
}

/** Resolves with the next message on the test's BroadcastChannel (set up before the action). */
async function listenChannel(page) {
  await page.evaluate(() => {
    window.channelMessages = [];
    new BroadcastChannel("tg-test").onmessage = (e) => window.channelMessages.push(e.data);
  });
}

async function finish(page, view) {
  await assertAccessible(page, view);
  await screenshot(page, view);
  if (page.size === "phone") await assertNoSideScroll(page);
  assert.deepEqual(page.errors.map(String), []);
  await closePage(page);
}

for (const size of ["desktop", "phone"]) {
  test(`call samples: each provider shape and broken call gets its verdict (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [ADD, PAY]);
    for (const id of ["plain", "openai-chat", "openai-responses", "anthropic", "gemini"]) {
      const v = await sample(page, id);
      assert.equal(v.length, 1, id);
      assert.equal(v[0].cls, "ok", `${id}: ${v[0].text}`);
      assert.match(v[0].text, /Valid: add/);
    }
    for (const id of ["openai-chat-message", "anthropic-message", "gemini-response"]) {
      const v = await sample(page, id);
      assert.deepEqual(v.map((x) => x.cls), ["ok", "bad"], id);
      assert.deepEqual(v[1].issues, ["/a required"], id);
      assert.match(await page.locator("#result .summary").textContent(), /2 calls: 1 valid, 1 refused/);
    }
    assert.equal((await sample(page, "malformed"))[0].code, "invalid-request");
    const wrong = await sample(page, "wrong-type");
    assert.equal(wrong[0].cls, "ok", "a raw function's types are not checked");
    assert.match(wrong[0].covers, /types are not checked/);
    assert.deepEqual((await sample(page, "missing"))[0].issues, ["/a required"]);
    assert.deepEqual((await sample(page, "extra"))[0].issues, ["/unexpected_field signature"]);
    assert.equal((await sample(page, "unknown-tool"))[0].code, "tool-not-found");
    await screenshot(page, "call-samples-raw");

    await page.evaluate(() => import("/js/store.js").then((s) => s.select(1)));
    assert.match(await page.locator("#call-panel .samples").textContent(), /Samples for pay/);
    assert.equal((await sample(page, "anthropic"))[0].cls, "ok");
    const typedWrong = await sample(page, "wrong-type");
    assert.equal(typedWrong[0].cls, "bad");
    assert.deepEqual(typedWrong[0].issues, ["/amount type"]);
    assert.match(typedWrong[0].covers, /full JSON Schema validation/);
    assert.deepEqual((await sample(page, "missing"))[0].issues, ["/amount required"]);
    const extra = await sample(page, "extra");
    assert.equal(extra[0].cls, "ok", "a typed tool drops a key its schema names nowhere");
    assert.doesNotMatch(await page.locator("#result pre.args").textContent(), /unexpected_field/);
    assert.match(await page.locator("#result .dropped").textContent(), /Dropped: unexpected_field/);
    await finish(page, "call-samples");
  });

  test(`call covers: b:"two" passes a raw function's integer parameter, and the panel says why (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [{ ...ADD, schemaMode: "accurate" }]);
    const type = await page.evaluate(() => import("/js/store.js").then((s) => s.state.built.entries[0].tool.toolSchema.function.parameters.properties.b.type));
    assert.equal(type, "integer", "the accurate schema types b");
    await page.fill("#call", '{"function": "add", "arguments": {"a": 1, "b": "two"}}');
    // live validation: no button pressed
    await page.waitForFunction(() => document.querySelector("#result pre.args")?.textContent.includes('"two"'));
    const [v] = await verdicts(page);
    assert.equal(v.cls, "ok");
    assert.match(v.text, /"b": "two"/);
    assert.match(v.covers, /not checked/);
    assert.match(v.covers, /keys only/);
    await setDefs(page, [{ ...ADD, strictFuncCall: true }]);
    const [strict] = await verdicts(page);
    assert.match(strict.covers, /strictFuncCall/, "the verdict is recomputed when the tool changes");
    await finish(page, "call-covers");
  });

  test(`call README pay: conversion shown, issues table, a row selects its place (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [PAY]);
    await page.fill("#call", '{"type": "tool_use", "id": "t1", "name": "pay", "input": {"amount": "5", "to": "ann"}}');
    await page.click("#validate");
    const [ok] = await verdicts(page);
    assert.equal(ok.cls, "ok");
    assert.match(await page.locator("#result .conversion").textContent(), /\/amount string → integer/);
    assert.match(await page.locator("#result pre.args").textContent(), /"amount": 5,/);

    const bad = '{"function": "pay", "arguments": {"amount": 0}}';
    await page.fill("#call", bad);
    await page.click("#validate");
    const [v] = await verdicts(page);
    assert.equal(v.code, "invalid-arguments");
    assert.deepEqual(v.issues, ["/amount minimum", "/to required"]);
    await page.click('#result tr.issue[data-path="/amount"] button');
    const sel = await page.evaluate(() => {
      const a = document.getElementById("call");
      return { focused: document.activeElement === a, text: a.value.slice(a.selectionStart, a.selectionEnd) };
    });
    assert.ok(sel.focused, "the call box has the focus");
    assert.equal(sel.text, '"amount": 0');
    await page.click('#result tr.issue[data-path="/to"]');
    const missing = await page.evaluate(() => { const a = document.getElementById("call"); return a.value.slice(a.selectionStart, a.selectionEnd); });
    assert.equal(missing, '{"amount": 0}', "a missing key selects the arguments that lack it");
    await finish(page, "call-pay");
  });

  test(`call invoke: the record and each provider's result; a timeout; stale after a tool change (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [PAY, SLOW]);
    await recordOutcomes(page);
    await page.fill("#call", '{"type": "tool_use", "id": "t1", "name": "pay", "input": {"amount": "5", "to": "ann"}}');
    const done = await invoke(page);
    assert.equal(done.status, "completed");
    assert.match(done.text, /paid 5 to ann/);
    await page.click("#result details.record summary");
    assert.match(await page.locator("#result details.record pre").textContent(), /"status": "completed"/);
    const out = await page.evaluate(() => window.outcomes.filter((o) => o.kind === "invoke").at(-1));
    assert.equal(out.record.function, "pay");
    assert.deepEqual(out.record.arguments, { amount: 5, to: "ann" });
    assert.equal(out.results.anthropic.tool_use_id, "t1");
    assert.equal(out.results["openai-chat"].tool_call_id, "t1");
    assert.equal(out.results.mcp.content[0].text, "paid 5 to ann");

    await page.fill("#call", '{"function": "pay", "arguments": {"amount": 5, "to": "ann"}}');
    await invoke(page);
    const noId = await page.evaluate(() => window.outcomes.filter((o) => o.kind === "invoke").at(-1).results);
    assert.equal(noId["openai-chat"].missing, "call id", "a call without an id has no OpenAI tool message, and the worker says why");
    assert.equal(noId.gemini.functionResponse.response.output, "paid 5 to ann");

    await page.click('#call-panel [data-sample="anthropic-message"]');
    await page.click("#invoke");
    await page.waitForSelector("#result:not([aria-busy]) .summary");
    assert.deepEqual(await page.$$eval("#result .verdict", (v) => v.map((x) => x.dataset.status)), ["completed", "failed"]);
    assert.match(await page.locator("#result .summary").textContent(), /2 calls: 1 completed/);
    const both = await page.evaluate(() => window.outcomes.filter((o) => o.kind === "invoke").slice(-2).map((o) => o.results.anthropic));
    assert.deepEqual(both.map((r) => [r.tool_use_id, Boolean(r.is_error)]), [["toolu_01A", false], ["toolu_02B", true]]);

    await page.evaluate(() => import("/js/store.js").then((s) => s.updateDef(0, { description: "Pay someone, again." })));
    assert.ok(await page.locator("#result").evaluate((r) => r.classList.contains("stale")), "the old result is marked");
    assert.match(await page.locator("#result").evaluate((r) => getComputedStyle(r, "::before").content), /out of date/);
    await screenshot(page, "call-stale");

    await page.fill("#call", '{"function": "slow", "arguments": {}}');
    await page.click("#invoke");
    await page.waitForSelector("#running:not([hidden]) #cancel-invoke");
    assert.match(await page.locator("#running").textContent(), /running… \d+\.\d s/);
    await screenshot(page, "call-running");
    await page.waitForSelector("#result:not([aria-busy]) [data-status]");
    const timedOut = await page.$eval("#result .verdict", (v) => ({ status: v.dataset.status, code: v.dataset.code }));
    assert.deepEqual(timedOut, { status: "cancelled", code: "timeout" });
    assert.ok(await page.locator("#running").isHidden());
    await finish(page, "call-invoke");
  });

  test(`call cancel: a busy synchronous handler is stopped (Cancel, or its timeoutMs), the page stays responsive, the next invoke works (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [BUSY, PAY]);
    await listenChannel(page);
    await page.fill("#call", '{"function": "busy", "arguments": {}}');
    await page.click("#invoke");
    await page.waitForFunction(() => window.channelMessages.includes("busy started"));
    await page.click("#cancel-invoke");
    await page.waitForSelector("#result:not([aria-busy]) [data-status]");
    const v = await page.$eval("#result .verdict", (x) => ({ status: x.dataset.status, text: x.textContent }));
    assert.equal(v.status, "cancelled");
    assert.match(v.text, /busy/);
    assert.equal(await page.evaluate(() => 6 * 7), 42, "the page answers");
    await page.fill("#call", '{"function": "pay", "arguments": {"amount": 2, "to": "bo"}}');
    const next = await invoke(page);
    assert.equal(next.status, "completed");

    // the same handler with a timeoutMs: it keeps its own timeout from firing, so the page stops it
    await page.evaluate(() => import("/js/store.js").then((s) => s.updateDef(0, { timeoutMs: 300 })));
    await page.fill("#call", '{"function": "busy", "arguments": {}}');
    const timedOut = await invoke(page);
    assert.deepEqual([timedOut.status, timedOut.code], ["cancelled", "timeout"]);
    assert.match(timedOut.text, /timeoutMs \(300 ms\)/);
    await page.fill("#call", '{"function": "pay", "arguments": {"amount": 2, "to": "bo"}}');
    const again = await invoke(page);
    assert.equal(again.status, "completed");
    assert.match(again.text, /paid 2 to bo/);
    await finish(page, "call-cancel");
  });

  test(`call supersede: a newer call replaces a running one, whose answer is dropped; a tool that no longer builds never runs (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [GATE, PAY, ADD]);
    await recordOutcomes(page);
    await listenChannel(page);
    await page.fill("#call", '{"function": "gate", "arguments": {}}');
    await page.click("#invoke");
    await page.waitForFunction(() => window.channelMessages.includes("gate started"));
    await page.fill("#call", '{"function": "pay", "arguments": {"amount": 3, "to": "cy"}}');
    const newer = await invoke(page);
    assert.equal(newer.status, "completed");
    assert.match(newer.text, /paid 3 to cy/);
    await page.evaluate(() => new BroadcastChannel("tg-test").postMessage("release"));
    await page.fill("#call", '{"function": "add", "arguments": {"a": 1, "b": 2}}');
    assert.match((await invoke(page)).text, /Response:\s*3/);
    const invoked = await page.evaluate(() => window.outcomes.filter((o) => o.kind === "invoke").map((o) => o.record?.function));
    assert.deepEqual(invoked, ["pay", "add"], "the superseded gate call emitted nothing");

    await page.evaluate(() => import("/js/store.js").then((s) => s.updateDef(2, { source: "function add(a, b = 2) {\n  return a + ;\n}" })));
    const broken = await invoke(page);
    assert.equal(broken.status, "failed");
    assert.match(broken.text, /does not build/);
    assert.doesNotMatch(broken.text, /Response:/);
    const last = await page.evaluate(() => window.outcomes.at(-1));
    assert.equal(last.record, undefined, "nothing ran");
    assert.match(last.error, /^tool-not-found: /);
    await finish(page, "call-supersede");
  });

  test(`call form: generated from the schema, writes the call and reads it back (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [EVENT]);
    await page.fill("#call", '{"function": "create_event", "arguments": {}}');
    await page.fill('#call-panel [data-path="/title"] input', "Standup");
    await page.fill('#call-panel [data-path="/start"] input', "2026-03-14T09:30:00Z");
    await page.fill('#call-panel [data-path="/minutes"] input', "15");
    await page.selectOption('#call-panel [data-path="/kind"] select', { label: '"focus"' });
    await page.check('#call-panel [data-path="/remind"] input');
    await page.fill('#call-panel [data-path="/guests"] textarea', "ann\nbo");
    await page.fill('#call-panel [data-path="/place/floor"] input', "3");
    const call = JSON.parse(await page.inputValue("#call"));
    assert.deepEqual(call, { function: "create_event", arguments: { title: "Standup", start: "2026-03-14T09:30:00Z", minutes: 15, kind: "focus", remind: true, guests: ["ann", "bo"], place: { floor: 3 } } });
    await page.click("#validate");
    assert.equal((await verdicts(page))[0].cls, "ok");

    await page.fill("#call", '{"function": "create_event", "arguments": {"title": "Review", "minutes": 30, "kind": "meeting", "remind": false, "guests": ["cy"], "place": {"room": "B2"}}}');
    await page.waitForFunction(() => document.querySelector('#call-panel [data-path="/title"] input').value === "Review");
    assert.equal(await page.inputValue('#call-panel [data-path="/minutes"] input'), "30");
    assert.equal(await page.inputValue('#call-panel [data-path="/guests"] textarea'), "cy");
    assert.equal(await page.inputValue('#call-panel [data-path="/place/room"] input'), "B2");
    assert.equal(await page.isChecked('#call-panel [data-path="/remind"] input'), false);
    assert.equal(await page.$eval('#call-panel [data-path="/kind"] select', (s) => s.selectedOptions[0].textContent), '"meeting"');
    const req = await page.$$eval("#call-panel .schema-form .required", (n) => n.length);
    assert.equal(req, 2, "title and start are marked required");
    await finish(page, "call-form");
  });

  test(`call history, replay and shortcuts (${size})`, async () => {
    const page = await openPage(pg, { size });
    await setDefs(page, [PAY]);
    const first = '{"function": "pay", "arguments": {"amount": 0}}';
    await page.fill("#call", first);
    await page.click("#call");
    await page.keyboard.press("Control+Enter");
    await page.waitForSelector("#history-panel li.history-row");
    assert.match(await page.locator("#history-panel li.history-row").first().textContent(), /refused: invalid-arguments/);

    await page.fill("#call", '{"function": "pay", "arguments": {"amount": 4, "to": "di"}}');
    await page.keyboard.press("Shift+Control+Enter");
    await page.waitForSelector('#history-panel li.history-row[data-kind="invoke"]');
    const rows = await page.$$eval("#history-panel li.history-row", (li) => li.map((x) => ({ kind: x.dataset.kind, text: x.textContent })));
    assert.deepEqual(rows.map((r) => r.kind), ["invoke", "validate"], "newest first");
    assert.match(rows[0].text, /completed/);
    assert.match(rows[0].text, /\d+ ms/);

    const old = page.locator('#history-panel li.history-row[data-kind="validate"]');
    await old.locator("summary").click();
    assert.match(await old.locator("pre.history-detail").textContent(), /"keyword": "minimum"/);
    await screenshot(page, "call-history");
    await old.locator("button.replay").click();
    assert.equal(await page.inputValue("#call"), first, "replay puts the request back");
    assert.equal(await page.locator("#history-panel li.history-row").count(), 3);
    assert.match(await page.locator("#history-panel li.history-row").first().textContent(), /refused: invalid-arguments/);
    assert.deepEqual((await verdicts(page))[0].issues, ["/amount minimum", "/to required"]);

    await page.fill("#call", "{}");
    await page.click("#call");
    await page.keyboard.press("End");
    await page.keyboard.press("Tab");
    assert.equal(await page.inputValue("#call"), "{}  ", "Tab indents in the call box");
    assert.equal(await page.evaluate(() => document.activeElement.id), "call");
    await finish(page, "call-history");
  });
}
