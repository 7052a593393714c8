// The playground's tools panel, provider views and "copy as code", driven as a person would at
// desktop and phone sizes: examples and their derived schemas, schema modes and docstring styles,
// adding and removing tools, a name collision, a syntax error shown in place, each provider's
// format with its export report, the tool-result message after an invoke, copy buttons, and the
// copied code run in Node against the packed package.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { writeFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startPlayground, openPage, closePage, copiedBy, CEILING_MS, assertAccessible, screenshot, assertNoSideScroll, pkgDir } from "./playground-harness.mjs";

const run = promisify(execFile);
const consumerDir = join(pkgDir, "..", "..");
let pg;

before(async () => {
  pg = await startPlayground();
});

after(async () => {
  await pg?.close();
});

/** The selected tool's derived provider schema, as the panel shows it. */
async function toolSchema(page) {
  return JSON.parse(await page.locator("#tool-schema").textContent());
}

/** The names in the branch's schemaList, as the panel shows it. */
async function schemaListNames(page) {
  return JSON.parse(await page.locator("#schema-list").textContent()).map((s) => s.function.name);
}

/** The current provider tab's exported tools. */
async function providerTools(page) {
  return JSON.parse(await page.locator("#provider-tools").textContent());
}

/** Waits until the selected tool's schema satisfies check (a function of the parsed schema, run in the page). */
async function waitForSchema(page, check) {
  await page.waitForFunction((src) => {
    try {
      return new Function("s", `return (${src})(s)`)(JSON.parse(document.getElementById("tool-schema").textContent));
    } catch {
      return false;
    }
  }, check.toString());
}

/** Clicks an example chip with "add to the branch" off. */
async function loadExample(page, id) {
  if (await page.locator("#example-add-mode").isChecked()) await page.locator("#example-add-mode").uncheck();
  await page.locator(`[data-example="${id}"]`).click();
}

/** The views every test ends with: axe, a screenshot, no side scroll at phone size. */
async function checkView(page, name) {
  await assertAccessible(page, name);
  await screenshot(page, name);
  if (page.size === "phone") await assertNoSideScroll(page);
}

/** The error line the box at fault points at (the first id of its aria-describedby; the Tab hint follows). */
async function errorFor(page, box) {
  const id = (await box.getAttribute("aria-describedby")).split(" ")[0];
  return page.locator(`[id="${id}"]`).textContent();
}


for (const size of ["desktop", "phone"]) {
  test(`tools (${size}): each example loads with its derived schema`, async () => {
    const page = await openPage(pg, { size });
    await loadExample(page, "weather");
    let s = await toolSchema(page);
    assert.equal(s.function.name, "get_weather");
    assert.equal(s.function.description, "Get the current weather for a city.");
    assert.equal(s.function.parameters.properties.city.description, `the city's name, e.g. "Paris"`);
    assert.deepEqual(s.function.parameters.required, ["city", "unit"]);

    await loadExample(page, "calendar");
    s = await toolSchema(page);
    assert.equal(s.function.name, "create_event");
    assert.equal(s.function.parameters.properties.start.format, "date-time");
    assert.equal(s.function.parameters.properties.attendees.items.properties.email.format, "email");
    assert.deepEqual(s.function.parameters.required, ["title", "start", "end"]);

    await loadExample(page, "sql");
    s = await toolSchema(page);
    assert.deepEqual(s.function.parameters.properties.dialect.enum, ["postgres", "mysql", "sqlite"]);
    assert.deepEqual(s.function.parameters.properties.options.properties.limit, { type: "integer", minimum: 1, maximum: 1000 });

    await loadExample(page, "pay");
    s = await toolSchema(page);
    assert.equal(s.function.name, "pay");
    assert.deepEqual(s.function.parameters.required, ["amount", "to"]);
    assert.equal(s.function.parameters.additionalProperties, false);
    assert.equal(s.function.parameters.properties.amount.minimum, 1);
    await checkView(page, "tools-pay");

    await loadExample(page, "slow");
    assert.equal((await toolSchema(page)).function.name, "slow");
    assert.equal(await page.getByLabel("timeoutMs").inputValue(), "1000");
    await loadExample(page, "busy");
    assert.match((await toolSchema(page)).function.description, /^Keep the CPU busy/);

    await loadExample(page, "several");
    assert.deepEqual(await schemaListNames(page), ["add", "pay", "get_weather"]);
    assert.equal(await page.locator("#tool-list > li").count(), 3);
    await page.locator("#schema-list-details > summary").click();
    assert.match(await page.locator("#schema-list-details > summary").textContent(), /3 tools/);
    await checkView(page, "tools-several");
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });

  test(`tools (${size}): schema mode, docstring style, strict and the add-to-branch toggle`, async () => {
    const page = await openPage(pg, { size });
    await loadExample(page, "add");
    assert.deepEqual((await toolSchema(page)).function.parameters.required, ["a", "b"]);
    await page.getByLabel("Schema mode").selectOption("accurate");
    await waitForSchema(page, (s) => s.function.parameters.required.length === 1);
    assert.deepEqual((await toolSchema(page)).function.parameters.required, ["a"], "accurate mode makes the defaulted b optional");
    assert.match(await page.locator("#tool-editor").textContent(), /accurate: parameters with a default are optional/);
    await page.getByLabel("Schema mode").selectOption("lionagi");
    await waitForSchema(page, (s) => s.function.parameters.required.length === 2);

    const rest = "function greet(name) {\n  /** Greet someone.\n   *\n   * :param name: who to greet\n   */\n  return `hi ${name}`;\n}";
    await page.locator("#tool-editor textarea").fill(rest);
    await waitForSchema(page, (s) => s.function.name === "greet");
    assert.equal((await toolSchema(page)).function.parameters.properties.name.description, null, "a reST docstring read as Google has no parameter descriptions");
    await page.getByLabel("Docstring style").selectOption("rest");
    await waitForSchema(page, (s) => s.function.parameters.properties.name.description !== null);
    assert.equal((await toolSchema(page)).function.parameters.properties.name.description, "who to greet");

    await loadExample(page, "pay");
    assert.notEqual((await toolSchema(page)).function.strict, true);
    await page.getByLabel(/^strict: function\.strict/).check();
    await waitForSchema(page, (s) => s.function.strict === true);

    await page.locator("#example-add-mode").check();
    await page.locator('[data-example="weather"]').click();
    assert.deepEqual(await schemaListNames(page), ["pay", "get_weather"], "the toggle adds the example to the branch");
    assert.equal(await page.locator('#tool-list > li[aria-current="true"]').getAttribute("data-index"), "1");
    assert.deepEqual(page.errors, []);
    await checkView(page, "tools-modes");
    await closePage(page);
  });

  test(`tools (${size}): add, select and remove tools; a name collision is shown`, async () => {
    const page = await openPage(pg, { size });
    await loadExample(page, "add");
    await page.getByRole("button", { name: "Add a JSON Schema tool" }).click();
    assert.equal(await page.locator("#tool-list > li").count(), 2);
    assert.equal(await page.locator('#tool-list > li[aria-current="true"]').getAttribute("data-index"), "1");
    assert.equal(await page.getByLabel("Name", { exact: true }).inputValue(), "tool_1");
    assert.deepEqual(await schemaListNames(page), ["add", "tool_1"]);

    await page.getByRole("button", { name: "Add a function" }).click();
    assert.deepEqual(await schemaListNames(page), ["add", "tool_1", "tool_2"]);
    await page.locator("#tool-editor textarea").fill("function add(x) {\n  return x;\n}");
    await page.waitForFunction(() => document.querySelector('#tool-list > li[data-index="2"]')?.dataset.state === "collision");
    assert.match(await page.locator("#tool-collisions").textContent(), /tool 3 is also named "add", which tool 1 already has/);
    assert.match(await page.locator('#tool-list > li[data-index="2"] .badge').textContent(), /name taken/);
    assert.deepEqual(await schemaListNames(page), ["add", "tool_1"], "the colliding tool is not in the branch");
    assert.match(await page.locator("#provider-left-out").textContent(), /tool 3 \(add\) has a name an earlier tool has/);
    await checkView(page, "tools-collision");

    await page.getByRole("button", { name: "Remove tool 1 (add)" }).click();
    assert.equal(await page.locator("#tool-list > li").count(), 2);
    assert.equal(await page.locator("#tool-collisions").textContent(), "");
    assert.deepEqual(await schemaListNames(page), ["tool_1", "add"], "once the first add is gone the other one is in the branch");

    await page.locator('#tool-list > li[data-index="0"] .tool-pick').click();
    assert.equal(await page.locator('#tool-list > li[aria-current="true"]').getAttribute("data-index"), "0");
    assert.equal(await page.getByLabel("Name", { exact: true }).inputValue(), "tool_1");

    await loadExample(page, "collision");
    assert.match(await page.locator("#tool-collisions").textContent(), /tool 2 is also named "add"/);
    assert.deepEqual(await schemaListNames(page), ["add"]);
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });

  test(`tools (${size}): a build error is shown in place and the tool is marked failed`, async () => {
    const page = await openPage(pg, { size });
    await loadExample(page, "add");
    const source = page.locator("#tool-editor textarea");
    await source.fill("function add(a, b) {\n  return a + ;\n}");
    await page.waitForFunction(() => document.querySelector('#tool-list > li[data-index="0"]')?.dataset.state === "failed");
    assert.equal(await source.getAttribute("aria-invalid"), "true");
    assert.match(await errorFor(page, source), /SyntaxError/);
    assert.match(await page.locator('#tool-list > li[data-index="0"] .badge').textContent(), /failed/);
    assert.match(await page.locator("#tool-schema").textContent(), /did not build/);
    assert.deepEqual(await schemaListNames(page), [], "the previous tool is not kept");
    assert.deepEqual(await providerTools(page), []);
    assert.match(await page.locator("#provider-left-out").textContent(), /tool 1 did not build/);
    await checkView(page, "tools-error");

    await source.fill("function add(a, b) {\n  return a + b;\n}");
    await page.waitForFunction(() => document.querySelector('#tool-list > li[data-index="0"]')?.dataset.state === "ok");
    assert.equal(await source.getAttribute("aria-invalid"), "false");

    await loadExample(page, "pay");
    const params = page.getByLabel(/^Parameters/);
    const handler = page.getByLabel(/^Handler/);
    await params.fill("{");
    await page.waitForFunction(() => document.querySelector('#tool-list > li[data-index="0"]')?.dataset.state === "failed");
    assert.equal(await params.getAttribute("aria-invalid"), "true");
    assert.equal(await handler.getAttribute("aria-invalid"), "false");
    assert.match(await errorFor(page, params), /not JSON/);
    await params.fill('{"type": "object", "properties": {"amount": {"type": "integr"}}}');
    await page.waitForFunction(() => /invalid-schema/.test(document.querySelector('#tool-list > li[data-index="0"] .tool-error')?.textContent));
    assert.equal(await params.getAttribute("aria-invalid"), "true");
    await params.fill('{"type": "object", "properties": {"amount": {"type": "integer"}}}');
    await handler.fill("({ amount ) =>");
    await page.waitForFunction(() => /SyntaxError/.test(document.querySelector('#tool-list > li[data-index="0"] .tool-error')?.textContent));
    assert.equal(await handler.getAttribute("aria-invalid"), "true");
    assert.equal(await params.getAttribute("aria-invalid"), "false");
    assert.match(await errorFor(page, handler), /SyntaxError/);
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });

  test(`providers (${size}): each target's format, options, report and keyboard tabs`, async () => {
    const page = await openPage(pg, { size });
    await loadExample(page, "add");
    const tab = (name) => page.getByRole("tab", { name });
    assert.equal(await tab("OpenAI Chat").getAttribute("aria-selected"), "true");
    assert.equal((await providerTools(page))[0].function.name, "add");
    assert.doesNotMatch(await page.locator("#provider-tabpanel").innerText(), /^(null|undefined)$/m, "no stray null in the view");
    await tab("OpenAI Responses").click();
    assert.equal((await providerTools(page))[0].strict, false);
    await tab("Anthropic").click();
    assert.equal((await providerTools(page))[0].input_schema.type, "object");
    await tab("Gemini").click();
    assert.ok((await providerTools(page))[0].functionDeclarations[0].parametersJsonSchema);
    await page.getByLabel(/^geminiLegacy/).check();
    const legacy = (await providerTools(page))[0].functionDeclarations[0];
    assert.equal(legacy.parametersJsonSchema, undefined);
    assert.equal(legacy.parameters.type, "OBJECT");
    await checkView(page, "providers-gemini-legacy");
    await tab("MCP").click();
    assert.equal((await providerTools(page))[0].inputSchema.type, "object");

    await tab("MCP").focus();
    await page.keyboard.press("ArrowRight");
    assert.equal(await tab("OpenAI Chat").getAttribute("aria-selected"), "true", "ArrowRight wraps to the first tab");
    assert.ok(await tab("OpenAI Chat").evaluate((n) => n === document.activeElement));
    await page.keyboard.press("End");
    assert.equal(await tab("MCP").getAttribute("aria-selected"), "true");
    await page.keyboard.press("Home");
    await page.keyboard.press("ArrowRight");
    assert.equal(await tab("OpenAI Responses").getAttribute("aria-selected"), "true");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await tab("OpenAI Chat").getAttribute("aria-selected"), "true");

    await loadExample(page, "sql");
    assert.match(await page.locator("#provider-report-summary").textContent(), /No changes/);
    await page.getByLabel(/^strict \(Structured Outputs/).check();
    assert.equal((await providerTools(page))[0].function.strict, true);
    const kinds = await page.locator("#provider-report tbody tr td:nth-child(3) code").allTextContents();
    assert.ok(kinds.includes("strict-required"), `the strict report lists strict-required: ${kinds}`);
    assert.match(await page.locator("#provider-report-summary").textContent(), /changes? to fit openai-chat \(strict\)/);
    await checkView(page, "providers-strict");

    await page.getByRole("button", { name: "Add a JSON Schema tool" }).click();
    await page.getByLabel("Name", { exact: true }).fill("docs.search");
    await page.waitForFunction(() => /docs\.search/.test(document.querySelector("#provider-report .renamed")?.textContent));
    const exportedName = (await providerTools(page))[1].function.name;
    assert.match(exportedName, /^docs_search_[0-9a-f]{8}$/);
    assert.match(await page.locator("#provider-report .renamed").textContent(), new RegExp(`${exportedName} stands for docs\\.search`));
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });

  test(`providers (${size}): the tool-result message of the latest invoke, marked stale when the tools change`, async () => {
    const page = await openPage(pg, { size });
    await loadExample(page, "add");
    assert.match(await page.locator("#provider-result-hint").textContent(), /Invoke a call/);
    // The call panel emits "outcome" after an invoke (results computed in its worker); here the
    // same event is made from the page's own branch, as the contract describes it.
    await page.evaluate(async () => {
      const { state, emit } = await import("/js/store.js");
      const request = { id: "call_1", type: "function", function: { name: "add", arguments: '{"a": 1, "b": 2}' } };
      const fc = await state.built.branch.invoke(request);
      const results = {};
      for (const t of ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"]) {
        try {
          results[t] = state.tg.toolResult(fc, t);
        } catch (e) {
          results[t] = { error: `${e.code}: ${e.message}` };
        }
      }
      emit("outcome", { kind: "invoke", request: JSON.stringify(request), version: state.built.version, status: fc.status, record: fc.toDict(), durationMs: fc.duration, results });
    });
    const result = () => page.locator("#provider-result").textContent();
    assert.deepEqual(JSON.parse(await result()), { role: "tool", tool_call_id: "call_1", content: "3" });
    await page.getByRole("tab", { name: "Anthropic" }).click();
    const anthropic = JSON.parse(await result());
    assert.equal(anthropic.type, "tool_result");
    assert.equal(anthropic.tool_use_id, "call_1");
    assert.equal(await copiedBy(page, page.getByRole("button", { name: "Copy result" })), await result());
    assert.doesNotMatch(await page.locator("#provider-result").getAttribute("class"), /stale/);
    await checkView(page, "providers-result");

    await page.getByLabel("Schema mode").selectOption("accurate");
    await page.waitForFunction(() => document.getElementById("provider-result")?.classList.contains("stale"));
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });

  test(`copy buttons (${size}): the schema, the schemaList and the provider tools reach the clipboard`, async () => {
    const page = await openPage(pg, { size });
    await loadExample(page, "several");
    const schema = await copiedBy(page, page.getByRole("button", { name: "Copy schema" }));
    assert.equal(schema, await page.locator("#tool-schema").textContent());
    assert.equal(JSON.parse(schema).function.name, "add");
    await page.locator("#schema-list-details > summary").click();
    assert.deepEqual(JSON.parse(await copiedBy(page, page.getByRole("button", { name: "Copy schemaList" }))).map((s) => s.function.name), ["add", "pay", "get_weather"]);
    await page.getByRole("tab", { name: "Anthropic" }).click();
    assert.deepEqual(JSON.parse(await copiedBy(page, page.getByRole("button", { name: "Copy tools" }))).map((t) => t.name), ["add", "pay", "get_weather"]);
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });

  test(`copy as code (${size}): the snippet runs in Node and prints the page's verdict`, async () => {
    const page = await openPage(pg, { size });
    const file = join(consumerDir, `playground-view-${size}.mjs`);
    /** Copies the view as code, runs it, and compares its verdict and invoke status with the page's. */
    const compare = async (what) => {
      const code = await copiedBy(page, page.locator("#copy-code"));
      assert.match(code, /import \{ initialize \} from "toolgate";/);
      writeFileSync(file, code);
      const { stdout } = await run(process.execPath, [file], { cwd: consumerDir, timeout: CEILING_MS });
      const expected = await page.evaluate(async () => {
        const { state } = await import("/js/store.js");
        const v = state.built.branch.validate(state.call);
        let invoke;
        try {
          invoke = `invoke: ${(await state.built.branch.invoke(state.call)).status}`;
        } catch (e) {
          invoke = `invoke refused: ${e.code}`;
        }
        return { verdict: v.ok ? `valid: ${v.function}` : `invalid: ${v.error.code}`, invoke };
      });
      assert.match(stdout, new RegExp(`^${expected.verdict}$`, "m"), `${what}: the snippet's verdict`);
      assert.match(stdout, new RegExp(`^${expected.invoke}`, "m"), `${what}: the snippet's invoke`);
      return stdout;
    };
    try {
      await loadExample(page, "pay");
      assert.match(await compare("pay with a string amount"), /from: 'string', to: 'integer'/);
      await page.evaluate(async () => (await import("/js/store.js")).setCall('{"function": "pay", "arguments": {"amount": 0}}', "test"));
      await compare("pay with a bad amount");

      await loadExample(page, "several");
      await page.locator("#example-add-mode").check();
      await page.locator('[data-example="collision"]').click();
      await page.getByRole("button", { name: "Add a function" }).click();
      await page.locator("#tool-editor textarea").fill("function broken( {");
      await page.waitForFunction(() => document.querySelector('#tool-list > li[data-index="5"]')?.dataset.state === "failed");
      await page.getByLabel("Schema mode").selectOption("accurate");
      const out = await compare("several tools, a collision and a failed one");
      assert.match(out, /"name": "get_weather"/);
    } finally {
      rmSync(file, { force: true });
    }
    assert.deepEqual(page.errors, []);
    await closePage(page);
  });
}

test("tools: an invalid schema typed while the validator module is still downloading shows its invalid-schema reason once it arrives", async () => {
  let release, seen;
  const released = new Promise((r) => (release = r));
  const requested = new Promise((r) => (seen = r));
  // a slow download of toolgate-validator.wasm, held by the test until the schema has been typed
  const route = (page) => page.route(/toolgate-validator\.wasm$/, async (r) => {
    seen();
    await released;
    await r.continue();
  });
  const page = await openPage(pg, { route });
  try {
    await requested;
    await loadExample(page, "pay");
    const params = page.getByLabel(/^Parameters/);
    await params.fill('{"type": "object", "properties": {"amount": {"type": "integr"}}}');
    await page.waitForFunction(() => /still downloading/.test(document.querySelector('#tool-list > li[data-index="0"] .tool-error')?.textContent));
    release();
    await page.waitForFunction(() => /invalid-schema/.test(document.querySelector('#tool-list > li[data-index="0"] .tool-error')?.textContent));
    assert.equal(await params.getAttribute("aria-invalid"), "true");
    assert.deepEqual(page.errors, []);
  } finally {
    release();
    await closePage(page);
  }
});
