// The playground's finish: the schema form edits the call it mirrors without rewriting it, copy
// buttons answer beside themselves, the phone has a jump bar and tables that wrap, permalinks
// follow a pasted hash and remember the tab's own links, a damaged link reads as words, NaN stays
// NaN, every disclosure row has its marker, every code box says what Tab does, and a broken tool is
// explained the same way by Validate and Invoke. Light and dark, desktop and phone, axe-clean.
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
  kind: "schema", name: "pay", description: "Pay someone.", strict: false, coerce: "lax",
  parameters: JSON.stringify({ type: "object", properties: { amount: { type: "integer", minimum: 1 }, to: { type: "string" }, note: { type: "string" } }, required: ["amount", "to"] }),
  handler: "async ({ amount, to }) => `paid ${amount} to ${to}`",
};
const ADD = { kind: "function", source: "function add(a, b = 2) {\n  /** Add two numbers.\n   *\n   * Args:\n   *   a: first number\n   *   b: second number\n   */\n  return Number(a) + Number(b);\n}", schemaMode: "lionagi", docstringStyle: "google", strictFuncCall: false };
const NAN = { kind: "schema", name: "ratio", description: "Zero over zero.", strict: false, coerce: "lax", parameters: "{}", handler: "async () => 0 / 0" };
const LONG = "a_parameter_name_far_longer_than_a_phone_screen_is_wide_and_then_some";
const WIDE = {
  kind: "schema", name: "wide tool with a long name", description: "A tool whose issues and report are wide.", strict: false, coerce: "none",
  parameters: JSON.stringify({ type: "object", properties: { [LONG]: { type: "object", properties: { [LONG]: { type: "integer", minimum: 1, description: "Greater than zero." } }, required: [LONG] } }, required: [LONG] }),
  handler: "async () => 1",
};

async function setDefs(page, defs, selected = 0) {
  await page.evaluate(([d, s]) => import("/js/store.js").then((m) => m.setDefs(d, s)), [defs, selected]);
}

/** Types text into the call box and waits until the form shows value at path (the form follows the box). */
async function typeCall(page, text) {
  await page.fill("#call", text);
  await page.waitForFunction((t) => document.getElementById("call").value === t, text);
}

const callNow = async (page) => JSON.parse(await page.inputValue("#call"));

for (const size of ["desktop", "phone"]) {
  test(`form fidelity: a wrong-type value, a null, a provider wrapper, other calls and unknown keys survive an edit of another field (${size})`, async () => {
    const page = await openPage(pg, { size });
    try {
      await setDefs(page, [PAY]);
      // a wrong-type sample and a strict model's null: both shown as JSON and kept
      await typeCall(page, '{"function": "pay", "arguments": {"amount": "two", "to": "ann", "note": null, "memo": "kept"}}');
      await page.waitForFunction(() => !document.querySelector('#call-panel [data-path="/amount"] .raw-field').hidden);
      assert.equal(await page.inputValue('#call-panel [data-path="/amount"] .raw-field textarea'), '"two"');
      assert.equal(await page.inputValue('#call-panel [data-path="/note"] .raw-field textarea'), "null");
      await page.fill('#call-panel [data-path="/to"] input', "bo");
      assert.deepEqual(await callNow(page), { function: "pay", arguments: { amount: "two", to: "bo", note: null, memo: "kept" } });
      // the raw field is labelled by the field's label (axe: every control has a name)
      await assertAccessible(page, "the form with raw fields");

      // an OpenAI Chat call: the id and the wrapper stay, the arguments stay a JSON string
      await typeCall(page, JSON.stringify({ id: "call_7Hq2", type: "function", function: { name: "pay", arguments: '{"amount":5,"to":"ann"}' } }, null, 2));
      await page.waitForFunction(() => document.querySelector('#call-panel [data-path="/amount"] input').value === "5");
      await page.fill('#call-panel [data-path="/amount"] input', "7");
      const chat = await callNow(page);
      assert.equal(chat.id, "call_7Hq2");
      assert.equal(chat.type, "function");
      assert.equal(typeof chat.function.arguments, "string");
      assert.deepEqual(JSON.parse(chat.function.arguments), { amount: 7, to: "ann" });

      // a whole Anthropic message: only the first call of this tool changes, the text block and the other call stay
      const message = {
        id: "msg_01X", type: "message", role: "assistant", stop_reason: "tool_use",
        content: [{ type: "text", text: "Both." }, { type: "tool_use", id: "toolu_01A", name: "pay", input: { amount: 1, to: "ann" } }, { type: "tool_use", id: "toolu_02B", name: "pay", input: { to: "cy" } }],
      };
      await typeCall(page, JSON.stringify(message, null, 2));
      await page.waitForFunction(() => document.querySelector('#call-panel [data-path="/to"] input').value === "ann");
      await page.fill('#call-panel [data-path="/to"] input', "di");
      const edited = structuredClone(message);
      edited.content[1].input.to = "di";
      assert.deepEqual(await callNow(page), edited);
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}

test("form fidelity: a raw function's numbers stay numbers when another field is edited", async () => {
  const page = await openPage(pg);
  try {
    await setDefs(page, [ADD]);
    await typeCall(page, '{"function": "add", "arguments": {"a": 1, "b": 2}}');
    await page.waitForFunction(() => document.querySelector('#call-panel [data-path="/b"] input')?.value === "2");
    await page.fill('#call-panel [data-path="/a"] input', "5");
    assert.deepEqual(await callNow(page), { function: "add", arguments: { a: 5, b: 2 } });
  } finally {
    await closePage(page);
  }
});

test("copy feedback: said beside the button that copied, in a live region, not in the footer", async () => {
  const page = await openPage(pg);
  try {
    for (const button of [page.locator("#copy-link"), page.locator("#copy-code"), page.locator('#tools-panel [data-copy="the tool\'s schema"]')]) {
      await copiedBy(page, button);
      const status = button.locator("xpath=following-sibling::*[@role='status'][1]");
      await page.waitForFunction((s) => s.textContent.trim() !== "", await status.elementHandle());
      const near = await page.evaluate(([b, s]) => {
        const a = b.getBoundingClientRect();
        const c = s.getBoundingClientRect();
        return { dy: Math.abs(c.top - a.top), dx: c.left - a.right, visible: c.width > 0 && c.height > 0, live: s.getAttribute("aria-live") || s.getAttribute("role") };
      }, [await button.elementHandle(), await status.elementHandle()]);
      assert.ok(near.visible, "the confirmation is visible");
      assert.ok(near.dy < 60 && near.dx < 200, `the confirmation sits beside its button (${JSON.stringify(near)})`);
    }
    assert.equal(await page.textContent("#toast"), "", "the footer says nothing");
    await assertAccessible(page, "copy confirmations");
  } finally {
    await closePage(page);
  }
});

for (const colorScheme of ["light", "dark"]) {
  test(`phone (${colorScheme}): a sticky jump bar reaches the call box without touching the link; wide issue and report tables wrap`, async () => {
    const page = await openPage(pg, { size: "phone", colorScheme });
    try {
      const before = await page.evaluate(() => document.documentElement.scrollHeight);
      const hash = await page.evaluate(() => location.hash);
      const bar = await page.evaluate(() => {
        const nav = document.getElementById("jump");
        return { position: getComputedStyle(nav).position, height: nav.getBoundingClientRect().height, links: [...nav.querySelectorAll("a")].map((a) => a.textContent) };
      });
      assert.equal(bar.position, "sticky");
      assert.ok(bar.height <= 60, `the bar is small (${bar.height} px)`);
      assert.deepEqual(bar.links, ["Tools", "Call", "Providers", "History", "MCP"]);
      await page.click('#jump a[href="#call"]');
      await page.waitForFunction(() => document.activeElement?.id === "call");
      const seen = await page.evaluate(() => {
        const box = document.getElementById("call").getBoundingClientRect();
        return { top: box.top, barBottom: document.getElementById("jump").getBoundingClientRect().bottom, height: innerHeight, hash: location.hash };
      });
      assert.ok(seen.top >= seen.barBottom - 1 && seen.top < seen.height, `the call box is in view below the bar (${JSON.stringify(seen)})`);
      assert.equal(seen.hash, hash, "the address bar keeps the view's link");
      await page.click('#jump a[href="#tools-panel"]');
      await page.waitForFunction(() => document.activeElement?.id === "tools-panel");
      assert.ok(await page.evaluate(() => document.getElementById("jump").getBoundingClientRect().top === 0), "the bar stays at the top");

      await setDefs(page, [WIDE]);
      await page.fill("#call", JSON.stringify({ function: "wide tool with a long name", arguments: { [LONG]: { [LONG]: "not_a_number_but_a_very_long_word_that_cannot_fit" }, [`${LONG}_extra`]: 1 } }));
      await page.click("#validate");
      await page.waitForSelector("#result table.issues");
      await page.click('#providers-panel [role="tab"]:has-text("OpenAI Chat")').catch(() => {});
      await page.waitForSelector("#provider-report");
      const clipped = await page.evaluate(() => [...document.querySelectorAll("table")].filter((t) => t.offsetParent !== null).flatMap((t) => {
        const wrap = t.closest(".table-wrap") || t.parentElement;
        return [...t.querySelectorAll("td, th"), t].filter((c) => c.scrollWidth > c.clientWidth + 1 || t.getBoundingClientRect().right > wrap.getBoundingClientRect().right + 1)
          .map((c) => `${t.className || t.closest("[id]")?.id}: ${c.textContent.slice(0, 40)}`);
      }));
      assert.deepEqual(clipped, [], "no table cell is clipped");
      await assertNoSideScroll(page);
      await assertAccessible(page, `the phone page with wide tables (${colorScheme})`);
      await screenshot(page, `polish-phone-${colorScheme}`);
      const after = await page.evaluate(() => document.documentElement.scrollHeight);
      console.log(`# page height at 390×844 (${colorScheme}): ${before} px on open, ${after} px with the wide tool's issues`);
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}

test("the last tool removed: no stale samples, and the form says there is no tool", async () => {
  const page = await openPage(pg);
  try {
    assert.ok(await page.$("#call-panel [data-sample]"));
    await setDefs(page, []);
    await page.waitForFunction(() => !document.querySelector("#call-panel [data-sample]"));
    assert.doesNotMatch(await page.textContent("#call-panel .schema-form"), /does not build/);
  } finally {
    await closePage(page);
  }
});

/** A view's hash made in a page of its own (so the tab under test did not write it). */
async function foreignHash(defs, call) {
  const maker = await openPage(pg);
  try {
    return await maker.evaluate(async ([d, c]) => {
      const s = await import("/js/store.js");
      s.setDefs(d, 0);
      s.setCall(c, "test");
      return (await import("/js/permalink.js")).encodeView();
    }, [defs, call]);
  } finally {
    await closePage(maker);
  }
}

const viewOf = (page) => page.evaluate(async () => {
  const { state } = await import("/js/store.js");
  return { names: state.built.entries.map((e) => e.name), call: state.call };
});

test("a permalink pasted into an open tab asks, loads, or keeps the work there", async () => {
  const PAY_CALL = '{"function": "pay", "arguments": {"amount": 5, "to": "ann"}}';
  const hash = await foreignHash([PAY], PAY_CALL);
  const page = await openPage(pg);
  try {
    await page.fill("#call", '{"function": "add", "arguments": {"a": 40}}');
    const mine = await viewOf(page);
    await page.evaluate((h) => (location.hash = h), hash);
    await page.waitForSelector("#permalink-notice");
    await assertAccessible(page, "a pasted link's notice");
    await page.click("#permalink-ignore");
    assert.deepEqual(await viewOf(page), mine, "keeping leaves the work as it was");
    await page.waitForFunction(() => location.hash.startsWith("#p="));
    await page.evaluate((h) => (location.hash = h), hash);
    await page.click("#permalink-load");
    assert.deepEqual(await viewOf(page), { names: ["pay"], call: PAY_CALL });
    assert.deepEqual(page.errors, []);
  } finally {
    await closePage(page);
  }
});

test("your own link: a reload brings the work back without the trust question; Keep the examples leaves the link one Back away", async () => {
  const page = await openPage(pg);
  try {
    await setDefs(page, [PAY]);
    const call = '{"function": "pay", "arguments": {"amount": 3, "to": "bo"}}';
    await page.fill("#call", call);
    // waitForFunction takes a returned promise as truthy: each poll starts a check the next one reads
    await page.evaluate(() => (window.__synced = false));
    await page.waitForFunction(() => {
      Promise.all([import("/js/permalink.js"), import("/js/store.js")]).then(async ([{ decodeView }, { state }]) => {
        window.__synced = (await decodeView(location.hash))?.call === state.call;
      }, () => {});
      return window.__synced;
    });
    await page.reload();
    await page.waitForFunction(() => document.body.dataset.state === "ready");
    await page.evaluate(() => (window.__restored = false));
    await page.waitForFunction(() => {
      import("/js/store.js").then(({ state }) => (window.__restored = state.built?.entries?.[0]?.name === "pay"), () => {});
      return window.__restored;
    });
    assert.equal(await page.$("#permalink-notice"), null, "no trust question for this tab's own link");
    assert.deepEqual(await viewOf(page), { names: ["pay"], call });
  } finally {
    await closePage(page);
  }
  const hash = await foreignHash([PAY], '{"function": "pay", "arguments": {}}');
  const other = await openPage(pg, { path: `/${hash}` });
  try {
    await other.click("#permalink-ignore");
    assert.equal(await other.evaluate(() => location.hash), "");
    await other.goBack();
    await other.waitForSelector("#permalink-notice");
  } finally {
    await closePage(other);
  }
});

for (const [name, hash, reason] of [
  ["bytes that are not base64url", "#p=@@%%", "not-base64url"],
  ["compressed bytes that are damaged", "#p=AZZZ", "damaged-data"],
  ["bytes that hold no view", null, "not-a-view"],
]) {
  test(`a damaged link (${name}) reads as words, with its reason`, async () => {
    let path = hash;
    if (!path) {
      // a stored (uncompressed) view of binary bytes: what the decoder would once have printed
      const bytes = [0, 0xff, 0xfe, 0x01, 0x80, 0x22, 0x7b, 0x9c, 0x00, 0x10];
      path = `#p=${Buffer.from(bytes).toString("base64url")}`;
    }
    const page = await openPage(pg, { path: `/${path}` });
    try {
      const note = await page.waitForSelector("#permalink-error");
      assert.equal(await note.getAttribute("data-reason"), reason);
      const text = await note.textContent();
      assert.doesNotMatch(text, /[\u0000-\u001f\u007f-\u009f\ufffd]/u, "no raw bytes");
      assert.ok((await viewOf(page)).names.length > 0, "the examples are shown");
      assert.deepEqual(page.errors, []);
    } finally {
      await closePage(page);
    }
  });
}

test("NaN from a handler is shown as NaN, durations with their unit", async () => {
  const page = await openPage(pg);
  try {
    await setDefs(page, [NAN]);
    await page.fill("#call", '{"function": "ratio", "arguments": {}}');
    await page.click("#invoke");
    const response = await page.waitForSelector("#result pre.response");
    assert.equal((await response.textContent()).trim(), "NaN");
    const formatted = await page.evaluate(async () => {
      const { formatDuration } = await import("/js/ui.js");
      return [0.44, 12.4, 999, 1234, 12345, 125000].map(formatDuration);
    });
    assert.deepEqual(formatted, ["0.4 ms", "12 ms", "999 ms", "1.23 s", "12.3 s", "2 min 5 s"]);
    await page.waitForSelector("#history-panel .history-ms");
    assert.match(await page.textContent("#history-panel .history-ms"), /^\d+(\.\d+)? (ms|s)$/);
  } finally {
    await closePage(page);
  }
});

for (const colorScheme of ["light", "dark"]) {
  test(`every disclosure row shows its marker, every code box says what Tab does, and Esc then Tab leaves it (${colorScheme})`, async () => {
    const page = await openPage(pg, { colorScheme });
    try {
      await page.click("#validate");
      await page.waitForSelector("#history-panel summary");
      const markers = await page.evaluate(() => [...document.querySelectorAll("summary")].filter((s) => s.offsetParent !== null)
        .filter((s) => !/[▸▾]/.test(getComputedStyle(s, "::before").content)).map((s) => s.textContent.trim().slice(0, 40)));
      assert.deepEqual(markers, [], "summaries without a disclosure marker");
      const unexplained = await page.evaluate(() => [...document.querySelectorAll("textarea[data-code-box]")].filter((t) => {
        const ids = (t.getAttribute("aria-describedby") || "").split(" ");
        const hint = ids.map((id) => document.getElementById(id)).find((n) => n?.classList.contains("tab-hint"));
        return !hint || hint.offsetParent === null && t.offsetParent !== null;
      }).map((t) => t.id));
      assert.deepEqual(unexplained, [], "code boxes without a visible Tab hint");
      await page.focus("#call");
      const before = await page.inputValue("#call");
      await page.keyboard.press("Tab");
      assert.notEqual(await page.inputValue("#call"), before, "Tab indents in the box");
      await page.keyboard.press("Escape");
      await page.keyboard.press("Tab");
      assert.notEqual(await page.evaluate(() => document.activeElement?.id), "call", "Esc then Tab leaves the box");
      await assertAccessible(page, `markers and hints (${colorScheme})`);
    } finally {
      await closePage(page);
    }
  });
}

test("Validate and Invoke explain a tool that does not build in the same words", async () => {
  const page = await openPage(pg);
  try {
    await setDefs(page, [{ ...ADD, source: "function add(a, b = 2) {\n  return a + ;\n}" }]);
    await page.fill("#call", '{"function": "add", "arguments": {"a": 1}}');
    await page.click("#validate");
    await page.waitForSelector('#result .verdict[data-code="tool-not-found"]');
    const note = await page.evaluate(async () => (await import("/js/broken-tools.js")).brokenToolsNote((await import("/js/store.js")).state.built));
    assert.ok(note);
    assert.ok((await page.textContent("#result")).includes(note), "Validate gives the note");
    await page.click("#invoke");
    await page.waitForSelector('#result .verdict[data-status="failed"]');
    assert.ok((await page.textContent("#result")).includes(note), "Invoke gives the same note");
  } finally {
    await closePage(page);
  }
});
