// Shared helpers for the Node suites: the package as users import it, and the fixtures.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { initialize } from "toolgate";
import { initialize as initializeCore } from "toolgate/core";

export const fixturesDir = process.env.TOOLGATE_FIXTURES;

/** The directory tests/fixtures/<sub>; throws when TOOLGATE_FIXTURES is unset or the directory is missing. */
function fixtureDir(sub) {
  if (!fixturesDir) throw new Error("TOOLGATE_FIXTURES is not set: run the Node suites through make test-node");
  const dir = join(fixturesDir, sub);
  if (!existsSync(dir)) throw new Error(`fixtures missing: ${dir}`);
  return dir;
}

/**
 * One fixture file, tests/fixtures/<sub>/<file>: {file, data} parsed, or {file, text} with raw.
 * Throws when the file is missing or empty, so a wrong name can never pass as an empty suite.
 */
export function fixture(sub, file, { raw = false } = {}) {
  const path = join(fixtureDir(sub), file);
  if (!existsSync(path)) throw new Error(`fixture missing: ${path}`);
  const text = readFileSync(path, "utf8");
  if (text.trim() === "") throw new Error(`fixture empty: ${path}`);
  return raw ? { file, text } : { file, data: JSON.parse(text) };
}

/** Every .json file of tests/fixtures/<sub>, sorted, as fixture() reads them; throws when there are none. */
export function fixtures(sub, opts) {
  const files = readdirSync(fixtureDir(sub)).filter((f) => f.endsWith(".json")).sort();
  if (files.length === 0) throw new Error(`no fixtures in ${join(fixturesDir, sub)}`);
  return files.map((f) => fixture(sub, f, opts));
}

export const tg = await initialize();
export const tgCore = await initializeCore();

/** Makes a function from source text, as a user would have written it. */
export function fnFrom(source) {
  return (0, eval)(`(${source})`);
}

/** Asserts fn throws a ToolgateError with the code; returns it. */
export function expectCode(assert, fn, code) {
  let err;
  try {
    fn();
  } catch (e) {
    err = e;
  }
  assert.ok(err, `expected a ToolgateError ${code}, nothing was thrown`);
  assert.ok(tg.ToolgateError.isInstance(err), `expected a ToolgateError, got ${err}`);
  assert.equal(err.code, code, `got code ${err.code} (${err.message}), want ${code}`);
  return err;
}

/** The key order of a value, deep (JSON.stringify cannot write BigInts). */
export function shape(v) {
  if (Array.isArray(v)) return v.map(shape);
  if (v !== null && typeof v === "object") return Object.keys(v).map((k) => [k, shape(v[k])]);
  return typeof v;
}

/** What a caller sees of a verdict (b.validate's answer), key order included: the evaluator tests compare these. */
export function seenVerdict(r) {
  if (r.ok) return { ok: true, arguments: r.arguments, shape: shape(r.arguments), conversions: r.conversions };
  const own = {};
  for (const k of Object.keys(r.error)) own[k] = r.error[k];
  return { ok: false, isError: tg.ToolgateError.isInstance(r.error), code: r.error.code, message: r.error.message, own };
}
