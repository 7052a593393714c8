// The validator module (toolgate-validator.wasm): the core and full modules are built without the
// full JSON Schema validator and load it only for schemas outside their fast path. initialize()
// returns one instance per process, so each mode runs in a fresh Node process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { tg, tgCore } from "./helpers.mjs";

/** Runs `body` (an async function's text, given tg) in a fresh process after initialize(opts); returns what it prints as JSON. */
function fresh(entry, opts, body) {
  const src = `import { initialize } from ${JSON.stringify(entry)};
    const tg = await initialize(${JSON.stringify(opts)});
    const out = await (async (tg) => { ${body} })(tg);
    console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8" }));
}

const covered = { type: "object", properties: { x: { type: "integer", minimum: 1 } }, required: ["x"] };
const outside = { type: "object", properties: { x: { not: { type: "string" } } } };
const tryTool = `(s) => { try { const t = tg.tool({ name: "t", parameters: s, handler: (a) => a });
  return tg.branch({ tools: [t] }).validate({ function: "t", arguments: { x: "s" } }); } catch (e) { return { thrown: e.code, message: e.message }; } }`;

test("schemas outside the fast path validate through the validator module, with its issues", () => {
  for (const api of [tg, tgCore]) {
    const b = api.branch({ tools: [api.tool({ name: "n", parameters: outside, handler: (a) => a })] });
    const r = b.validate({ function: "n", arguments: { x: "s" } });
    assert.equal(r.ok, false);
    assert.deepEqual(r.error.issues, [{ path: "/x", keyword: "not", message: "field /x: not failed" }]);
    assert.equal(b.validate({ function: "n", arguments: { x: 1 } }).ok, true);
    assert.throws(() => api.tool({ name: "bad", parameters: { properties: { x: { not: {}, minLength: -1 } } }, handler: () => 0 }),
      (e) => e.code === "invalid-schema" && e.issues[0].path === "/properties/x/minLength");
  }
});

test('validator: "never" refuses schemas outside the fast path with unsupported, and only those', () => {
  for (const entry of ["toolgate", "toolgate/core"]) {
    const out = fresh(entry, { validator: "never" }, `const f = ${tryTool}; return [f(${JSON.stringify(covered)}), f(${JSON.stringify(outside)})];`);
    assert.equal(out[0].ok, false);
    assert.equal(out[0].error.issues[0].keyword, "type");
    assert.equal(out[1].thrown, "unsupported");
    assert.match(out[1].message, /full JSON Schema validator/);
  }
});

test('validator: "eager" and "lazy" give the same verdicts', () => {
  for (const mode of ["eager", "lazy"]) {
    const out = fresh("toolgate/core", { validator: mode }, `const f = ${tryTool}; return f(${JSON.stringify(outside)});`);
    assert.equal(out.ok, false, mode);
    assert.equal(out.error.issues[0].keyword, "not", mode);
  }
});

test("initialize checks the validator options", () => {
  const out = fresh("toolgate/core", undefined, "return 0;");
  assert.equal(out, 0);
  const src = `import { initialize } from "toolgate/core";
    const codes = [];
    for (const o of [{ validator: "sometimes" }, { validatorModule: 5 }]) await initialize(o).then(() => codes.push("ok"), (e) => codes.push(e.code));
    console.log(JSON.stringify(codes));`;
  assert.deepEqual(JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", src], { encoding: "utf8" })), ["unsupported-type", "unsupported-type"]);
});
