// The report of one provider export (tg.toProvider(...).report) as people read it: a summary line,
// the changes as a table (tool, path, kind, message) and the names that were rewritten.
import { el } from "./ui.js";

/** The report's view: what changed so the tools fit the target, or that nothing did (or that there were no tools). */
export function renderReport(report, anyTools = true) {
  const changes = report?.changes ?? [];
  const renamed = Object.entries(report?.names ?? {}).filter(([exported, registered]) => exported !== registered);
  const strict = report?.strict ? " (strict)" : "";
  const summary = changes.length
    ? `${changes.length} change${changes.length === 1 ? "" : "s"} to fit ${report.target}${strict}:`
    : anyTools ? `No changes: the tools fit ${report?.target ?? "the target"}${strict} as they are.` : "No tools to export.";
  return el("div", { class: "provider-report", id: "provider-report" },
    el("h3", { id: "provider-report-title" }, "Export report"),
    el("p", { class: changes.length ? "verdict warn" : "verdict ok", id: "provider-report-summary" }, summary),
    changes.length ? changesTable(changes) : null,
    renamed.length ? renamedList(renamed) : null,
    changes.length || renamed.length ? el("p", { class: "hint", id: "provider-report-follows" }, "The call panel checks and invokes calls on the branch as this export left it: a call under a rewritten name reaches its tool, and the nulls strict mode asks for are removed before validation.") : null);
}

/** The changes as a table. */
function changesTable(changes) {
  const rows = changes.map((c) => el("tr", {},
    el("td", { "data-label": "Tool" }, c.tool),
    el("td", { "data-label": "Path" }, el("code", {}, c.path === "" ? "(the tool)" : c.path)),
    el("td", { "data-label": "Kind" }, el("code", {}, c.kind), c.keyword ? el("span", { class: "hint" }, ` ${c.keyword}`) : null),
    el("td", { "data-label": "Message" }, c.message)));
  return el("div", { class: "table-wrap" },
    el("table", { "aria-labelledby": "provider-report-title" },
      el("thead", {}, el("tr", {}, el("th", { scope: "col" }, "Tool"), el("th", { scope: "col" }, "Path"), el("th", { scope: "col" }, "Kind"), el("th", { scope: "col" }, "Message"))),
      el("tbody", {}, rows)));
}

/** The rewritten names: exported → registered. */
function renamedList(renamed) {
  return el("div", {},
    el("p", { class: "hint" }, "Renamed for this provider (report.names maps each back; a branch you export resolves a call under the new name to its tool):"),
    el("ul", { class: "renamed" }, renamed.map(([exported, registered]) => el("li", {}, el("code", {}, exported), " stands for ", el("code", {}, registered)))));
}
