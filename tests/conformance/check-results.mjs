// Judges one `conformance client --requirements REV -o DIR` run (make
// test-conformance; docs/conformance.md). The runner's own exit status says only
// whether a scored scenario has a FAILURE check: it ignores the client's exit
// status, a client killed on --timeout, WARNING checks and every unscored
// scenario. This fails the build when a scored scenario, or an unscored one that
// --required names (the set runs them too: extensions, added after the release),
//   - has no result (its checks.json is missing),
//   - has a FAILURE or WARNING check,
//   - or its client did not exit 0 (record-exit.mjs wrote the status; no file
//     means the client was killed, by the runner's timeout or a signal),
// and when --required names a scenario the set does not run. The set's other
// unscored scenarios are printed without failing the build.
//
// node check-results.mjs --install .build/conformance --requirements 2026-07-28 \
//   --results DIR --exits DIR --runner-exit N [--required "scenario scenario …"]
import { createRequire } from "node:module";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { parseArgs } from "node:util";

const { values: args } = parseArgs({
  options: {
    install: { type: "string" },
    requirements: { type: "string" },
    results: { type: "string" },
    exits: { type: "string" },
    "runner-exit": { type: "string" },
    required: { type: "string", default: "" },
  },
});
for (const key of ["install", "requirements", "results", "exits", "runner-exit"]) {
  if (args[key] === undefined) {
    console.error(`check-results: --${key} is required`);
    process.exit(2);
  }
}

const pkgDir = join(resolve(args.install), "node_modules/@modelcontextprotocol/conformance");
const runnerVersion = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")).version;
const { parse: parseYaml } = createRequire(join(resolve(args.install), "package.json"))("yaml");
const set = parseYaml(readFileSync(join(pkgDir, "requirements", `${args.requirements}.yaml`), "utf8"));
const scored = set.client ?? [];
const notScored = (set.not_scored ?? []).filter((e) => e.leg === "client");
const required = args.required.split(/\s+/).filter(Boolean);
const requiredSet = new Set(required);

/** scenario → its result directory: the runner names it `<scenario>-<ISO time, : and . as ->`. */
function resultDirs(root) {
  const found = new Map();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const path = join(dir, entry.name);
      const m = /^(.*)-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/.exec(entry.name);
      if (m) found.set(relative(root, join(dir, m[1])), path);
      else walk(path);
    }
  };
  if (existsSync(root)) walk(root);
  return found;
}

const dirs = resultDirs(args.results);

/** What one scenario's run came to: its checks by status, the client's exit status, what is wrong. */
function judge(scenario) {
  const dir = dirs.get(scenario);
  const r = { scenario, counts: {}, exit: null, problems: [], stderr: "" };
  const exitFile = join(args.exits, `${scenario}.exit`);
  r.exit = existsSync(exitFile) ? readFileSync(exitFile, "utf8").trim() : null;
  if (!dir || !existsSync(join(dir, "checks.json"))) {
    r.problems.push("no result: the runner wrote no checks.json (the scenario did not run to its end)");
    return r;
  }
  const checks = JSON.parse(readFileSync(join(dir, "checks.json"), "utf8"));
  for (const c of checks) r.counts[c.status] = (r.counts[c.status] ?? 0) + 1;
  for (const c of checks) {
    if (c.status === "FAILURE" || c.status === "WARNING") {
      r.problems.push(`${c.status} ${c.id} (${c.name}): ${oneLine(c.errorMessage || c.description)}`);
    }
  }
  if (r.exit === null) r.problems.push("the client did not exit by itself (killed on the runner's timeout or by a signal)");
  else if (r.exit !== "0") r.problems.push(`the client exited ${r.exit}`);
  if (existsSync(join(dir, "stderr.txt"))) r.stderr = readFileSync(join(dir, "stderr.txt"), "utf8");
  return r;
}

function oneLine(s) {
  const t = String(s).replace(/\s+/g, " ").trim();
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}

function summary(r) {
  const parts = ["SUCCESS", "FAILURE", "WARNING"].filter((s) => r.counts[s]).map((s) => `${r.counts[s]} ${s.toLowerCase()}`);
  return `${parts.join(", ") || "no checks"}; client exit ${r.exit ?? "none"}`;
}

function print(r, mark, note = "") {
  console.log(`  ${mark} ${r.scenario}${note}: ${summary(r)}`);
}

console.log(`\nconformance client --requirements ${args.requirements} (runner ${runnerVersion}, runner exit ${args["runner-exit"]})`);

/** Prints results under a heading; scenarios that fail it print their problems and their client's last stderr lines. */
function report(heading, results, { details = true } = {}) {
  if (!results.length) return;
  console.log(heading);
  for (const r of results) {
    print(r, r.problems.length ? "✗" : "✓", r.reason ? ` (${r.reason})` : "");
    if (!details) continue;
    for (const p of r.problems) console.log(`      ${p}`);
    const tail = r.stderr.trim().split("\n").filter(Boolean).slice(-3);
    if (r.problems.length && tail.length) console.log(`      client stderr: ${tail.map(oneLine).join(" | ")}`);
  }
}

const results = scored.map(judge);
const unscored = notScored.map((e) => ({ ...judge(e.scenario), reason: e.reason }));
const gated = unscored.filter((r) => requiredSet.has(r.scenario));
report(`scored (${scored.length}):`, results);
report(`not scored, required here (${gated.length}):`, gated);
report(`not scored, reported only (${unscored.length - gated.length}):`, unscored.filter((r) => !requiredSet.has(r.scenario)), { details: false });

const known = new Set([...scored, ...notScored.map((e) => e.scenario)]);
const stray = [...dirs.keys()].filter((s) => !known.has(s));
if (stray.length) console.log(`results outside the requirement set (ignored): ${stray.join(", ")}`);

const failed = results.filter((r) => r.problems.length);
const failedGated = gated.filter((r) => r.problems.length);
const problems = [];
const runnerExit = args["runner-exit"];
if (runnerExit !== "0" && runnerExit !== "1") problems.push(`the runner exited ${runnerExit}, not a verdict (0 or 1)`);
if (runnerExit === "1" && failed.length === 0) problems.push("the runner reports a scored failure this check did not find");
const unknown = required.filter((s) => !notScored.some((e) => e.scenario === s) && !scored.includes(s));
if (unknown.length) problems.push(`required but not run by the ${args.requirements} set: ${unknown.join(", ")}`);
for (const p of problems) console.log(p);
console.log(`${args.requirements}: scored ${results.length - failed.length} passed, ${failed.length} failed; ` +
  `required unscored ${gated.length - failedGated.length} passed, ${failedGated.length} failed`);
process.exit(failed.length || failedGated.length || problems.length ? 1 : 0);
