// Rewrites the "Speed and size" table of docs/speed.md, between <!-- bench:start --> and
// <!-- bench:end -->, and the README's short speed table (a few rows of it, between
// <!-- speed:start --> and <!-- speed:end -->), from a bench report. make bench runs it last:
//   node bench/readme-table.mjs bench/report.json docs/speed.md README.md
import { readFileSync, writeFileSync } from "node:fs";
import { markdownTable, machineLine, num, ratioText } from "./table.mjs";

const START = "<!-- bench:start -->";
const END = "<!-- bench:end -->";

/** A per-file size row of a JS module of the package (report.json keeps them; docs/speed.md sums them). */
const isJsFileRow = (r) => r.id.startsWith("size-") && !r.id.endsWith(".wasm") && r.id !== "size-wasm_exec.js" && r.id !== "size-package-total";

function section({ machine, results }) {
  const js = results.filter(isJsFileRow);
  const jsTotal = js.reduce((t, r) => t + r.toolgate, 0);
  const largest = js.reduce((a, r) => (r.toolgate > a.toolgate ? r : a), js[0] ?? { toolgate: 0, name: "" });
  return [
    START,
    `Measured by \`make bench\` on ${machineLine(machine)}.`,
    "Read the ratios, not the absolute times: the load averages say how much other work shared the machine.",
    "Each figure ran in its own Node process, against the packed package, beside its peer in the same run;",
    "`bench/report.json` holds every row (written by `make bench`, not committed).",
    "",
    markdownTable(results.filter((r) => !isJsFileRow(r))),
    "",
    `Besides \`wasm_exec.js\`, the package ships ${js.length} JS modules: ${num(jsTotal)} KiB brotli-11 together, the largest`,
    `\`${largest.name.replace(/^size: /, "")}\` (${num(largest.toolgate)} KiB).`,
    END,
  ].join("\n");
}

/** The rows the README shows (by id), in this order: the three paths' costs beside their peers. */
const README_ROWS = [
  "validate-object-ajv",
  "validate-text-ajv",
  "cold-workload-cfworker",
  "cold-node-plan",
  "page-plan-brotli",
  "mcp-echo-streamable-http-median",
];

function readmeSection({ machine, results }) {
  const byId = new Map(results.map((r) => [r.id, r]));
  const rows = README_ROWS.map((id) => byId.get(id)).filter(Boolean);
  const lines = [`| measure (${machine.date.slice(0, 10)}, ${machine.cores} cores) | toolgate | peer | ratio | goal |`, "|---|---|---|---|---|"];
  for (const r of rows) {
    const peer = r.peer ? `${r.peer.replace(/ \(.*\)|, .*$/, "")}: ${num(r.peerValue)} ${r.unit}` : "—";
    lines.push(`| ${r.name.replace(/\|/g, "\\|")} | ${num(r.toolgate)} ${r.unit} | ${peer} | ${ratioText(r.ratio)} | ${r.goal ?? ""} |`);
  }
  return [README_START, ...lines, README_END].join("\n");
}

const README_START = "<!-- speed:start -->";
const README_END = "<!-- speed:end -->";

/** Replaces what stands between `start` and `end` in the file at `path` with `text` (which holds both markers). */
function rewrite(path, start, end, text) {
  const doc = readFileSync(path, "utf8");
  const a = doc.indexOf(start);
  const b = doc.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${path}: no ${start} … ${end} markers`);
  writeFileSync(path, doc.slice(0, a) + text + doc.slice(b + end.length));
}

const [reportPath = "bench/report.json", speedPath = "docs/speed.md", readmePath] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, "utf8"));
rewrite(speedPath, START, END, section(report));
console.log(`${speedPath}: the bench table rewritten from ${reportPath} (${report.results.length} rows)`);
if (readmePath) {
  rewrite(readmePath, README_START, README_END, readmeSection(report));
  console.log(`${readmePath}: the speed table rewritten from ${reportPath}`);
}
