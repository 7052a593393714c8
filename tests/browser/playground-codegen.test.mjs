// "Copy as code" prints what the page shows: for the default call and every sample the call panel
// offers (each provider shape, the whole responses with two calls, the broken calls), the copied
// module runs in Node against the packed package, and its verdicts (the "2 calls: 1 valid, 1
// refused" summary, then one verdict per call) and its invoke outcomes equal the page's.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startPlayground, openPage, closePage, copiedBy, CEILING_MS, pkgDir } from "./playground-harness.mjs";

const run = promisify(execFile);
const consumerDir = join(pkgDir, "..", "..");

let pg;
before(async () => {
  pg = await startPlayground();
});
after(async () => {
  await pg?.close();
});

const PAY = {
  kind: "schema", name: "pay", description: "Pay someone.", strict: false, coerce: "lax",
  parameters: JSON.stringify({ type: "object", properties: { amount: { type: "integer", minimum: 1 }, to: { type: "string" } }, required: ["amount", "to"] }),
  handler: "async ({ amount, to }) => `paid ${amount} to ${to}`",
};

/** What the page shows after a validate: the summary (without its tail) and one line per call. */
function pageVerdicts(page) {
  return page.evaluate(() => {
    const summary = document.querySelector("#result .summary")?.textContent.replace(/, each checked on its own\.$/, "") ?? null;
    const lines = [...document.querySelectorAll("#result .verdict-row .verdict")].map((v) => {
      const badge = v.querySelector(".badge")?.textContent;
      const verdict = v.dataset.ok === "true" ? `valid: ${v.dataset.function}` : `invalid: ${v.dataset.code}`;
      return badge ? `${badge}: ${verdict}` : verdict;
    });
    const none = document.querySelector("#result .verdict.warn")?.textContent.startsWith("No tool call");
    return { summary, lines: none ? ["no tool call"] : lines };
  });
}

/** What the page shows after an invoke: one "invoke: <status>" or "invoke refused: <code>" per call. */
async function pageInvokes(page) {
  await page.click("#invoke");
  await page.waitForSelector("#result:not([aria-busy]) [data-status]");
  return page.$$eval("#result .verdict[data-status]", (vs) => vs.map((v) => {
    const refused = v.dataset.status === "failed" && !v.querySelector(".record");
    return refused ? `invoke refused: ${v.dataset.code}` : `invoke: ${v.dataset.status}`;
  }));
}

/** The snippet's verdicts and invokes, read from its output in the page's words. */
function snippetOutput(stdout) {
  const lines = stdout.split("\n");
  const summary = lines.find((l) => /^\d+ calls: \d+ valid, \d+ refused$/.test(l)) ?? null;
  const verdicts = lines.filter((l) => /^(call \d+ of \d+: )?(valid|invalid): /.test(l) || l === "no tool call");
  const invokes = lines.map((l) => l.match(/^(?:call \d+ )?(invoke(?: refused)?: [\w-]+)/)?.[1]).filter(Boolean);
  return { summary, verdicts, invokes };
}

test("copy as code: every sample kind's snippet prints in Node the verdicts and invoke outcomes the page shows", async () => {
  const page = await openPage(pg);
  const file = join(consumerDir, "playground-codegen-view.mjs");
  const compare = async (what) => {
    const shown = await pageVerdicts(page);
    const code = await copiedBy(page, page.locator("#copy-code"));
    const invoked = await pageInvokes(page);
    writeFileSync(file, code);
    const { stdout } = await run(process.execPath, [file], { cwd: consumerDir, timeout: CEILING_MS });
    const printed = snippetOutput(stdout);
    assert.equal(printed.summary, shown.summary, `${what}: the summary`);
    assert.deepEqual(printed.verdicts, shown.lines, `${what}: the verdicts`);
    assert.deepEqual(printed.invokes, invoked, `${what}: the invokes`);
    return { shown, invoked };
  };
  try {
    await page.click("#validate");
    await page.waitForFunction(() => document.querySelector("#result-follows")?.textContent.startsWith("Validated"));
    await compare("the default call");
    await page.evaluate(async (d) => {
      const m = await import("/js/store.js");
      await m.state.tg.ready("validator");
      m.setDefs(d, 0);
    }, [PAY]);
    const ids = await page.$$eval("#call-panel [data-sample]", (bs) => bs.map((b) => b.dataset.sample));
    assert.ok(ids.length >= 13, `the samples offered: ${ids}`);
    const seen = {};
    for (const id of ids) {
      await page.click(`#call-panel [data-sample="${id}"]`);
      await page.waitForFunction((s) => document.querySelector(`[data-sample="${s}"]`)?.getAttribute("aria-pressed") === "true" && document.querySelector("#result-follows")?.textContent.startsWith("Validated"), id);
      seen[id] = await compare(id);
    }
    for (const id of ["openai-chat-message", "anthropic-message", "gemini-response"]) {
      assert.equal(seen[id].shown.summary, "2 calls: 1 valid, 1 refused", id);
    }
    assert.deepEqual(page.errors.map(String), []);
  } finally {
    rmSync(file, { force: true });
    await closePage(page);
  }
});
