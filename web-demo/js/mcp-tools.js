// The discovered tools of the connected MCP servers, each server with the protocol era its tools
// were discovered with and the tools toolgate left out (onWarning): name, description,
// annotations as badges (hints from the server, not guarantees; absent ones take the spec's
// defaults), the input schema.
import { el, pretty } from "./ui.js";
import { eraLabel, eraOf, versionsOf } from "./mcp-era.js";

// The spec's defaults for absent hints, and how each reads as a badge.
const HINTS = [
  { key: "readOnlyHint", fallback: false, yes: "read-only", no: "writes", kind: { true: "ok" } },
  { key: "destructiveHint", fallback: true, yes: "destructive", no: "not destructive", kind: { true: "bad" } },
  { key: "idempotentHint", fallback: false, yes: "idempotent", no: "not idempotent", kind: { true: "ok" } },
  { key: "openWorldHint", fallback: true, yes: "open world", no: "closed world", kind: { true: "warn" } },
];

/** The annotation badges of one tool (tool.mcp.annotations), defaults marked as such. */
export function annotationBadges(annotations) {
  const a = annotations || {};
  return el("span", { class: "mcp-badges" }, HINTS.map((h) => {
    const given = typeof a[h.key] === "boolean";
    const value = given ? a[h.key] : h.fallback;
    const label = `${value ? h.yes : h.no}${given ? "" : " (default)"}`;
    return el("span", { class: `badge ${h.kind[value] || ""}`.trim(), title: `${h.key}: ${value}${given ? "" : " (not sent; the spec's default)"}`, dataset: { hint: h.key, value: String(value) } }, label);
  }));
}

/**
 * The task badge of an MCP tool (tool.mcp.execution.taskSupport): "task" when its calls must run as
 * MCP tasks (toolgate polls them to their end: docs/mcp-tasks.md), "task optional"; null otherwise.
 */
export function taskBadge(tool) {
  const support = tool.mcp?.execution?.taskSupport;
  if (support !== "required" && support !== "optional") return null;
  const required = support === "required";
  return el("span", {
    class: "badge mcp-task",
    dataset: { taskSupport: support },
    title: required ? "Runs as an MCP task: the server answers at once with a task, and toolgate polls it to its end. One call for you." : "May run as an MCP task (toolgate calls it plainly unless told tasks: \"always\").",
  }, required ? "task" : "task optional");
}

/** One tool as a list item, with a Call button that hands its name to onCall. */
function toolItem(tool, onCall) {
  const info = tool.mcp;
  const fn = tool.toolSchema.function || tool.toolSchema;
  const title = info?.annotations?.title;
  return el("li", { class: "mcp-tool", dataset: { tool: tool.function } },
    el("div", { class: "mcp-tool-head" },
      el("h4", {}, el("code", {}, info?.tool ?? tool.function), title ? el("span", { class: "hint" }, ` ${title}`) : ""),
      el("button", { type: "button", class: "small", "aria-label": `Call ${tool.function}`, onclick: () => onCall(tool.function) }, "Call")),
    el("p", { class: "hint" }, "Registered as ", el("code", {}, tool.function), info ? [" on server ", el("code", {}, info.server)] : ""),
    fn.description ? el("p", { class: "mcp-desc" }, fn.description) : el("p", { class: "hint" }, "No description."),
    annotationBadges(info?.annotations),
    taskBadge(tool) ? el("p", { class: "hint" }, taskBadge(tool), tool.mcp?.taskRequired ? " its calls run as MCP tasks: toolgate polls the task to its end, so Invoke is one call as for any tool." : " it may run as an MCP task.") : "",
    el("details", { class: "mcp-schema" }, el("summary", {}, "Input schema"), el("pre", { class: "out", role: "region", tabindex: "0", "aria-label": "Input schema" }, pretty(fn.parameters ?? {}))));
}

/** The era badge of each protocol version a server's tools were discovered with (tool.mcp.protocolVersion). */
function eraBadges(tools) {
  return versionsOf(tools).map((v) => el("span", {
    class: "badge mcp-era",
    dataset: { protocolVersion: v },
    title: eraOf(v) === "modern" ? "Discovered on the stateless revision: no handshake, no session." : "Discovered after the initialize handshake: the legacy era (a session when the server hands one out).",
  }, eraLabel(v)));
}

/**
 * The tools toolgate left out (onWarning: invalid-tool with rule x-mcp-header, invalid-schema), each
 * with its rule or code and what toolgate said.
 */
function leftOut(warnings) {
  const n = warnings.length;
  return el("div", { class: "verdict warn mcp-warnings" },
    el("p", {}, el("strong", {}, n === 1 ? "1 tool left out" : `${n} tools left out`),
      ": toolgate offers no tool it cannot use as described: a schema that does not compile, or (2026-07-28) x-mcp-header annotations whose headers it could not send correctly. The other tools are registered."),
    el("ul", {}, warnings.map((w) => el("li", { dataset: { tool: w.tool ?? "", code: w.code ?? "", rule: w.rule ?? "" } },
      el("code", {}, w.tool ?? "?"), " ", el("span", { class: "badge warn" }, w.rule || w.code), " ", w.message))));
}

/**
 * Renders the tools of every server into list: grouped by server, in registration order.
 * servers is [{name, tools: Tool[], warnings?, error?}]; an error is shown in place of that
 * server's tools, warnings (tools left out) above them.
 */
export function renderTools(list, servers, onCall, failure) {
  list.replaceChildren();
  for (const s of servers) {
    const count = s.error ? "not connected" : `${s.tools.length} tools`;
    const group = el("details", { open: true },
      el("summary", {}, el("h3", {}, "Server ", el("code", {}, s.name), el("span", { class: "hint" }, ` ${count}`)), eraBadges(s.tools)));
    if (s.error) group.append(failure(s.error));
    if (s.warnings?.length) group.append(leftOut(s.warnings));
    if (s.tools.length) group.append(el("ul", { class: "items" }, s.tools.map((t) => toolItem(t, onCall))));
    else if (!s.error) group.append(el("p", { class: "hint" }, "No tools."));
    list.append(el("li", { class: "mcp-server-group", dataset: { server: s.name } }, group));
  }
}
