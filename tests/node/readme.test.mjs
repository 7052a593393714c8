// The ```js examples of the README, and of the docs pages its long sections moved to, run as a user
// would paste them, against the packed package. (```javascript blocks need a network or secrets of
// their own and are not run.) Every relative link of those pages points at a file, and at a heading
// of it when the link names one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { fixturesDir } from "./helpers.mjs";

const root = join(fixturesDir, "..", "..");
/** The README, then the pages that hold what it used to (its "Read more" list links each). */
const PAGES = ["README.md", "docs/using.md", "docs/sdks.md", "docs/mcp.md", "docs/wasm.md", "docs/plans.md", "docs/limits.md", "docs/speed.md", "docs/paths.md", "docs/differences.md", "docs/playground.md"];
const text = Object.fromEntries(PAGES.map((page) => [page, readFileSync(join(root, page), "utf8")]));

// An SDK agent loop (it ends with tg.toolResult(done, target)) needs a provider: provider-sdks-docs
// runs those against its replay server.
const blocks = PAGES.flatMap((page) =>
  [...text[page].matchAll(/```js\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .filter((code) => !/tg\.toolResult\(done, "/.test(code))
    .map((code, i) => ({ page, code, name: `${page} example ${i + 1}` })));
const dir = join(dirname(fileURLToPath(import.meta.url)), "readme-examples");
mkdirSync(dir, { recursive: true });

/** What some examples must print, keyed by what identifies the example. */
const EXPECTED = [
  { key: 'name: "add"', want: [/completed 5/] },
  { key: 'name: "pay"', want: [/arguments: \{ amount: 5, to: 'ann' \}/, /invalid-arguments \[ '\/amount minimum', '\/to required' \]/, /completed paid 5 to ann/] },
  { key: "loadPlans(plansData)", want: [/plans: true \{ query: 'wasm', order: 'asc' \}/, /false invalid-arguments/] },
  { key: 'tg.toProvider(b, "openai-chat"', want: [/docs_search_a7e557a3 \[ 'name-rewritten', 'strict-closed', 'strict-required' \]/, /completed top 5 for wasm/] },
];

test("the README and its pages have JavaScript examples", () => {
  assert.ok(blocks.length >= 4, `found ${blocks.length} js blocks`);
  for (const { key } of EXPECTED) {
    const found = blocks.filter(({ code }) => code.includes(key)).map(({ name }) => name);
    assert.equal(found.length, 1, `examples containing ${key}: got ${found.join(", ") || "none"}, want exactly one`);
  }
  assert.ok(blocks[0].page === "README.md" && blocks[0].code.includes('name: "add"'), "the first example stays the README's first");
});

// The first thing a newcomer runs must not teach LionAGI's quirk (an untyped parameter advertised
// as a string): a model that sends exactly the types the first example's schema advertises gets
// the sum, not "23".
test("a model following the README's first schema gets the sum", () => {
  const file = join(dir, "first-example-follow-schema.mjs");
  writeFileSync(file, `${blocks[0].code}
const props = tools[0].function.parameters.properties;
const sample = { number: [2, 3], integer: [2, 3], string: ["2", "3"] };
const args = Object.fromEntries(Object.entries(props).map(([k, s], i) => [k, sample[s.type]?.[i]]));
const followed = await branch.invoke({ function: "add", arguments: args });
console.log("FOLLOWED", JSON.stringify(followed.response));
`);
  const out = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 60000 });
  assert.match(out, /FOLLOWED 5\n/);
});

blocks.forEach(({ code, name }, i) => {
  test(`${name} runs`, () => {
    const file = join(dir, `example-${i + 1}.mjs`);
    writeFileSync(file, code);
    const out = execFileSync(process.execPath, [file], { encoding: "utf8", timeout: 60000 });
    for (const { key, want } of EXPECTED) if (code.includes(key)) for (const re of want) assert.match(out, re);
  });
});

/** GitHub's anchors of a Markdown text's headings (lower case, punctuation dropped, spaces to hyphens, repeats numbered). */
function anchors(markdown) {
  const seen = new Map();
  const out = new Set();
  for (const [, heading] of markdown.replace(/```[\s\S]*?```/g, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, "").replace(/ /g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

for (const page of PAGES) {
  test(`${page}: every relative link points at a file, and at a heading of it when it names one`, () => {
    const links = [...text[page].replace(/```[\s\S]*?```/g, "").matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((href) => !/^[a-z]+:/.test(href));
    assert.ok(page !== "README.md" || links.length > 0, "the README links its docs pages");
    for (const href of links) {
      const [path, hash] = href.split("#");
      const target = path === "" ? join(root, page) : join(root, dirname(page), path);
      assert.ok(existsSync(target), `${page}: ${href}: got no file ${target}`);
      if (hash && target.endsWith(".md")) assert.ok(anchors(readFileSync(target, "utf8")).has(hash), `${page}: ${href}: got no heading #${hash}`);
    }
  });
}

test("the README links every page that holds one of its former sections", () => {
  for (const page of PAGES.slice(1)) assert.ok(text["README.md"].includes(`](${page})`), `README.md does not link ${page}`);
});
