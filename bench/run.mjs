// make bench: every figure of the speed issue, each in its own Node process
// (so one figure's GC and JIT state do not leak into another), run from
// .build/consumer against the packed package. Prints one table and writes
// the report (`--report FILE`, default bench/report.json here):
// {machine, results: [{id, figure, name, unit, toolgate, peer, peerValue, ratio, goal?, note?}], failures}.
// `--only FIGURE[,FIGURE…]` runs only those figure scripts (by file name, .mjs optional) and
// writes a report only when `--report` is given, so a partial run never replaces the full one:
//   node bench/run.mjs --only mcp-modern-register,mcp-modern-rtt
import { execFileSync } from "node:child_process";
import { writeFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import os from "node:os";
import { performance } from "node:perf_hooks";
import { BENCH_DIR, runNode, parseRows, packageDir } from "./common.mjs";
import { GOALS } from "./goals.mjs";
import { markdownTable, machineLine } from "./table.mjs";

/** The figure scripts, in the order of the speed issue; the options are runNode's. */
const FIGURES = [
  ["validate.mjs"], // 1
  ["validate-small.mjs"], // 2
  ["invoke.mjs"], // 3
  ["cold-workload.mjs"], // 4
  ["registry.mjs"], // 5
  ["tool-search.mjs"], // issue 24: tool search over 10,000 deferred tools
  ["mcp-rtt.mjs"], // 6
  ["mcp-parallel.mjs"],
  ["mcp-register.mjs"],
  ["mcp-modern-register.mjs"],
  ["mcp-modern-rtt.mjs"],
  ["mcp-storm.mjs"], // issue 22: a hostile server's storm and flood, the event loop meanwhile
  ["cold-node.mjs"], // 7
  ["cold-browser.mjs"],
  ["size.mjs"], // 8
  ["playground.mjs"],
  ["memory.mjs", { execArgv: ["--expose-gc"] }], // 9
  // the validator module's soak; V8's young generation pinned at its largest, where it otherwise grows during
  // the first 100,000 validations or so (+25 MiB of RSS that is capacity, not anything kept)
  ["memory-validator.mjs", { execArgv: ["--expose-gc", "--min-semi-space-size=16", "--max-semi-space-size=16"] }],
];

const loadavg = () => os.loadavg().map((x) => x.toFixed(2)).join(" ");

function machine(start) {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model.trim() ?? "?",
    cores: cpus.length,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    go: execFileSync(process.env.GO || "go", ["version"], { encoding: "utf8" }).trim(),
    toolgate: JSON.parse(readFileSync(join(packageDir("toolgate"), "package.json"), "utf8")).version,
    date: new Date().toISOString(),
    loadAverage: { start, end: loadavg() },
  };
}

/** Runs one figure script; resolves to its rows (or records its failure). */
async function runFigure([file, opts], failures) {
  const t0 = performance.now();
  process.stderr.write(`bench: ${file} … `);
  try {
    const { rows, other } = parseRows(await runNode(join(BENCH_DIR, "figures", file), [], opts));
    for (const line of other) process.stderr.write(`\n  ${line}`);
    process.stderr.write(`${rows.length} rows, ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
    return rows;
  } catch (e) {
    process.stderr.write(`FAILED: ${e.message}\n`);
    failures.push({ figure: file, error: e.message });
    return [];
  }
}

const flag = (name) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const only = flag("--only")?.split(",").map((f) => f.replace(/\.mjs$/, "") + ".mjs");
const unknown = only?.filter((f) => !FIGURES.some(([file]) => file === f)) ?? [];
if (unknown.length) throw new Error(`bench: no figure ${unknown.join(", ")} (figures: ${FIGURES.map(([f]) => f).join(", ")})`);
const reportPath = flag("--report") ?? (only ? null : join(BENCH_DIR, "report.json"));
const start = loadavg();
const failures = [];
const results = [];
for (const f of FIGURES) if (!only || only.includes(f[0])) results.push(...(await runFigure(f, failures)));
for (const r of results) if (GOALS[r.id]) r.goal = GOALS[r.id];
const m = machine(start);
if (reportPath) writeFileSync(reportPath, JSON.stringify({ machine: m, results, failures }, null, 2) + "\n");
console.log(`\nmake bench on ${machineLine(m)}\n`);
console.log(markdownTable(results));
if (reportPath) console.log(`\nwritten: ${reportPath}`);
if (failures.length) {
  console.error(`\nmake bench: ${failures.length} figure(s) could not be measured: ${failures.map((f) => f.figure).join(", ")}`);
  process.exit(1);
}
