// The call panel's result views: a validation verdict (function, arguments after conversion, the
// conversions, or the error code, message and issues table), an invoke outcome (status, response,
// record), each with what its check covers. Text only through el()/textContent.
import { el, pretty, formatDuration } from "./ui.js";

/**
 * The issues table: one row per issue (path, keyword, message); activating a row (click, or Enter
 * on its path button) calls onPick(issue).
 */
export function issuesTable(issues, onPick) {
  const rows = issues.map((issue) => el("tr", { class: "issue", dataset: { path: issue.path, keyword: issue.keyword }, onclick: () => onPick(issue) },
    el("td", {}, el("button", { type: "button", class: "small link", title: "Select this place in the call", "aria-label": `Show ${issue.path || "(the arguments)"} in the call`, onclick: (e) => {
      e.stopPropagation();
      onPick(issue);
    } }, el("code", {}, issue.path || "(root)"))),
    el("td", {}, el("code", {}, issue.keyword)),
    el("td", {}, issue.message)));
  return el("div", { class: "table-wrap" }, el("table", { class: "issues" },
    el("caption", { class: "visually-hidden" }, "Issues: click one to select its place in the call"),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Path"), el("th", { scope: "col" }, "Keyword"), el("th", { scope: "col" }, "Message"))),
    el("tbody", {}, rows)));
}

function conversionsList(conversions) {
  if (!conversions?.length) return null;
  return el("div", { class: "conversions" },
    el("p", {}, el("strong", {}, "Conversions"), ` (${conversions.length}):`),
    el("ul", {}, conversions.map((c) => el("li", { class: "conversion" }, el("code", {}, c.path), ` ${c.from} → ${c.to}`))));
}

function heading(label, text) {
  return el("p", { class: "verdict-title" }, label ? el("span", { class: "badge" }, label) : null, label ? " " : null, el("strong", {}, text));
}

/**
 * A validation verdict for one call: row = {label, result, covers, dropped}; result is b.validate's,
 * dropped the sent keys the arguments no longer hold.
 * onPick(issue) is called when an issue row is chosen.
 */
export function verdictView(row, onPick) {
  const { result, label, covers } = row;
  const box = result.ok
    ? el("div", { class: "verdict ok", dataset: { ok: "true", function: result.function } },
      heading(label, `✓ Valid: ${result.function}`),
      el("p", {}, "Arguments after conversion:"),
      // A long value scrolls inside the box: a region the keyboard can reach (axe: scrollable-region-focusable).
      el("pre", { class: "out args", role: "region", tabindex: "0", "aria-label": `Arguments of ${result.function} after conversion` }, pretty(result.arguments)),
      conversionsList(result.conversions) || el("p", { class: "hint" }, "No conversions: the arguments are used as sent."),
      row.dropped?.length ? el("p", { class: "dropped" }, el("strong", {}, "Dropped: "), row.dropped.map((k) => el("code", {}, k)).flatMap((c, i) => (i ? [", ", c] : [c])), " (keys the schema names nowhere are left out, as LionAGI's model_dump does)") : null)
    : el("div", { class: "verdict bad", dataset: { ok: "false", code: result.error.code || "" } },
      heading(label, `✗ Refused: ${result.error.code || result.error.name}`),
      el("p", { class: "message" }, result.error.message),
      result.error.issues?.length ? issuesTable(result.error.issues, onPick) : null);
  return el("div", { class: "verdict-row" }, box, el("p", { class: "covers" }, el("strong", {}, "What this check covers: "), covers));
}

const STATUS_CLASS = { completed: "ok", failed: "bad", cancelled: "warn", aborted: "warn", skipped: "warn" };

/** An invoke outcome (see worker.js): status, response or error, the record; onPick as for verdicts. */
export function outcomeView(outcome, covers, onPick) {
  const kind = STATUS_CLASS[outcome.status] || "bad";
  const recError = outcome.record?.execution?.error;
  const err = outcome.errorData || recError;
  const code = err?.code || (recError ? recError.error : "");
  const icon = { ok: "✓", bad: "✗", warn: "■" }[kind];
  const fn = outcome.record?.function ? `: ${outcome.record.function}` : "";
  const children = [heading(outcome.label, `${icon} ${outcome.status}${code && code !== outcome.status ? ` (${code})` : ""}${fn} in ${formatDuration(outcome.durationMs)}`)];
  if (outcome.status === "completed") children.push(el("p", {}, "Response:"), el("pre", { class: "out response", role: "region", tabindex: "0", "aria-label": "Response" }, pretty(outcome.response)));
  if (err) children.push(el("p", { class: "message" }, err.message || outcome.error));
  if (err?.issues?.length) children.push(issuesTable(err.issues, onPick));
  if (outcome.record) {
    children.push(el("details", { class: "record" }, el("summary", {}, "Record (fc.toDict())"), el("pre", { class: "out", role: "region", tabindex: "0", "aria-label": "Record" }, pretty(outcome.record))));
  }
  return el("div", { class: "verdict-row" },
    el("div", { class: `verdict ${kind}`, dataset: { status: outcome.status, code: code || "" } }, children),
    covers ? el("p", { class: "covers" }, el("strong", {}, "What this check covers: "), covers) : null);
}
