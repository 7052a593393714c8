// Rewrites the "Speed and size" table of docs/speed.md (the README links it), between
// <!-- bench:start --> and <!-- bench:end -->, from a bench report. make bench runs it last:
//   node bench/readme-table.mjs bench/report.json docs/speed.md
import { readFileSync, writeFileSync } from "node:fs";
import { markdownTable, machineLine, num } from "./table.mjs";

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

const [reportPath = "bench/report.json", readmePath = "docs/speed.md"] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, "utf8"));
const readme = readFileSync(readmePath, "utf8");
const a = readme.indexOf(START);
const b = readme.indexOf(END);
if (a < 0 || b < a) throw new Error(`${readmePath}: no ${START} … ${END} markers`);
writeFileSync(readmePath, readme.slice(0, a) + section(report) + readme.slice(b + END.length));
console.log(`${readmePath}: the bench table rewritten from ${reportPath} (${report.results.length} rows)`);
