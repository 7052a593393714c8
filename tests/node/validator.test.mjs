// The validator module (toolgate-validator.wasm): the core and full modules are built without the
// full JSON Schema validator and load it only for schemas outside their fast path. initialize()
// returns one instance per process, so each mode runs in a fresh Node process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, copyFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL, fileURLToPath } from "node:url";
import { createRequire } from "node:module";
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

/** Every shape of a call to `name` with `args`, as validate takes them. */
function callShapes(name, args) {
  const text = JSON.stringify(args);
  return {
    plain: { function: name, arguments: args },
    "text arguments": { function: name, arguments: text },
    "OpenAI Chat": { id: "c1", type: "function", function: { name, arguments: text } },
    Gemini: { functionCall: { name, args } },
    JSON: JSON.stringify({ function: name, arguments: args }),
  };
}

test("a tool name holding NUL reaches the validator module whole, in every call shape", () => {
  // Local names with control characters may be refused at creation (invalid-tool); the validator
  // module's protocol must not depend on it (core's TestServeValidatorToolNames covers it alone).
  for (const [kind, parameters] of [["outside the fast path", outside], ["fast path, compiled when first needed", covered]]) {
    const name = `a\u0000b ${kind}`;
    let t;
    try {
      t = tgCore.tool({ name, parameters, handler: (a) => a });
    } catch (e) {
      assert.equal(e.code, "invalid-tool", `${kind}: got ${e.code} (${e.message}), want the tool made or its name refused`);
      continue;
    }
    const b = tgCore.branch({ tools: [t] });
    const bad = kind.startsWith("outside") ? { x: "s" } : { x: 0 };
    const keyword = kind.startsWith("outside") ? "not" : "minimum";
    for (const [shape, call] of Object.entries(callShapes(name, { x: 2 }))) {
      const r = b.validate(call);
      assert.equal(r.ok, true, `${kind}, ${shape}: got ${JSON.stringify(r.error?.code)} ${r.error?.message}, want valid`);
    }
    for (const [shape, call] of Object.entries(callShapes(name, bad))) {
      const r = b.validate(call);
      assert.equal(r.ok, false, `${kind}, ${shape}: got valid, want ${keyword} failed`);
      assert.equal(r.error.code, "invalid-arguments", `${kind}, ${shape}: got ${r.error.code} (${r.error.message})`);
      assert.equal(r.error.tool, name);
      assert.equal(r.error.issues[0].keyword, keyword, `${kind}, ${shape}`);
    }
  }
});

test('tg.ready("validator") resolves once the module is loaded and started: it no longer needs its file', () => {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-validator-"));
  try {
    const copy = join(dir, "toolgate-validator.wasm");
    const pkg = fileURLToPath(new URL("toolgate-validator.wasm", pathToFileURL(createRequire(import.meta.url).resolve("toolgate/package.json"))));
    copyFileSync(pkg, copy);
    const opts = { validatorURL: pathToFileURL(copy).href };
    const body = (warm) => `${warm ? 'await tg.ready("validator"); await tg.ready("validator");' : ""}
      (await import("node:fs")).rmSync(${JSON.stringify(copy)});
      const f = ${tryTool}; return f(${JSON.stringify(outside)});`;
    const warmed = fresh("toolgate/core", opts, body(true));
    assert.equal(warmed.ok, false, JSON.stringify(warmed));
    assert.equal(warmed.error.issues[0].keyword, "not");
    copyFileSync(pkg, copy);
    const cold = fresh("toolgate/core", opts, body(false));
    assert.equal(cold.ok, undefined, "without ready the module is read only when a schema needs it, and the file is gone");
    assert.equal(cold.thrown, "unsupported", JSON.stringify(cold));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tg.ready("validator") rejects with a ToolgateError when the mode is "never" or the module cannot be had', () => {
  const ready = `try { await tg.ready("validator"); return "resolved"; } catch (e) { return [tg.ToolgateError.isInstance(e), e.code]; }`;
  assert.deepEqual(fresh("toolgate/core", { validator: "never" }, ready), [true, "unsupported"]);
  assert.deepEqual(fresh("toolgate", { validatorURL: pathToFileURL(join(tmpdir(), "no-such-dir-toolgate", "v.wasm")).href }, ready), [true, "unsupported"]);
  assert.deepEqual(fresh("toolgate/core", undefined, `${ready.replace('"validator"', '"everything"')}`), [true, "unsupported-type"]);
  assert.deepEqual(fresh("toolgate/core", undefined, ready), "resolved");
});

test("a restarted validator module compiles a tool's schema again: its verdicts survive", () => {
  const debug = tgCore[Symbol.for("toolgate.debug")];
  const b = tgCore.branch({ tools: [tgCore.tool({ name: "restarted", parameters: outside, handler: (a) => a })] });
  assert.equal(b.validate({ function: "restarted", arguments: { x: 1 } }).ok, true);
  debug.restartValidator(); // as after a call that threw: the fresh instance holds no schema
  const r = b.validate({ function: "restarted", arguments: { x: "s" } });
  assert.equal(r.ok, false);
  assert.equal(r.error.code, "invalid-arguments", `got ${r.error.code} (${r.error.message}), want the schema's verdict`);
  assert.equal(r.error.issues[0].keyword, "not");
  assert.equal(b.validate({ function: "restarted", arguments: { x: 1 } }).ok, true);
});

test("a validator module still downloading (an http validatorURL, fetched in the background): invoke waits for it, validate says how to wait", async () => {
  const { createServer } = await import("node:http");
  const { readFileSync } = await import("node:fs");
  const { spawn } = await import("node:child_process");
  const file = readFileSync(new URL("toolgate-validator.wasm", pathToFileURL(createRequire(import.meta.url).resolve("toolgate/package.json"))));
  let release;
  const released = new Promise((r) => (release = r));
  const srv = createServer(async (req, res) => {
    await released; // a slow download: answered once the child has made its calls
    res.writeHead(200, { "content-type": "application/wasm" }).end(file);
  });
  await new Promise((r) => srv.listen(0, "127.0.0.1", r));
  try {
    const either = { type: "object", properties: { n: { anyOf: [{ type: "object", properties: { a: { type: "integer" } } }, { type: "object", properties: { b: { type: "string" } } }] } }, required: ["n"] };
    const src = `import { initialize } from "toolgate/core";
      const tg = await initialize({ validatorURL: "http://127.0.0.1:${srv.address().port}/toolgate-validator.wasm" });
      const b = tg.branch({ tools: [tg.tool({ name: "either", parameters: ${JSON.stringify(either)}, handler: ({ n }) => n.a * 2 })] });
      const v = b.validate({ function: "either", arguments: { n: { a: 4 } } });
      const call = b.invoke({ function: "either", arguments: { n: { a: 4 } } });
      console.log(JSON.stringify({ validate: v.ok ? "ok" : v.error.code + ": " + v.error.message }));
      const fc = await call;
      console.log(JSON.stringify({ status: fc.status, response: fc.response }));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", src], { stdio: ["ignore", "pipe", "inherit"] });
    const lines = [];
    let buf = "";
    child.stdout.on("data", (d) => {
      buf += d;
      for (let i; (i = buf.indexOf("\n")) >= 0; buf = buf.slice(i + 1)) {
        lines.push(JSON.parse(buf.slice(0, i)));
        if (lines.length === 1) release(); // the calls are made: let the download finish
      }
    });
    const code = await new Promise((r) => child.on("exit", r));
    assert.equal(code, 0);
    assert.match(lines[0].validate, /^unsupported: .*still downloading: invoke waits for it by itself; .*await tg\.ready\("validator"\)/);
    assert.deepEqual(lines[1], { status: "completed", response: 8 });
  } finally {
    release();
    srv.close();
  }
});
