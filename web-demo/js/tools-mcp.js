// The tools panel's list of MCP tools: every tool of the connected servers (branches.js), each
// marked with its server, the protocol era it was discovered with and whether it runs as an MCP
// task, with "Samples" (the call panel's samples come from its schema) and "Use" (its first
// sample in the call box). They are edited nowhere: the server defines them.
import { on, setCall } from "./store.js";
import { el, toast } from "./ui.js";
import { mcpTools, pickMcpTool, pickedMcpTool } from "./branches.js";
import { eraLabel } from "./mcp-era.js";
import { samplesFor } from "./samples.js";
import { taskBadge } from "./mcp-tools.js";

/** One MCP tool as a list item. */
function item({ tool, server }) {
  const name = tool.function;
  const version = tool.mcp?.protocolVersion;
  const current = pickedMcpTool()?.tool === tool;
  const params = tool.toolSchema?.function?.parameters ?? {};
  return el("li", { "aria-current": current ? "true" : false, dataset: { mcpTool: name, server } },
    el("div", { class: "tool-item" },
      el("button", { type: "button", class: "tool-pick", title: `Samples for ${name} in the call panel`, onclick: () => pickMcpTool(name) },
        el("strong", {}, name), " ", el("span", { class: "tool-kind" }, `MCP tool of server ${server}`)),
      version ? el("span", { class: "badge mcp-era", dataset: { protocolVersion: version } }, eraLabel(version)) : null,
      taskBadge(tool),
      el("button", { type: "button", class: "small", "aria-label": `Use ${name} in the call box`, onclick: () => {
        pickMcpTool(name);
        setCall(samplesFor(name, params)[0].text, "example");
        toast(`A call to ${name} is in the call box.`);
      } }, "Use")));
}

/** Mounts the list (hidden while no server is connected) and keeps it in step with the MCP panel. */
export function mountMcpTools(section) {
  const list = el("ul", { class: "items tool-list", id: "mcp-tool-list", "aria-labelledby": "mcp-tool-list-title" });
  const box = el("div", { class: "tools-mcp", hidden: true },
    el("h3", { id: "mcp-tool-list-title" }, "Tools from MCP servers"),
    el("p", { class: "hint" }, "Discovered by the MCP panel (5.) on the full build's branch: validated, exported and invoked there. Pick one for samples in the call panel."),
    list);
  const render = () => {
    const tools = mcpTools();
    box.hidden = tools.length === 0;
    list.replaceChildren(...tools.map(item));
  };
  on("mcp-tools", render);
  on("select", render);
  section.append(box);
}
