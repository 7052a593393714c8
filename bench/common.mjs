// Helpers shared by the figure scripts of `make bench` (bench/figures/*.mjs):
// timing, quantiles, fresh child processes, and the rows each figure hands to
// bench/run.mjs. Benchmarks never assert times; they only check that every
// side gave the same verdicts, so that like is timed against like.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

export const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const ROWS_PREFIX = "BENCH-ROWS ";

/** The p-quantile of xs (0 ≤ p ≤ 1), by linear interpolation. */
export function quantile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const at = (s.length - 1) * p;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return s[lo] + (s[hi] - s[lo]) * (at - lo);
}

export const median = (xs) => quantile(xs, 0.5);

/** How many times to repeat a batch that took `perBatchMs` so that one sample lasts at least `minMs`. */
function repsFor(perBatchMs, minMs) {
  return Math.max(1, Math.ceil(minMs / Math.max(perBatchMs, 1e-6)));
}

/** Runs `batch` (sync or async) for at least `ms`; resolves to the ms one run took, on average. */
async function warm(batch, ms) {
  const t0 = performance.now();
  let n = 0;
  do {
    await batch();
    n++;
  } while (performance.now() - t0 < ms);
  return (performance.now() - t0) / n;
}

/**
 * µs per call of each batch of `batches` ({name: batch}; a batch makes `calls` calls and may be
 * async): each is warmed up for `warmupMs`, then the samples (each at least `minMs` long) are
 * taken in turn, one of each batch per round, so that a passing disturbance (a GC, the machine's
 * other work, a JIT tier-up) falls on all of them alike. Resolves to {name: median µs per call}.
 */
export async function usPerCallEach(batches, calls, { samples = 15, minMs = 30, warmupMs = 300 } = {}) {
  const names = Object.keys(batches);
  const reps = {};
  for (const name of names) reps[name] = repsFor(await warm(batches[name], warmupMs), minMs);
  const us = Object.fromEntries(names.map((n) => [n, []]));
  for (let s = 0; s < samples; s++) {
    for (const name of names) {
      const batch = batches[name];
      const t0 = performance.now();
      for (let r = 0; r < reps[name]; r++) await batch();
      us[name].push(((performance.now() - t0) * 1000) / (reps[name] * calls));
    }
  }
  return Object.fromEntries(names.map((n) => [n, median(us[n])]));
}

/**
 * ms of each of `calls` awaited calls of one(i), after `warmup` untimed ones: the round trips of
 * the MCP echo figures.
 */
export async function timeCalls(one, { warmup = 20, calls = 200 } = {}) {
  for (let i = 0; i < warmup; i++) await one(i);
  const ms = [];
  for (let i = 0; i < calls; i++) {
    const t0 = performance.now();
    await one(i);
    ms.push(performance.now() - t0);
  }
  return ms;
}

/** ms of CPU (user + system, every thread of this process) used since `start`, a process.cpuUsage(). */
export function cpuMsSince(start) {
  const u = process.cpuUsage(start);
  return (u.user + u.system) / 1000;
}

/** A deterministic PRNG (mulberry32): the same generated inputs on every run. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One line of the report. `ratio` is toolgate / peerValue (null without a peer value);
 * `id` is stable across runs (bench/goals.json is keyed by it).
 */
export function row({ id, figure, name, unit, toolgate, peer = null, peerValue = null, note }) {
  const ratio = peerValue ? toolgate / peerValue : null;
  const r = { id, figure, name, unit, toolgate, peer, peerValue, ratio };
  if (note) r.note = note;
  return r;
}

/** Hands a figure's rows to bench/run.mjs (one stdout line it looks for). */
export function emit(rows) {
  process.stdout.write(`${ROWS_PREFIX}${JSON.stringify(rows)}\n`);
}

/** The rows a figure's output carries, and its other lines (to show as they were). */
export function parseRows(stdout) {
  const rows = [];
  const other = [];
  for (const line of stdout.split("\n")) {
    if (line.startsWith(ROWS_PREFIX)) rows.push(...JSON.parse(line.slice(ROWS_PREFIX.length)));
    else if (line.trim()) other.push(line);
  }
  return { rows, other };
}

/**
 * Runs `node [execArgv] script args` in a fresh process from the current directory;
 * resolves to its stdout, rejects when it exits non-zero. Its stderr is shown as it comes.
 */
export function runNode(script, args = [], { execArgv = [], env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...execArgv, script, ...args], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...env } });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code, signal) => {
      if (code === 0) resolve(out);
      else reject(new Error(`${script} ${args.join(" ")} exited with ${code ?? signal}`));
    });
  });
}

/** The last line of a child's stdout, as JSON: what a fresh-process sample prints. */
export async function childJSON(script, args, opts) {
  const out = (await runNode(script, args, opts)).trim().split("\n");
  return JSON.parse(out[out.length - 1]);
}

/** The version of an installed package, found in the nearest node_modules up from the current directory. */
export function versionOf(name) {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const f = join(dir, "node_modules", name, "package.json");
    if (existsSync(f)) return JSON.parse(readFileSync(f, "utf8")).version;
    if (dirname(dir) === dir) return "?";
  }
}

/** The directory of an installed package (its package.json's folder), as versionOf finds it. */
export function packageDir(name) {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const d = join(dir, "node_modules", name);
    if (existsSync(join(d, "package.json"))) return d;
    if (dirname(dir) === dir) throw new Error(`bench: package ${name} is not installed`);
  }
}

/** The Node tests' server-everything launcher, copied beside bench/ into the consumer project. */
export async function loadServers() {
  for (const p of ["../test/mcp-servers.mjs", "../tests/node/mcp-servers.mjs"]) {
    const f = join(BENCH_DIR, p);
    if (existsSync(f)) return import(pathToFileURL(f).href);
  }
  throw new Error("bench: mcp-servers.mjs (tests/node) not found");
}

/**
 * The Node tests' era servers (tests/node/mcp-era-servers.mjs), copied beside bench/ into the
 * consumer project. Their fixtures (tests/fixtures) are not copied: TOOLGATE_FIXTURES is pointed at
 * the nearest tests/fixtures up the tree unless it is set already.
 */
export async function loadEraServers() {
  if (!process.env.TOOLGATE_FIXTURES) {
    for (let dir = BENCH_DIR; ; dir = dirname(dir)) {
      const f = join(dir, "tests", "fixtures");
      if (existsSync(join(f, "mcp-eras", "tools.json"))) {
        process.env.TOOLGATE_FIXTURES = f;
        break;
      }
      if (dirname(dir) === dir) throw new Error("bench: tests/fixtures/mcp-eras/tools.json not found");
    }
  }
  for (const p of ["../test/mcp-era-servers.mjs", "../tests/node/mcp-era-servers.mjs"]) {
    const f = join(BENCH_DIR, p);
    if (existsSync(f)) return import(pathToFileURL(f).href);
  }
  throw new Error("bench: mcp-era-servers.mjs (tests/node) not found");
}

/** A short summary of a number list for notes: "n=…, min … / max …". */
export function spread(xs, digits = 1) {
  return `n=${xs.length}, min ${Math.min(...xs).toFixed(digits)} / max ${Math.max(...xs).toFixed(digits)}`;
}
