import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, tgCore, expectCode } from "./helpers.mjs";

function add(a, b) {
  return a + b;
}

const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];

/** The declarations of an export, whatever the target's wrapping. */
function declarations(target, tools) {
  return target === "gemini" ? tools.flatMap((t) => t.functionDeclarations) : tools;
}

/** The name and parameters schema of one declaration. */
function nameAndSchema(target, d) {
  if (target === "openai-chat") return [d.function.name, d.function.parameters];
  const key = { "openai-responses": "parameters", anthropic: "input_schema", gemini: "parametersJsonSchema", mcp: "inputSchema" }[target];
  return [d.name, d[key]];
}

/** Every key of a JSON value whose value is null, as paths. */
function nullKeys(v, path = "") {
  if (v === null || typeof v !== "object") return [];
  return Object.entries(v).flatMap(([k, x]) => (x === null ? [`${path}/${k}`] : nullKeys(x, `${path}/${k}`)));
}

for (const [label, api] of [["full", tg], ["core", tgCore]]) {
  for (const target of TARGETS) {
    test(`${label}: toProvider(branch, ${target}) writes provider-clean tools, a report, and names that map back`, () => {
      const search = api.tool({ name: "docs.search v2", description: "Search the docs.", parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, handler: () => "" });
      const b = api.branch({ tools: [add, search] });
      const { tools, report } = api.toProvider(b, target);
      assert.equal(report.target, target);
      assert.equal(report.strict, false);
      const decls = declarations(target, tools);
      assert.equal(decls.length, 2);
      assert.deepEqual(nullKeys(tools), [], "no null-valued key anywhere");
      const [addName, addSchema] = nameAndSchema(target, decls[0]);
      assert.equal(addName, "add");
      assert.equal(addSchema.type, "object");
      assert.ok(!("description" in (target === "openai-chat" ? decls[0].function : decls[0])), "no description key when there is none");
      const [searchName] = nameAndSchema(target, decls[1]);
      assert.notEqual(searchName, "docs.search v2");
      assert.equal(report.names[searchName], "docs.search v2");
      assert.equal(report.names.add, "add");
      assert.ok(report.changes.some((c) => c.kind === "name-rewritten" && c.tool === "docs.search v2"));
      assert.ok(report.changes.some((c) => c.kind === "null-removed" && c.tool === "add" && c.path === "/properties/a/description"));
      // the rewritten name resolves on the way back
      const fc = b.match({ function: searchName, arguments: { q: "x" } });
      assert.equal(fc.function, "docs.search v2");
      assert.deepEqual(b.validate({ function: searchName, arguments: { q: "x" } }), { ok: true, function: "docs.search v2", arguments: { q: "x" } });
    });
  }
}

test("toProvider takes one Tool, a function, or a list of them; the branch's schemaList stays LionAGI-exact", () => {
  const b = tg.branch({ tools: [add] });
  const before = b.schemaList;
  const one = tg.toProvider(add, "anthropic");
  assert.deepEqual(one.tools, [{ name: "add", input_schema: { type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, required: ["a", "b"] } }]);
  assert.deepEqual(tg.toProvider([tg.tool(add)], "anthropic").tools, one.tools);
  assert.deepEqual(tg.toProvider(tg.tool(add), "anthropic").tools, one.tools);
  tg.toProvider(b, "openai-chat");
  assert.deepEqual(b.schemaList, before);
  assert.equal(b.schemaList[0].function.description, null);
});

test("a tool without parameters exports an empty object schema", () => {
  const ping = tg.tool({ name: "ping", handler: () => "pong" });
  const { tools } = tg.toProvider(ping, "openai-responses");
  assert.deepEqual(tools[0].parameters, { type: "object", properties: {} });
  assert.equal(tools[0].strict, false);
});

test("toProvider refuses an unknown target, an unknown option, and options the target has not", () => {
  expectCode(assert, () => tg.toProvider(add, "cohere"), "invalid-request");
  expectCode(assert, () => tg.toProvider(add, "openai-chat", { strickt: true }), "unsupported-type");
  expectCode(assert, () => tg.toProvider(add, "anthropic", { strict: true }), "invalid-request");
  expectCode(assert, () => tg.toProvider(add, "openai-chat", { geminiLegacy: true }), "invalid-request");
  expectCode(assert, () => tg.toProvider(42, "mcp"), "unsupported-type");
  expectCode(assert, () => tg.toProvider([add, "add"], "mcp"), "unsupported-type");
});
