// The JS API fuzzer: generated tools, options, requests, JS values, handler behaviours and
// signals, driven through the public API of both builds and checked against docs/contract.md
// (fuzz/oracle.mjs, fuzz/runner.mjs). Every case is reproducible from (seed, index).
//
//   make test-node                 a fixed seed, SHORT_CASES cases, and every seed file in fuzz-seeds/
//   TOOLGATE_FUZZ_SECONDS=N        fuzz mode: a random seed for N seconds; a call may take at most
//   TOOLGATE_FUZZ_SEEDS=dir        BOUND_MS; each new failure is shrunk and written into dir
//   TOOLGATE_FUZZ_CASE=seed:index  runs and prints one case; with TOOLGATE_FUZZ_SEEDS, each of its
//                                  failures is shrunk and written as a seed file
//
// Known findings (failures the library has today) are listed in fuzz/known.mjs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Rng, caseSeed, randomSeed } from "./fuzz/prng.mjs";
import { genCase } from "./fuzz/gen-case.mjs";
import { runCase, mayHang } from "./fuzz/runner.mjs";
import { readSeeds, writeSeed, shrink } from "./fuzz/seeds.mjs";
import { KNOWN, knownFinding } from "./fuzz/known.mjs";

const SEEDS_DIR = fileURLToPath(new URL("./fuzz-seeds/", import.meta.url));
const SHORT_SEED = 20240611;
const SHORT_CASES = 3000;
const BOUND_MS = 5000;
const FUZZ_SECONDS = Number(process.env.TOOLGATE_FUZZ_SECONDS || 0);

/** Failures of a run: known ones counted per KNOWN entry, unknown ones kept with their case. */
class Tally {
  known = new Map();
  unknown = new Map(); // signature → {failure, where, c}
  cases = 0;
  add(failures, where, c) {
    for (const f of failures) {
      const k = knownFinding(f.signature);
      if (k) this.known.set(k.id, (this.known.get(k.id) ?? 0) + 1);
      else if (!this.unknown.has(f.signature)) this.unknown.set(f.signature, { failure: f, where, c });
    }
  }
  /** Diagnostics for the known findings; an assertion listing the unknown ones. */
  report(t) {
    for (const [id, n] of this.known) {
      const k = KNOWN.find((e) => e.id === id);
      t.diagnostic(`known finding ${id}: ${n}× — ${k.summary} (seed ${k.seed})`);
    }
    const lines = [...this.unknown.values()].map(({ failure, where, c }) =>
      `${failure.signature}\n  at ${where}\n  detail: ${failure.detail.split("\n")[0]}\n  case: ${JSON.stringify(c).slice(0, 4000)}`);
    assert.equal(lines.length, 0, `${lines.length} new failure(s) of ${this.cases} cases:\n${lines.join("\n")}`);
  }
}

/** Case `index` of the run seeded `seed`. */
const caseAt = (seed, index) => genCase(new Rng(caseSeed(seed, index)));

if (process.env.TOOLGATE_FUZZ_CASE) {
  test(`api fuzz: case ${process.env.TOOLGATE_FUZZ_CASE}`, async (t) => {
    const [seed, index] = process.env.TOOLGATE_FUZZ_CASE.split(":").map(Number);
    const c = caseAt(seed, index);
    t.diagnostic(`case: ${JSON.stringify(c)}`);
    for (const f of await runCase(c)) {
      t.diagnostic(`${f.signature} — ${f.detail.split("\n")[0]}`);
      await keepSeed(t, f.signature, c, `seed ${seed} index ${index}, shrunk`);
    }
  });
} else if (FUZZ_SECONDS > 0) {
  test(`api fuzz: ${FUZZ_SECONDS} s, random seed`, { timeout: (FUZZ_SECONDS + 600) * 1000 }, async (t) => fuzzMode(t));
} else {
  test("api fuzz: every KNOWN entry names a seed file", () => {
    for (const k of KNOWN) assert.ok(existsSync(`${SEEDS_DIR}${k.seed}`), `${k.id}: no seed file ${k.seed} in fuzz-seeds/`);
  });
  test("api fuzz: the seed files replay", async (t) => {
    const tally = new Tally();
    for (const s of readSeeds(SEEDS_DIR).filter((x) => x.kind === undefined)) {
      const failures = await runCase(s.case);
      if (!failures.some((f) => f.signature === s.signature)) t.diagnostic(`seed ${s.file} no longer fails as "${s.signature}"`);
      tally.add(failures, `seed file ${s.file}`, s.case);
      tally.cases++;
    }
    tally.report(t);
  });
  test(`api fuzz: ${SHORT_CASES} cases of seed ${SHORT_SEED}`, async (t) => {
    const tally = new Tally();
    for (let i = 0; i < SHORT_CASES; i++) {
      const c = caseAt(SHORT_SEED, i);
      tally.add(await runCase(c), `seed ${SHORT_SEED} index ${i} (TOOLGATE_FUZZ_CASE=${SHORT_SEED}:${i})`, c);
      tally.cases++;
    }
    tally.report(t);
  });
}

/** Shrinks case c while it fails as `signature`; writes it into TOOLGATE_FUZZ_SEEDS, or prints it. */
async function keepSeed(t, signature, c, found) {
  const dir = process.env.TOOLGATE_FUZZ_SEEDS;
  const stillFails = async (cand) => (await runCase(cand, { boundMs: BOUND_MS })).some((g) => g.signature === signature);
  const small = await shrink(c, stillFails, { allowed: (cand) => !mayHang(cand) });
  if (dir) t.diagnostic(`new seed ${writeSeed(dir, { signature, found, c: small })}: ${signature}`);
  else t.diagnostic(`shrunk (set TOOLGATE_FUZZ_SEEDS to keep it): ${JSON.stringify(small)}`);
}

/** Fuzz mode: random cases until the time is up; each new signature is shrunk and written as a seed. */
async function fuzzMode(t) {
  const seed = randomSeed();
  const dir = process.env.TOOLGATE_FUZZ_SEEDS;
  t.diagnostic(`seed ${seed}${dir ? `, new seeds go to ${dir}` : " (set TOOLGATE_FUZZ_SEEDS to keep new failures)"}`);
  const haveSeed = new Set(readSeeds(dir ?? SEEDS_DIR).filter((s) => s.kind === undefined).map((s) => s.signature));
  const tally = new Tally();
  const deadline = performance.now() + FUZZ_SECONDS * 1000;
  for (let i = 0; performance.now() < deadline; i++) {
    const c = caseAt(seed, i);
    const failures = await runCase(c, { boundMs: BOUND_MS });
    tally.add(failures, `seed ${seed} index ${i} (TOOLGATE_FUZZ_CASE=${seed}:${i})`, c);
    tally.cases++;
    for (const f of failures) {
      if (haveSeed.has(f.signature) || knownFinding(f.signature)) continue; // known ones have their seeds
      haveSeed.add(f.signature);
      await keepSeed(t, f.signature, c, `fuzz mode, seed ${seed} index ${i}, shrunk`);
    }
  }
  t.diagnostic(`${tally.cases} cases`);
  tally.report(t);
}
