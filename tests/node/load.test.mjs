import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { initialize, ToolgateError } from "toolgate";
import { initialize as initializeCore } from "toolgate/core";
import { tg, tgCore } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(require.resolve("toolgate/package.json"), "utf8"));

test("initialize returns one instance per build, with the package version", async () => {
  assert.equal(await initialize(), tg);
  assert.equal(await initializeCore(), tgCore);
  assert.notEqual(tg, tgCore);
  assert.equal(tg.version, pkg.version);
  assert.equal(tgCore.version, pkg.version);
  assert.equal(tg.flavor, "full");
  assert.equal(tgCore.flavor, "core");
});

test("the named ToolgateError export is the class errors are made of", () => {
  assert.equal(tg.ToolgateError, ToolgateError);
  try {
    tg.tool(42);
    assert.fail("no throw");
  } catch (e) {
    assert.ok(e instanceof ToolgateError);
    assert.equal(e.code, "invalid-tool");
  }
});

test("isInstance recognises errors across module systems and realms", async () => {
  const cjs = require("toolgate");
  const e = new ToolgateError("timeout", "x");
  assert.ok(cjs.ToolgateError.isInstance(e));
  assert.ok(e instanceof cjs.ToolgateError);
  const fake = { code: "timeout", message: "x" };
  assert.equal(ToolgateError.isInstance(fake), false);
  const vm = await import("node:vm");
  const other = vm.runInNewContext(`(() => { const m = Symbol.for("toolgate.ToolgateError"); const e = new Error("x"); Object.defineProperty(e, m, { get() { return true } }); return e })()`);
  assert.ok(ToolgateError.isInstance(other));
});

test("CommonJS require works", async () => {
  const cjs = require("toolgate/core");
  const t = await cjs.initialize();
  assert.equal(t, tgCore);
});

test("initialize refuses unknown options, naming the key", async () => {
  await assert.rejects(() => initialize({ wasmUrl: "x" }), (e) => e.code === "unsupported-type" && /wasmUrl/.test(e.message));
});

test("the package ships no build-only files and no Go sources", () => {
  for (const f of pkg.files) assert.doesNotMatch(f, /\.go$|^src\//);
  assert.equal(pkg.type, "module");
  assert.equal(pkg.sideEffects, false);
  assert.equal(Object.keys(pkg.exports["."])[0], "types");
  assert.equal(Object.keys(pkg.exports["./core"])[0], "types");
});

test("a failed initialize can be retried", async () => {
  const { pathToFileURL } = await import("node:url");
  const entry = pathToFileURL(require.resolve("toolgate")).href.replace(/index\.cjs$/, "index.node.js");
  const fresh = await import(`${entry}?retry`);
  await assert.rejects(() => fresh.initialize({ wasmURL: new URL("file:///nonexistent/toolgate.wasm") }));
  const t = await fresh.initialize();
  assert.equal(typeof t.branch, "function");
});
