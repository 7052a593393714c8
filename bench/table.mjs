// Formatting of bench results, for the terminal (bench/run.mjs) and the
// table of docs/speed.md (bench/readme-table.mjs).

/** A number in about three significant digits; "—" for none. */
export function num(x) {
  if (x === null || x === undefined || !Number.isFinite(x)) return "—";
  const a = Math.abs(x);
  if (Number.isInteger(x)) return String(x); // a count
  if (a >= 100) return x.toFixed(0);
  if (a >= 10) return x.toFixed(1);
  if (a >= 1) return x.toFixed(2);
  return x.toPrecision(2);
}

export const ratioText = (r) => (r === null || r === undefined ? "—" : `${num(r)}×`);

const cell = (s) => String(s ?? "").replace(/\|/g, "\\|");

/** A Markdown table of report rows: a goal column when any row has a goal, a note column unless `note` is false. */
export function markdownTable(rows, { note = true } = {}) {
  const goal = rows.some((r) => r.goal);
  const head = ["#", "measure", "toolgate", "peer", "peer's", "ratio", ...(goal ? ["goal"] : []), ...(note ? ["note"] : [])];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const r of rows) {
    const cells = [r.figure, r.name, `${num(r.toolgate)} ${r.unit}`, r.peer ?? "—", r.peerValue === null ? "—" : `${num(r.peerValue)} ${r.unit}`, ratioText(r.ratio)];
    if (goal) cells.push(r.goal ?? "");
    if (note) cells.push(r.note ?? "");
    lines.push(`| ${cells.map(cell).join(" | ")} |`);
  }
  return lines.join("\n");
}

/** One line naming the machine a report was measured on. */
export function machineLine(m) {
  return `${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB (load average ${m.loadAverage.start} at the start, ${m.loadAverage.end} at the end); ${m.os}; Node ${m.node}; ${m.go}; toolgate ${m.toolgate}; ${m.date}`;
}
