// Shared helpers for the Node suites: the package as users import it, and the fixtures.
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { initialize } from "toolgate";
import { initialize as initializeCore } from "toolgate/core";

export const fixturesDir = process.env.TOOLGATE_FIXTURES;

export function fixtures(sub, { raw = false } = {}) {
  const dir = join(fixturesDir, sub);
  if (!existsSync(dir)) throw new Error(`fixtures missing: ${dir}`);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => {
      const text = readFileSync(join(dir, f), "utf8");
      return raw ? { file: f, text } : { file: f, data: JSON.parse(text) };
    });
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
