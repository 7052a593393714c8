// The differential against Ajv (draft 2020-12): generated schemas and instances, toolgate's
// verdict (b.validate of a typed tool, coerce "none", every key kept) against Ajv2020's
// (fuzz/ajv-diff.mjs). Expected differences are skipped and counted per reason; every other
// disagreement is a finding: known ones are listed in fuzz/known.mjs (KNOWN_AJV).
//
//   make test-node              a fixed seed, SHORT_SCHEMAS schemas, and the ajv seed files in fuzz-seeds/
//   TOOLGATE_FUZZ_SECONDS=N     a random seed for N seconds; with TOOLGATE_FUZZ_SEEDS=dir each new
//                               category is shrunk and written into dir
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { tg, tgCore } from "./helpers.mjs";
import { Rng, caseSeed, randomSeed } from "./fuzz/prng.mjs";
import { genDiffCase, runDiffCase, DiffTally } from "./fuzz/ajv-diff.mjs";
import { readSeeds, writeSeed, shrink } from "./fuzz/seeds.mjs";
import { KNOWN_AJV, knownAjvFinding } from "./fuzz/known.mjs";

const SEEDS_DIR = fileURLToPath(new URL("./fuzz-seeds/", import.meta.url));
const SHORT_SEED = 20240612;
const SHORT_SCHEMAS = 1500;
const FUZZ_SECONDS = Number(process.env.TOOLGATE_FUZZ_SECONDS || 0);
const apiFor = (i) => (i % 2 ? tgCore : tg);

/** The counts as diagnostics; an assertion listing the findings no KNOWN_AJV entry explains. */
function report(t, tally, cases) {
  const line = (m) => [...m].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${n} × ${k}`).join("; ");
  t.diagnostic(`${cases} schemas. agree: ${line(tally.agreements)}`);
  t.diagnostic(`skipped (differ on purpose): ${line(tally.skips) || "none"}`);
  t.diagnostic(`Ajv's mistakes (shown by a check): ${line(tally.ajvBugs) || "none"}`);
  const unknown = [];
  for (const [category, f] of tally.findings) {
    const k = knownAjvFinding(category);
    if (k) t.diagnostic(`known disagreement ${k.id}: ${f.count} × ${category} (seed ${k.seed})`);
    else unknown.push(`${f.count} × ${category}\n  schema: ${JSON.stringify(f.c.schema)}\n  instance: ${JSON.stringify(f.instance)}`);
  }
  assert.equal(unknown.length, 0, `new disagreements with Ajv:\n${unknown.join("\n")}`);
}

/** The category a one-instance case falls in today, or undefined. */
function categoryOf(c, i = 0) {
  const tally = new DiffTally();
  try {
    runDiffCase(apiFor(i), c, tally);
  } catch {
    return undefined; // a shrinking step broke the case's shape
  }
  return [...tally.findings.keys()][0];
}

if (FUZZ_SECONDS > 0) {
  test(`Ajv differential: ${FUZZ_SECONDS} s, random seed`, { timeout: (FUZZ_SECONDS + 600) * 1000 }, async (t) => {
    const seed = randomSeed();
    const dir = process.env.TOOLGATE_FUZZ_SEEDS;
    t.diagnostic(`seed ${seed}`);
    const have = new Set(readSeeds(dir ?? SEEDS_DIR).filter((s) => s.kind === "ajv").map((s) => s.signature));
    const tally = new DiffTally();
    const deadline = performance.now() + FUZZ_SECONDS * 1000;
    let i = 0;
    for (; performance.now() < deadline; i++) {
      const before = new Set(tally.findings.keys());
      runDiffCase(apiFor(i), genDiffCase(new Rng(caseSeed(seed, i))), tally);
      for (const [category, f] of tally.findings) {
        if (before.has(category) || have.has(category) || knownAjvFinding(category)) continue; // known ones have their seeds
        have.add(category);
        const one = { schema: f.c.schema, instances: f.instance === undefined ? [] : [f.instance] };
        const small = await shrink(one, async (cand) => categoryOf(cand, i) === category, { budgetMs: 20000 });
        if (dir) t.diagnostic(`new seed ${writeSeed(dir, { signature: category, found: `Ajv differential, seed ${seed} index ${i}, shrunk`, c: small, kind: "ajv" })}`);
      }
    }
    report(t, tally, i);
  });
} else {
  test("Ajv differential: every KNOWN_AJV entry names a seed file", () => {
    for (const k of KNOWN_AJV) assert.ok(existsSync(`${SEEDS_DIR}${k.seed}`), `${k.id}: no seed file ${k.seed} in fuzz-seeds/`);
  });
  test("Ajv differential: the ajv seed files replay", (t) => {
    const tally = new DiffTally();
    const seeds = readSeeds(SEEDS_DIR).filter((s) => s.kind === "ajv");
    seeds.forEach((s, i) => {
      if (categoryOf(s.case, i) !== s.signature) t.diagnostic(`seed ${s.file} no longer disagrees as "${s.signature}"`);
      runDiffCase(apiFor(i), s.case, tally);
    });
    report(t, tally, seeds.length);
  });
  test(`Ajv differential: ${SHORT_SCHEMAS} schemas of seed ${SHORT_SEED}`, (t) => {
    const tally = new DiffTally();
    for (let i = 0; i < SHORT_SCHEMAS; i++) runDiffCase(apiFor(i), genDiffCase(new Rng(caseSeed(SHORT_SEED, i))), tally);
    report(t, tally, SHORT_SCHEMAS);
  });
}
