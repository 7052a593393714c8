// The provider tabs' MCP part: the connected servers' tools as each provider takes them, exported
// by the full build (tg.toProvider) on the branch the MCP panel registered them on, with the
// report. The export is of that branch itself, as a program would do it: the branch learns the
// names it rewrote and strict mode's restores, so the call panel (which validates MCP calls there,
// branches.js) accepts a model's call under the exported name or with strict mode's nulls.
import { el, errorLine, copyButton } from "./ui.js";
import { compactJson } from "./tools-format.js";
import { renderReport } from "./providers-report.js";
import { mcpSources } from "./branches.js";

/** Gives every id under node a prefix (and the references to them), so a second report keeps ids unique. */
function prefixIds(node, prefix) {
  for (const n of node.querySelectorAll("[id]")) n.id = `${prefix}${n.id}`;
  if (node.id) node.id = `${prefix}${node.id}`;
  for (const n of node.querySelectorAll("[aria-labelledby]")) n.setAttribute("aria-labelledby", `${prefix}${n.getAttribute("aria-labelledby")}`);
  return node;
}

/** One source's export for target (label for people) with opts: tools, copy, report; or the error. */
function sourceView(src, i, target, label, opts) {
  const servers = src.servers.map((s) => s.name);
  const names = servers.map((n) => `"${n}"`).join(", ");
  const titleId = `mcp-provider-tools-title-${i}`;
  let exported;
  try {
    exported = src.tg.toProvider(src.branch, target, opts);
  } catch (e) {
    return el("div", { class: "provider-mcp", dataset: { servers: servers.join(",") } },
      el("p", { class: "verdict bad", role: "alert" }, `The export of the tools of ${names} failed: ${errorLine(e)}`));
  }
  const text = compactJson(exported.tools);
  const call = `tg.toProvider(mcpBranch, "${target}"${Object.keys(opts).length ? `, ${JSON.stringify(opts)}` : ""})`;
  return el("div", { class: "provider-mcp", dataset: { servers: servers.join(",") } },
    el("div", { class: "row" }, el("h3", { id: titleId }, `${label} tools of MCP server ${names}`),
      copyButton(() => text, `the ${label} tools of ${names}`, "Copy tools")),
    el("p", { class: "hint" }, el("code", {}, call), ": the full build's export of the branch the MCP panel registered them on (a call under an exported name is validated there)."),
    el("pre", { class: "out mcp-provider-tools", role: "region", tabindex: "0", "aria-labelledby": titleId }, text),
    prefixIds(renderReport(exported.report, true), `mcp-${i}-`));
}

/** The MCP part of a provider tab: one block per MCP branch, or null with no server connected. */
export function mcpExportView(target, label, opts) {
  const sources = mcpSources();
  if (!sources.length) return null;
  return el("div", { class: "provider-mcp-all", id: "provider-mcp" }, sources.map((src, i) => sourceView(src, i, target, label, opts)));
}
