import { test } from "node:test";
import assert from "node:assert/strict";
import { toolSet } from "toolgate/ai-sdk";
import { tg, tgCore, expectCode, fixtures, fnFrom } from "./helpers.mjs";

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

test("the package's targets and statuses are Go's: each target exports and writes a result, each finished status answers", async () => {
  const contract = await import(new URL("./lib/contract.js", import.meta.resolve("toolgate")));
  assert.deepEqual(contract.PROVIDER_TARGETS, TARGETS, "the targets generated from provider.Targets are the ones these tests cover");
  const b = tg.branch({ tools: [tg.tool(add)] });
  const fc = await b.invoke({ function: "add", arguments: { a: 1, b: 2 }, id: "call_1" });
  assert.equal(fc.status, contract.STATUS.completed);
  for (const target of contract.PROVIDER_TARGETS) {
    assert.equal(tg.toProvider(add, target).report.target, target);
    assert.ok(tg.toolResult(fc, target), `toolResult writes ${target}`);
  }
  assert.deepEqual(Object.keys(contract.STATUS), ["pending", "processing", "completed", "failed", "skipped", "cancelled", "aborted"]);
  assert.ok(!contract.FINISHED_STATUSES.includes(contract.STATUS.pending) && contract.FINISHED_STATUSES.includes(contract.STATUS.aborted));
});

test("toProvider refuses an unknown target, an unknown option, and options the target has not", () => {
  assert.equal(expectCode(assert, () => tg.toProvider(add, "cohere"), "invalid-request").issues[0].keyword, "target");
  assert.equal(expectCode(assert, () => tg.toProvider(add, "mcp", { strict: true }), "invalid-request").issues[0].keyword, "strict", "Go's refusal names the option");
  expectCode(assert, () => tg.toProvider(add, "openai-chat", { strickt: true }), "unsupported-type");
  expectCode(assert, () => tg.toProvider(add, "anthropic", { strict: true }), "invalid-request");
  expectCode(assert, () => tg.toProvider(add, "openai-chat", { geminiLegacy: true }), "invalid-request");
  expectCode(assert, () => tg.toProvider(42, "mcp"), "unsupported-type");
  expectCode(assert, () => tg.toProvider([add, "add"], "mcp"), "unsupported-type");
});

test("strict export: a call with nulls for the optional fields reaches the handler without them; a rewritten name resolves", async () => {
  const seen = [];
  const book = tg.tool({
    name: "book.room",
    description: "Book a room.",
    parameters: {
      type: "object",
      properties: {
        room: { type: "string" },
        nights: { type: "integer" },
        guest: { type: "object", properties: { name: { type: "string" }, email: { type: "string" } }, required: ["name"] },
      },
      required: ["room"],
    },
    handler: (args) => {
      seen.push(args);
      return "ok";
    },
  });
  const b = tg.branch({ tools: [book] });
  const { tools, report } = tg.toProvider(b, "openai-chat", { strict: true });
  assert.equal(report.strict, true);
  const fn = tools[0].function;
  assert.equal(fn.strict, true);
  assert.equal(fn.parameters.additionalProperties, false);
  assert.deepEqual([...fn.parameters.required].sort(), ["guest", "nights", "room"]);
  assert.equal(report.names[fn.name], "book.room");
  const call = { id: "call_1", type: "function", function: { name: fn.name, arguments: JSON.stringify({ room: "101", nights: null, guest: { name: "Ada", email: null } }) } };
  for (let i = 0; i < 3; i++) {
    // several times: the JS evaluator must never answer for this tool
    assert.deepEqual(b.validate(call), { ok: true, function: "book.room", arguments: { room: "101", guest: { name: "Ada" } } });
    const plain = b.validate({ function: fn.name, arguments: { room: "101", nights: null } });
    assert.deepEqual(plain, { ok: true, function: "book.room", arguments: { room: "101" } });
  }
  assert.equal(b._evaluated, 0, "the JS evaluator stepped aside for the exported tool");
  const fc = await b.invoke(call);
  assert.equal(fc.status, "completed");
  assert.deepEqual(seen, [{ room: "101", guest: { name: "Ada" } }]);
  // a clone keeps the aliases and restores
  assert.deepEqual(b.clone().validate(call).arguments, { room: "101", guest: { name: "Ada" } });
});

test("a later export without strict keeps what the strict export told the model: its nulls are still removed", async () => {
  const memoParams = { type: "object", properties: { text: { type: "string" }, memo: { type: "string" } }, required: ["text"] };
  const strictFirst = [
    ["tg.toProvider(openai-chat, strict)", (b) => tg.toProvider(b, "openai-chat", { strict: true }).tools[0].function.name],
    ["ai-sdk toolSet(strict)", (b) => Object.keys(toolSet(b, { strict: true }))[0]],
  ];
  for (const [how, exportStrict] of strictFirst) {
    const seen = [];
    const note = tg.tool({ name: "note", parameters: memoParams, handler: (args) => (seen.push(args), "ok") });
    const b = tg.branch({ tools: [note] });
    const name = exportStrict(b);
    tg.toProvider(b, "anthropic"); // the second export, the strict one still live
    tg.toProvider(b, "openai-responses");
    const call = { id: "call_1", type: "function", function: { name, arguments: JSON.stringify({ text: "hi", memo: null }) } };
    for (let i = 0; i < 3; i++) {
      // several times: the JS evaluator must not answer for it either
      const r = b.validate(call);
      assert.equal(r.ok, true, `${how}: ${r.error?.message}`);
      assert.deepEqual(r.arguments, { text: "hi" }, how);
      assert.deepEqual(b.validate({ function: "note", arguments: { text: "hi", memo: null } }).arguments, { text: "hi" }, how);
    }
    const fc = await b.invoke({ type: "tool_use", id: "tu_1", name: "note", input: { text: "hi", memo: null } });
    assert.equal(fc.status, "completed", how);
    assert.deepEqual(seen, [{ text: "hi" }], how);
    assert.deepEqual(b.clone().validate(call).arguments, { text: "hi" }, `${how}: a clone keeps the restore`);
    // a tool registered again under the name was never exported strict: its nulls are validated as sent
    b.register(tg.tool({ name: "note", parameters: memoParams, handler: () => "ok" }), { update: true });
    assert.equal(b.validate(call).ok, false, `${how}: the replaced tool's restore went with it`);
  }
});

test("a zod tool's $schema and .int() safe-integer bounds are left out of every provider export, each reported; MCP keeps them", async () => {
  const { z } = await import("zod");
  const count = tg.tool({
    name: "count",
    parameters: z.object({ n: z.number().int(), from: z.number().int().min(0), small: z.int32(), note: z.string().optional() }),
    handler: ({ n }) => n,
  });
  const MAX = 9007199254740991;
  const paramsOf = (target, tools) =>
    ({ "openai-chat": () => tools[0].function.parameters, "openai-responses": () => tools[0].parameters, anthropic: () => tools[0].input_schema, gemini: () => tools[0].functionDeclarations[0].parametersJsonSchema ?? tools[0].functionDeclarations[0].parameters, mcp: () => tools[0].inputSchema })[target]();
  const variants = [["openai-chat"], ["openai-chat", { strict: true }], ["openai-responses", { strict: true }], ["anthropic"], ["gemini"], ["gemini", { geminiLegacy: true }], ["mcp"]];
  for (const [target, opts] of variants) {
    const how = `${target} ${JSON.stringify(opts ?? {})}`;
    const { tools, report } = tg.toProvider(count, target, opts);
    const params = paramsOf(target, tools);
    const dropped = report.changes.filter((c) => c.kind === "keyword-dropped").map(({ tool, path, keyword }) => ({ tool, path, keyword }));
    if (target === "mcp") {
      assert.equal(params.$schema, "https://json-schema.org/draft/2020-12/schema", how);
      assert.deepEqual([params.properties.n.minimum, params.properties.n.maximum], [-MAX, MAX], how);
      assert.deepEqual(dropped, [], how);
      continue;
    }
    assert.equal("$schema" in params, false, how);
    assert.equal("minimum" in params.properties.n || "maximum" in params.properties.n, false, `${how}: zod's defaults`);
    assert.equal("maximum" in params.properties.from, false, how);
    assert.equal(Number(params.properties.from.minimum), 0, `${how}: the tool's own bound stays`);
    assert.equal(Number(params.properties.small.maximum), 2147483647, `${how}: int32's bounds stay`);
    assert.deepEqual(dropped, [
      { tool: "count", path: "/$schema", keyword: "$schema" },
      { tool: "count", path: "/properties/n/minimum", keyword: "minimum" },
      { tool: "count", path: "/properties/n/maximum", keyword: "maximum" },
      { tool: "count", path: "/properties/from/maximum", keyword: "maximum" },
    ], how);
  }
  // the registered schema still holds the bounds: toolgate enforces them locally
  const b = tg.branch({ tools: [count] });
  tg.toProvider(b, "openai-chat");
  assert.equal(b.validate({ function: "count", arguments: { n: MAX, from: 1, small: 1 } }).ok, true);
  const r = b.validate({ function: "count", arguments: { n: MAX + 1, from: 1, small: 1 } });
  assert.equal(r.ok, false);
  assert.equal(r.error.issues[0].path, "/n");
});

test("strict export of the Responses API sets strict on each tool; a schema strict cannot express is exported loose and reported", () => {
  const ok = tg.tool({ name: "ok", parameters: { type: "object", properties: { a: { type: "string" } } }, handler: () => 1 });
  const loose = tg.tool({ name: "loose", parameters: { type: "object", properties: { a: { not: { type: "string" } } } }, handler: () => 1 });
  const { tools, report } = tg.toProvider([ok, loose], "openai-responses", { strict: true });
  assert.equal(tools[0].strict, true);
  assert.equal(tools[1].strict, false);
  assert.ok(report.changes.some((c) => c.tool === "loose" && c.kind === "strict-refused"));
});

/** A fixture tool as a user builds it: a raw function from its source, a whole schema, or a typed tool. */
function fixtureTool(api, spec) {
  if (spec.raw) return api.tool(fnFrom(spec.raw.source));
  const opts = { handler: () => null };
  for (const k of ["name", "description", "parameters", "schema"]) if (spec[k] !== undefined) opts[k] = spec[k];
  if (opts.schema && !opts.name) opts.name = spec.schema.function.name;
  return api.tool(opts);
}

/** The report without its messages (prose), as the fixtures hold it. */
function reportData(report) {
  return { strict: report.strict, changes: report.changes.map(({ message, ...c }) => c), names: report.names };
}

for (const { file, data } of fixtures("providers/export")) {
  for (const [variant, want] of Object.entries(data.exports)) {
    test(`export fixture ${file}: ${variant} from the package equals Go's`, () => {
      const [target, opt] = variant.split("+");
      const opts = opt === "strict" ? { strict: true } : opt === "legacy" ? { geminiLegacy: true } : undefined;
      const tools = data.tools.map((spec) => fixtureTool(tg, spec));
      const got = tg.toProvider(tools, target, opts);
      assert.deepEqual(got.tools, want.tools);
      assert.deepEqual(reportData(got.report), { strict: want.strict, changes: want.changes, names: want.names });
      assert.equal(got.report.target, target);
      // the same tools exported as a branch give the same tools, and each exported name resolves
      const b = tg.branch({ tools });
      const again = tg.toProvider(b, target, opts);
      assert.deepEqual(again.tools, want.tools);
      for (const [exported, registered] of Object.entries(again.report.names)) {
        const r = b.validate({ function: exported, arguments: {} });
        if (r.ok) assert.equal(r.function, registered);
        else assert.notEqual(r.error.code, "tool-not-found", `${exported} does not resolve`);
      }
    });
  }
}

test("a strict export leaves the JS evaluator to tools it changed nothing for", () => {
  const all = tg.tool({ name: "all_required", parameters: { type: "object", properties: { a: { type: "string" } }, required: ["a"] }, handler: () => 1 });
  const opt = tg.tool({ name: "optional", parameters: { type: "object", properties: { a: { type: "string" } } }, handler: () => 1 });
  const b = tg.branch({ tools: [all, opt] });
  tg.toProvider(b, "openai-chat", { strict: true });
  for (let i = 0; i < 3; i++) {
    assert.equal(b.validate({ function: "all_required", arguments: { a: "x" } }).ok, true);
    assert.deepEqual(b.validate({ function: "optional", arguments: { a: null } }), { ok: true, function: "optional", arguments: {} });
  }
  assert.ok(b._evaluated >= 2, `got ${b._evaluated} evaluated, want the unchanged tool answered in JS`);
  const other = tg.branch({ tools: [opt] });
  assert.equal(other.validate({ function: "optional", arguments: { a: null } }).ok, false, "another branch never exported keeps LionAGI's rules");
});

test("after the instance restarts, a branch's exports still resolve names and remove strict mode's nulls", () => {
  const debug = tg[Symbol.for("toolgate.debug")];
  const book = tg.tool({ name: "book.room", parameters: { type: "object", properties: { room: { type: "string" }, nights: { type: "integer" } }, required: ["room"] }, handler: () => "ok" });
  const b = tg.branch({ tools: [book] });
  const name = tg.toProvider(b, "openai-responses", { strict: true }).tools[0].name;
  const call = { type: "function_call", call_id: "c1", name, arguments: '{"room":"1","nights":null}' };
  assert.deepEqual(b.validate(call).arguments, { room: "1" });
  assert.throws(() => debug.exit(), (e) => e.code === "internal");
  const r = b.validate(call);
  assert.equal(r.ok, true, r.error?.message);
  assert.equal(r.function, "book.room");
  assert.deepEqual(r.arguments, { room: "1" });
});
