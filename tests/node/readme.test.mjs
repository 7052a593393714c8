// The README's ```js examples run, as a user would paste them, against the packed package.
// (```javascript blocks need a network or secrets of their own and are not run.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { fixturesDir } from "./helpers.mjs";

const readme = readFileSync(join(fixturesDir, "..", "..", "README.md"), "utf8");
// An SDK agent loop (it ends with tg.toolResult(done, target)) needs a provider: provider-sdks-docs
// runs those against its replay server.
const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]).filter((code) => !/tg\.toolResult\(done, "/.test(code));
const dir = join(dirname(fileURLToPath(import.meta.url)), "readme-examples");
mkdirSync(dir, { recursive: true });

test("the README has JavaScript examples", () => {
  assert.ok(blocks.length >= 2, `found ${blocks.length} js blocks`);
});

blocks.forEach((code, i) => {
  test(`README example ${i + 1} runs`, () => {
    const file = join(dir, `example-${i + 1}.mjs`);
    writeFileSync(file, code);
    const out = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 60000 });
    if (i === 0) assert.match(out, /completed 5/);
    if (i === 1) {
      assert.match(out, /arguments: \{ amount: 5, to: 'ann' \}/);
      assert.match(out, /invalid-arguments \[ '\/amount minimum', '\/to required' \]/);
      assert.match(out, /completed paid 5 to ann/);
    }
    if (code.includes('tg.toProvider(b, "openai-chat"')) {
      assert.match(out, /docs_search_a7e557a3 \[ 'name-rewritten', 'strict-closed', 'strict-required' \]/);
      assert.match(out, /completed top 5 for wasm/);
    }
  });
});
