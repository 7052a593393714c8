// Plans (tg.buildPlans, the toolgate-plans command, toolgate/plan): a call validated from plans gets
// the answer a live branch holding the same tools gives, whatever it is (ok with the normalised
// arguments and the conversions, or the same error: code, message, tool, issues); what plans cannot
// hold is refused at build time naming the tool; a document of another shape or version is refused
// on load; and toolgate/plan runs without any WebAssembly.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, dirname } from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { loadPlans } from "toolgate/plan";
import { tg } from "./helpers.mjs";
import { Rng, caseSeed } from "./fuzz/prng.mjs";
import { genSchema } from "./fuzz/gen-schema.mjs";
import { argumentsFor, sprinkle } from "./fuzz/gen-values.mjs";
import { materialize } from "./fuzz/tagged.mjs";

const handler = (args) => args;

/**
 * Tool definitions whose schemas the fast path runs: plans must hold every one of them. The first
 * ones take coerce "none"; the others keep the default, lax coercion (conversions reported).
 */
const TOOLS = [
  { name: "add", description: "Adds two integers.", parameters: { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] }, coerce: "none" },
  {
    name: "search",
    coerce: "none",
    parameters: {
      type: "object",
      properties: {
        query: { type: "string", minLength: 1, maxLength: 20 },
        limit: { type: "integer", minimum: 1, maximum: 50 },
        order: { enum: ["asc", "desc"] },
        tags: { type: "array", items: { type: "string" }, maxItems: 3, uniqueItems: true },
        filter: { type: "object", properties: { field: { type: "string" }, exact: { type: "boolean" } }, required: ["field"], additionalProperties: false },
        at: { $ref: "#/$defs/point" },
        id: { oneOf: [{ type: "string", minLength: 1 }, { type: "integer" }] },
      },
      required: ["query"],
      $defs: { point: { type: "object", properties: { x: { type: "number" }, y: { type: "number" } }, required: ["x", "y"] } },
    },
  },
  { name: "big", coerce: "none", parameters: { type: "object", properties: { n: { type: "integer" }, list: { type: "array", items: { type: "integer" } } }, required: ["n"] } },
  { name: "count", parameters: { type: "object", properties: { n: { type: "integer", minimum: 0 }, flag: { type: "boolean" }, ratio: { type: "number" } }, required: ["n"] } },
  { name: "note", parameters: { type: "object", properties: { text: { type: "string", maxLength: 8 }, level: { enum: ["low", "high"] } }, required: ["text"] } },
];

/** Calls of the tools: valid, invalid, as JSON text, with BigInts, and ones lax coercion converts. */
const CALLS = [
  { function: "add", arguments: { a: 1, b: 2 } },
  { function: "add", arguments: '{"a": 1, "b": 2}' },
  { function: "add", arguments: { a: 1 } },
  { function: "add", arguments: { a: "1", b: 2 } },
  { function: "add", arguments: '{"a": 1.5, "b": 2}' },
  { function: "add", arguments: { a: 1, b: 2, c: 3 } },
  { function: "add", arguments: '{"a": 1, "b": 2, "a": 3}' },
  { function: "add", arguments: "{bad json" },
  { function: "search", arguments: { query: "wasm", limit: 5, order: "asc", tags: ["a", "b"], filter: { field: "f", exact: true }, at: { x: 1, y: 2.5 }, id: "k" } },
  { function: "search", arguments: { query: "", limit: 0, order: "up", tags: ["a", "a"], filter: { exact: 1, other: 2 }, at: { x: 1 }, id: 1.5 } },
  { function: "search", arguments: '{"query": "wasm", "limit": 51}' },
  { function: "search", arguments: '{"query": "ü😀", "id": 7}' },
  { function: "search", arguments: {} },
  { function: "big", arguments: { n: 12345678901234567890n, list: [1n, 2, 2n ** 70n] } },
  { function: "big", arguments: '{"n": 12345678901234567890, "list": [1, 9007199254740993]}' },
  { function: "big", arguments: { n: 1.5 } },
  { function: "count", arguments: { n: 3, flag: true, ratio: 0.5 } },
  { function: "count", arguments: { n: "3", flag: "true", ratio: "0.5" } },
  { function: "count", arguments: '{"n": "7", "flag": "false"}' },
  { function: "count", arguments: { n: -1 } },
  { function: "count", arguments: { n: "x" } },
  { function: "count", arguments: '{"n": 5.0}' },
  { function: "note", arguments: { text: "hi", level: "low" } },
  { function: "note", arguments: { text: "far too long a note", level: "mid" } },
  { function: "note", arguments: '{"text": 5}' },
];

/** Requests plans.js itself decides (their shape, or a name no plan holds): equal with any evaluator. */
const SHAPES = [
  { function: "nope", arguments: {} },
  { function: "nope", arguments: '{"a": 1}' },
  { function: "nope", arguments: "[1]" },
  { function: "add" },
  { function: "add", arguments: 5 },
  { function: "add", arguments: null },
  { function: "add", arguments: [1] },
  { function: "add", arguments: true },
  { function: "add", arguments: "[1]" },
  { function: "add", arguments: " 3 " },
  { function: "add", arguments: "" },
  { function: "add", arguments: "not json" },
  { function: "", arguments: {} },
  { function: 5, arguments: {} },
];

/** A validate answer as data to compare: the ok members, or the error's code, message and every data member. */
function view(r) {
  if (r.ok) return { ok: true, function: r.function, arguments: r.arguments, conversions: r.conversions };
  const { cause: _c, stack: _s, ...data } = { ...r.error };
  return { ok: false, code: r.error.code, message: r.error.message, data };
}

/** Whether a plan answer is the evaluator saying it cannot decide (the temporary shim's "not modelled"). */
const undecided = (r) => !r.ok && r.error.code === "unsupported";

/** Builds plans for each definition alone: {doc, planned: definitions built, refused: [name, error]}. */
function buildEach(defs) {
  const planned = [];
  const refused = [];
  for (const d of defs) {
    try {
      tg.buildPlans([d]);
      planned.push(d);
    } catch (e) {
      refused.push([d.name, e]);
    }
  }
  return { doc: tg.buildPlans(planned), planned, refused };
}

/** A call for a failure message (a hostile value is named, not read). */
function label(c) {
  try {
    return JSON.stringify(c, (_k, v) => (typeof v === "bigint" ? `${v}n` : v));
  } catch (e) {
    return `(a call JSON cannot write: ${e.message})`;
  }
}

test("plans answer as a live branch holding the same tools, wherever they answer", () => {
  const { doc, planned } = buildEach(TOOLS);
  assert.ok(planned.length >= 3, `got ${planned.length} tools planned, want the coerce "none" ones at least`);
  const plans = loadPlans(JSON.parse(JSON.stringify(doc)));
  const names = new Set(planned.map((d) => d.name));
  const b = tg.branch({ tools: planned.map((d) => tg.tool({ ...d, handler })) });
  let answered = 0;
  let total = 0;
  for (const c of CALLS.filter((c) => names.has(c.function))) {
    total++;
    const got = plans.validate(c);
    if (undecided(got)) continue; // asserted by the next test
    answered++;
    assert.deepEqual(view(got), view(b.validate(c)), label(c));
  }
  for (const c of SHAPES) assert.deepEqual(view(plans.validate(c)), view(b.validate(c)), label(c));
  console.log(`plans answered ${answered} of ${total} calls of ${planned.length} planned tools (of ${TOOLS.length})`);
});

// The calls plans leave to a live branch today (docs/plans.md): arguments text with a repeated key,
// and arguments text that is not JSON (Go's reader words both); every other call is answered.
const UNDECIDED = ['{"function":"add","arguments":"{\\"a\\": 1, \\"b\\": 2, \\"a\\": 3}"}', '{"function":"add","arguments":"{bad json"}'];

test("plans hold every fast-path tool and answer every call but the known two", () => {
  const { doc, refused } = buildEach(TOOLS);
  assert.deepEqual(refused.map(([n, e]) => `${n}: ${e.message}`), [], "tools refused at build time");
  const plans = loadPlans(doc);
  const b = tg.branch({ tools: TOOLS.map((d) => tg.tool({ ...d, handler })) });
  const undecidedCalls = CALLS.filter((c) => undecided(plans.validate(c))).map(label);
  assert.deepEqual(undecidedCalls, UNDECIDED, "calls the plans left undecided");
  for (const c of [...CALLS, ...SHAPES]) {
    if (!UNDECIDED.includes(label(c))) assert.deepEqual(view(plans.validate(c)), view(b.validate(c)), label(c));
  }
});

test("plans answer as a live branch on generated schemas and values, in both coerce modes, wherever they answer", () => {
  const tally = { schemas: 0, planned: 0, calls: 0, answered: 0 };
  for (let i = 0; i < 120; i++) {
    const rng = new Rng(caseSeed(20261203, i));
    const parameters = genSchema(rng, { depth: 3, diff: true, object: true });
    for (const coerce of ["none", "lax"]) {
      const def = { name: "t", parameters, coerce };
      let doc;
      try {
        doc = tg.buildPlans([def]);
      } catch (e) {
        if (e.code === "unsupported" || e.code === "invalid-schema") continue; // not plannable, or a schema Go refuses
        throw e;
      }
      tally.schemas++;
      const plans = loadPlans(doc);
      const b = tg.branch({ tools: [tg.tool({ ...def, handler })] });
      tally.planned++;
      for (let j = 0; j < 8; j++) {
        let args = argumentsFor(rng, parameters);
        if (rng.chance(0.2)) args = sprinkle(rng, args);
        let live;
        try {
          live = materialize(args, {});
        } catch {
          continue;
        }
        let text;
        try {
          text = JSON.stringify(live);
        } catch {
          text = undefined; // BigInts: the object form only
        }
        for (const a of text === undefined ? [live] : [live, text]) {
          const c = { function: "t", arguments: a };
          tally.calls++;
          const got = plans.validate(c);
          if (undecided(got)) continue;
          tally.answered++;
          assert.deepEqual(view(got), view(b.validate(c)), `schema ${i} (${coerce}): ${label(c)}`);
        }
      }
    }
  }
  console.log(`generated: ${tally.planned} schemas planned, plans answered ${tally.answered} of ${tally.calls} calls`);
  assert.ok(tally.planned > 0 && tally.answered > 0, "the generated cases exercised the plans");
});

test("plans list their tools and provider schemas as a branch does", () => {
  const { doc, planned } = buildEach(TOOLS);
  const plans = loadPlans(doc);
  const b = tg.branch({ tools: planned.map((d) => tg.tool({ ...d, handler })) });
  assert.deepEqual(plans.tools, [...b.tools.keys()]);
  assert.deepEqual(plans.schemaList, b.schemaList);
  assert.equal(doc.format, "toolgate-plans");
  assert.equal(doc.version, 1);
  assert.equal(doc.toolgate, tg.version);
});

test("a typed Tool plans as its definition does; a handler is optional", () => {
  const def = TOOLS[0];
  const fromTool = tg.buildPlans([tg.tool({ ...def, handler })]);
  assert.deepEqual(fromTool, tg.buildPlans([def]));
});

/** The error fn throws. */
function thrown(fn) {
  try {
    fn();
  } catch (e) {
    return e;
  }
  assert.fail("no error thrown");
}

test("what plans cannot hold is refused at build time, naming the tool and the rule", () => {
  const cases = [
    { tools: [function add(a, b) { return a + b; }], code: "unsupported", tool: "add", keyword: "planRawFunction" },
    { tools: [tg.tool(function mul(a, b) { return a * b; })], code: "unsupported", tool: "mul", keyword: "planRawFunction" },
    { tools: [TOOLS[0], { name: "code", parameters: { type: "object", properties: { s: { type: "string", pattern: "^[a-z]+$" } } } }], code: "unsupported", tool: "code", keyword: "planNotModelled" },
    { tools: [TOOLS[0], TOOLS[0]], code: "duplicate-tool", tool: "add" },
  ];
  for (const c of cases) {
    const e = thrown(() => tg.buildPlans(c.tools));
    assert.equal(e.code, c.code, e.message);
    assert.equal(e.tool, c.tool);
    if (c.keyword) assert.equal(e.issues[0].keyword, c.keyword);
  }
  assert.equal(thrown(() => tg.buildPlans("add")).code, "unsupported-type");
  assert.equal(thrown(() => tg.buildPlans([42])).code, "unsupported-type");
});

test("a document that is not plans, or of another version, is refused on load", () => {
  const good = tg.buildPlans([TOOLS[0]]);
  const edit = (f) => {
    const d = structuredClone(good);
    f(d);
    return d;
  };
  const cases = [
    [null, "unsupported-type", "planFormat"],
    ["{not json", "unsupported-type", "planFormat"],
    [{ ...good, format: "other" }, "unsupported-type", "planFormat"],
    [{ ...good, version: 2 }, "unsupported", "planVersion"],
    [{ ...good, version: 0 }, "unsupported", "planVersion"],
    [{ ...good, toolgate: "0.0.1" }, "unsupported", "planVersion"],
    [{ ...good, tools: {} }, "unsupported-type", "planShape"],
    [edit((d) => delete d.tools[0].program), "unsupported-type", "planShape"],
    [edit((d) => (d.tools[0].program.nodes = "x")), "unsupported-type", "planShape"],
    [edit((d) => (d.tools[0].program.root = 99)), "unsupported-type", "planShape"],
    [edit((d) => (d.tools[0].name = "")), "unsupported-type", "planShape"],
    [edit((d) => d.tools.push(d.tools[0])), "duplicate-tool", "planShape"],
  ];
  for (const [doc, code, keyword] of cases) {
    const e = thrown(() => loadPlans(doc));
    assert.equal(e.code, code, `${label(doc)}: ${e.message}`);
    assert.equal(e.issues[0].keyword, keyword);
  }
  assert.deepEqual(loadPlans(JSON.stringify(good)).tools, ["add"]);
});

test("plans refuse request shapes other than {function, arguments}, saying what they take", () => {
  const plans = loadPlans(tg.buildPlans([TOOLS[0]]));
  for (const r of [null, "x", [], '{"function":"add","arguments":{}}', { function: "add", arguments: {}, id: "c1" }, { type: "tool_use", name: "add", input: {} }]) {
    const got = plans.validate(r);
    assert.equal(got.ok, false);
    assert.equal(got.error.code, "invalid-request", label(r));
  }
});

const pkgDir = dirname(createRequire(import.meta.url).resolve("toolgate/package.json"));

test("the toolgate-plans command writes what tg.buildPlans returns, and refuses what it refuses", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-plans-"));
  try {
    const bin = join(pkgDir, "bin", "toolgate-plans.js");
    writeFileSync(join(dir, "tools.mjs"), `export default ${JSON.stringify(TOOLS.slice(0, 2))};\n`);
    const out = execFileSync(process.execPath, [bin, join(dir, "tools.mjs")], { encoding: "utf8" });
    assert.deepEqual(JSON.parse(out), tg.buildPlans(TOOLS.slice(0, 2)));
    execFileSync(process.execPath, [bin, join(dir, "tools.mjs"), "--out", join(dir, "plans.json")]);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, "plans.json"), "utf8")), JSON.parse(out));
    writeFileSync(join(dir, "raw.mjs"), "export const tools = [function add(a, b) { return a + b; }];\n");
    const r = spawnSync(process.execPath, [bin, join(dir, "raw.mjs")], { encoding: "utf8" });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /unsupported: .*\badd\b/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("toolgate/plan loads no WebAssembly, no loader and no Go instance", () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-plan-nowasm-"));
  try {
    const doc = tg.buildPlans([TOOLS[0]]);
    writeFileSync(join(dir, "plans.json"), JSON.stringify(doc));
    writeFileSync(
      join(dir, "hooks.mjs"),
      `import { appendFileSync } from "node:fs";\nexport async function resolve(s, c, next) { const r = await next(s, c); appendFileSync(${JSON.stringify(join(dir, "modules.txt"))}, r.url + "\\n"); return r; }\n`,
    );
    const child = `
      import { register } from "node:module";
      import { readFileSync } from "node:fs";
      register(${JSON.stringify(pathToFileURL(join(dir, "hooks.mjs")).href)});
      const used = [];
      for (const k of ["compile", "instantiate", "compileStreaming", "instantiateStreaming", "validate"]) {
        const f = WebAssembly[k];
        if (f) WebAssembly[k] = (...a) => { used.push(k); return f(...a); };
      }
      const M = WebAssembly.Module;
      WebAssembly.Module = function (...a) { used.push("Module"); return new M(...a); };
      const { loadPlans } = await import("toolgate/plan");
      const plans = loadPlans(readFileSync(${JSON.stringify(join(dir, "plans.json"))}, "utf8"));
      const r = plans.validate({ function: "add", arguments: { a: 1, b: 2 } });
      console.log(JSON.stringify({ used, ok: r.ok, go: typeof globalThis.Go }));
    `;
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", child], { encoding: "utf8", cwd: process.cwd() });
    const got = JSON.parse(out.trim().split("\n").pop());
    assert.deepEqual(got, { used: [], ok: true, go: "undefined" });
    const modules = readFileSync(join(dir, "modules.txt"), "utf8").trim().split("\n").filter((u) => u.includes("/toolgate/"));
    assert.ok(modules.some((u) => u.endsWith("/lib/plans.js")), `modules: ${modules.join(", ")}`);
    const heavy = modules.filter((u) => /\.wasm$|wasm_exec|\/lib\/(instance|initialize|load-node|load-browser|validator|api|context|host)\.js$/.test(u));
    assert.deepEqual(heavy, [], "modules toolgate/plan must not load");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The relative imports of the module at `file` (static `import … from`, `export … from` and bare `import "…"`), resolved. */
function importsOf(file) {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^\s*(?:import|export)\b[^;"]*?(?:from\s+)?"(\.{1,2}\/[^"]+)"/gm)].map((m) => join(dirname(file), m[1]));
}

for (const name of ["plan.js", "core.browser.js", "index.browser.js"]) {
  test(`${name} names its whole module graph at the top, so an unbundled browser fetches it in one round`, () => {
    const entry = join(pkgDir, name);
    const direct = new Set(importsOf(entry));
    const graph = new Set();
    const walk = (f) => {
      for (const d of importsOf(f)) if (!graph.has(d)) graph.add(d), walk(d);
    };
    walk(entry);
    const missing = [...graph].filter((f) => !direct.has(f)).map((f) => f.slice(pkgDir.length + 1));
    assert.deepEqual(missing, [], `modules of ${name}'s graph that it does not import itself`);
    assert.ok(graph.size >= 10, `the graph holds the evaluator's modules: ${graph.size}`);
  });
}
