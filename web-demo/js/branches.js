// Which branch holds which tools. The page's own tools live in the core build's branch
// (state.built.branch); a connected MCP server's tools live in the full build's branch the MCP
// panel registered them on. Panels ask here which branch a call is for, so a call to
// mcp__ev__echo is validated, exported and invoked where the tool is, with the toolgate that made
// it. The MCP panel is the only writer (setMcpSources); "mcp-tools" is emitted on every change.
import { emit } from "./store.js";

let sources = []; // [{tg, branch, servers: [{name, tools}]}]
let picked = null; // the registered name of the MCP tool whose samples the call panel shows

/**
 * Replaces the MCP panel's tools: servers is [{name, branch, tools: Tool[]}] and tg the full
 * build's API. Servers sharing a branch (a .mcp.json) are one source.
 */
export function setMcpSources(tg, servers) {
  const byBranch = new Map();
  for (const s of servers) {
    if (!s.tools?.length) continue;
    if (!byBranch.has(s.branch)) byBranch.set(s.branch, { tg, branch: s.branch, servers: [] });
    byBranch.get(s.branch).servers.push({ name: s.name, tools: s.tools });
  }
  sources = [...byBranch.values()];
  if (picked && !toolNamed(picked)) picked = null;
  emit("mcp-tools", sources);
}

/** The MCP sources: [{tg, branch, servers: [{name, tools}]}], in connection order. */
export function mcpSources() {
  return sources;
}

/** Every MCP tool with where it lives: [{tool, server, branch, tg}]. */
export function mcpTools() {
  return sources.flatMap((src) => src.servers.flatMap((s) => s.tools.map((tool) => ({ tool, server: s.name, branch: src.branch, tg: src.tg }))));
}

/** The MCP tool registered (or exported) as name: {tool, server, branch, tg}, or null. */
export function toolNamed(name) {
  return mcpTools().find((t) => t.tool.function === name) ?? null;
}

/**
 * The MCP source a call request is for, with its verdict: {result, branch, tg, server} when local (the
 * core build's verdict) refuses it as tool-not-found and an MCP branch knows the name (registered
 * or an alias an export taught it); null otherwise (the call is the page's own tools' business).
 */
export function mcpVerdict(request, local) {
  if (local?.ok || local?.error?.code !== "tool-not-found") return null;
  for (const src of sources) {
    let result;
    try {
      result = src.branch.validate(request);
    } catch {
      continue;
    }
    if (result.ok || result.error?.code !== "tool-not-found") {
      const name = result.ok ? result.function : result.error?.tool;
      return { result, branch: src.branch, tg: src.tg, server: toolNamed(name)?.server };
    }
  }
  return null;
}

/** Marks name (an MCP tool) as the call panel's sample target, or clears it with null; emits "select". */
export function pickMcpTool(name) {
  picked = name && toolNamed(name) ? name : null;
  emit("select", picked);
}

/** The MCP tool whose samples the call panel shows ({tool, server, branch, tg}), or null. */
export function pickedMcpTool() {
  return picked ? toolNamed(picked) : null;
}
