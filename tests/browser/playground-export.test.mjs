// The call panel follows the provider export the page shows: after an export rewrites a name (a
// space is not allowed in an OpenAI function name) or applies strict mode (a strict model sends null
// for a field it leaves out), the page validates and invokes on the branch as that export left it —
// as b.validate does in Node after tg.toProvider(b, target, {strict}) — and says which export it
// follows. And the first Invoke (the default call, the broken samples) paints no error in the
// providers panel: the calls carry ids, and a call that truly has none is explained.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startPlayground, openPage, closePage, copiedBy, assertAccessible, screenshot, assertNoSideScroll, CEILING_MS, pkgDir } from "./playground-harness.mjs";

const run = promisify(execFile);
const consumerDir = join(pkgDir, "..", "..");

let pg;
before(async () => {
  pg = await startPlayground();
});
after(async () => {
  await pg?.close();
});

const PAY_MONEY = {
  kind: "schema", name: "pay money", description: "Pay someone.", strict: false, coerce: "lax",
  parameters: JSON.stringify({ type: "object", properties: { amount: { type: "integer", minimum: 1 }, to: { type: "string" }, memo: { type: "string" } }, required: ["amount", "to"] }),
  handler: "async ({ amount, to, memo }) => `paid ${amount} to ${to}${memo === undefined ? '' : ' for ' + memo}`",
};

/** Sets the definitions once the validator module has arrived (a typed tool needs it to validate). */
async function setDefs(page, defs) {
  await page.evaluate(async (d) => {
    const m = await import("/js/store.js");
    await m.state.tg.ready("validator");
    m.setDefs(d, 0);
  }, defs);
}

/** Types a call, validates it, and returns the verdict shown with the line naming the export it follows. */
async function validate(page, call) {
  await page.fill("#call", JSON.stringify(call));
  await page.click("#validate");
  await page.waitForFunction((text) => document.getElementById("call").value === text && document.querySelector("#result-follows")?.textContent.startsWith("Validated"), JSON.stringify(call));
  return page.evaluate(() => {
    const v = document.querySelector("#result .verdict");
    const f = document.querySelector("#result-follows");
    return { ok: v.dataset.ok === "true", fn: v.dataset.function || "", code: v.dataset.code || "", args: v.querySelector("pre.args")?.textContent ?? null, follows: f.textContent, target: f.dataset.target, options: f.dataset.options };
  });
}

/** The exported tools of the tab shown. */
async function exportedTools(page) {
  return JSON.parse(await page.locator("#provider-tools").textContent());
}

for (const size of ["desktop", "phone"]) {
  test(`call follows the export (${size}): a renamed tool's exported name and a strict model's nulls are accepted, as in Node`, async () => {
    const page = await openPage(pg, { size });
    const file = join(consumerDir, `playground-export-${size}.mjs`);
    try {
      await setDefs(page, [PAY_MONEY]);
      await page.getByRole("tab", { name: "OpenAI Chat" }).click();
      const exportedName = (await exportedTools(page))[0].function.name;
      assert.notEqual(exportedName, "pay money", "OpenAI takes no space in a name: the export rewrites it");
      const chatCall = (args) => ({ id: "call_1", type: "function", function: { name: exportedName, arguments: JSON.stringify(args) } });

      const renamed = await validate(page, chatCall({ amount: 5, to: "ann" }));
      assert.equal(renamed.ok, true, `the exported name resolves to its tool: ${JSON.stringify(renamed)}`);
      assert.equal(renamed.fn, "pay money");
      assert.equal(renamed.target, "openai-chat");
      assert.match(renamed.follows, /OpenAI Chat export/);

      // without strict mode a null is a wrong type; with it, the null strict mode asks for is removed
      const nulls = chatCall({ amount: 5, to: "ann", memo: null });
      const lax = await validate(page, nulls);
      assert.equal(lax.ok, false);
      assert.equal(lax.code, "invalid-arguments");
      await page.locator("#provider-option-openai-chat").check();
      await page.waitForFunction(() => document.querySelector("#result-follows")?.dataset.options === "strict");
      const strict = await validate(page, nulls);
      assert.equal(strict.ok, true, `strict restores remove the null: ${JSON.stringify(strict)}`);
      assert.match(strict.follows, /OpenAI Chat \(strict\) export/);
      assert.deepEqual(JSON.parse(strict.args), { amount: 5, to: "ann" });
      await assertAccessible(page, "call-export-strict");

      // the handler worker invokes on the same exported branch
      await page.click("#invoke");
      await page.waitForSelector("#result:not([aria-busy]) [data-status]");
      assert.equal(await page.$eval("#result .verdict", (v) => v.dataset.status), "completed");
      assert.match(await page.locator("#result pre.response").textContent(), /paid 5 to ann/);
      assert.match(await page.locator("#result-follows").textContent(), /^Invoked as the OpenAI Chat \(strict\) export/);

      // the copied code makes the same export and prints the same verdict
      await page.click("#validate");
      const code = await copiedBy(page, page.locator("#copy-code"));
      assert.match(code, /tg\.toProvider\(b, "openai-chat", \{ strict: true \}\)/);
      writeFileSync(file, code);
      const { stdout } = await run(process.execPath, [file], { cwd: consumerDir, timeout: CEILING_MS });
      assert.match(stdout, /^valid: pay money$/m);
      assert.match(stdout, /^invoke: completed paid 5 to ann$/m);

      // another tab: Anthropic has no strict mode, so the null is refused again, and the page says why
      await page.getByRole("tab", { name: "Anthropic" }).click();
      const anthropic = await validate(page, { type: "tool_use", id: "toolu_1", name: (await exportedTools(page))[0].name, input: { amount: 5, to: "ann", memo: null } });
      assert.equal(anthropic.target, "anthropic");
      assert.equal(anthropic.ok, false);
      assert.match(anthropic.follows, /Anthropic export/);
      await screenshot(page, "call-export");
      if (size === "phone") await assertNoSideScroll(page);
      assert.deepEqual(page.errors.map(String), []);
    } finally {
      rmSync(file, { force: true });
      await closePage(page);
    }
  });
}

/** Clicks Invoke and waits until the providers panel shows this invoke's result. */
async function invokeAndWait(page) {
  await page.evaluate(() => (document.getElementById("provider-result")?.setAttribute("data-old", "")));
  await page.click("#invoke");
  await page.waitForSelector("#result:not([aria-busy]) [data-status]");
  await page.waitForFunction(() => document.getElementById("provider-result") && !document.getElementById("provider-result").hasAttribute("data-old"));
}

/** The tool-result view of every provider tab: [{target, tag, cls, text}]. */
async function resultTabs(page) {
  const out = [];
  for (const target of ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"]) {
    await page.click(`#provider-tab-${target}`);
    out.push(await page.$eval("#provider-result", (r, t) => ({ target: t, tag: r.tagName, cls: r.className, text: r.textContent }), target));
  }
  await page.click("#provider-tab-openai-chat");
  return out;
}

test("first invoke: the default call and the broken samples give every provider a tool result, and a call with no id says so", async () => {
  const page = await openPage(pg);
  try {
    await invokeAndWait(page);
    for (const r of await resultTabs(page)) {
      assert.equal(r.tag, "PRE", `${r.target}: ${r.text}`);
      assert.doesNotMatch(r.text, /threw/);
    }
    assert.equal(JSON.parse(await page.locator("#provider-result").textContent()).tool_call_id, "call_add_1");

    for (const id of ["wrong-type", "missing", "extra", "unknown-tool"]) {
      await page.click(`#call-panel [data-sample="${id}"]`);
      await invokeAndWait(page);
      for (const r of await resultTabs(page)) assert.equal(r.tag, "PRE", `${id} ${r.target}: ${r.text}`);
    }

    // cut short, the malformed call has no id to read: the panel says so plainly for the targets that need one
    await page.click('#call-panel [data-sample="malformed"]');
    await invokeAndWait(page);
    for (const r of await resultTabs(page)) {
      assert.doesNotMatch(r.text, /threw/, r.target);
      if (["openai-chat", "openai-responses", "anthropic"].includes(r.target)) assert.match(r.text, /no call id/, r.target);
      if (r.target === "gemini") assert.match(r.text, /names no function/);
      if (r.target !== "mcp") assert.match(r.cls, /hint/, r.target);
    }
    assert.deepEqual(page.errors.map(String), []);
  } finally {
    await closePage(page);
  }
});
