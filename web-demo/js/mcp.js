// The MCP panel: collapsed until opened; opening it loads the full build (MCP is not in the core
// build the rest of the page uses). Then: a server form with masked headers, the policy toggles
// with a live checkUrl verdict, Connect / Cancel / Disconnect, a pasted .mcp.json, the discovered
// tools with their annotations and schemas, and "call one".
import { el } from "./ui.js";
import { codeBox } from "./editor.js";
import { fullBuild } from "./mcp-build.js";
import { policyForm, showVerdict } from "./mcp-policy.js";
import { serverForm } from "./mcp-server-form.js";
import { renderTools } from "./mcp-tools.js";
import { callArea } from "./mcp-call.js";
import { elicitationHook } from "./mcp-elicit.js";
import { failureView } from "./mcp-errors.js";
import { sessions } from "./mcp-session.js";
import { codeView } from "./mcp-code.js";
import { setMcpSources } from "./branches.js";
import { installTap, trafficView } from "./mcp-traffic.js";

const SAMPLE_CONFIG = `{
  "mcpServers": {
    "docs": { "url": "https://mcp.example.com/mcp" },
    "events": { "type": "sse", "url": "https://mcp.example.com/sse" }
  }
}`;

/** The .mcp.json box: {node, text()}; onLoad() runs on Load. */
function configBox(onLoad) {
  const area = codeBox(el("textarea", { id: "mcp-config", rows: "7", spellcheck: "false" }));
  area.value = SAMPLE_CONFIG;
  const load = el("button", { type: "button", id: "mcp-config-load", onclick: onLoad }, "Load");
  const node = el("div", { class: "mcp-config" },
    el("h3", {}, "Or paste a .mcp.json"),
    el("p", { class: "hint" }, "Every URL server of the file is connected with the policy above; command (stdio) servers are skipped, since a page starts no processes."),
    el("label", { class: "block", for: "mcp-config" }, ".mcp.json"), area,
    el("div", { class: "row" }, load));
  return { node, text: () => area.value };
}

/**
 * The controls of the panel, wired to the connections, appended to body (disabled); returns the
 * function that hands them the full build and enables them.
 */
function controls(body) {
  let tg = null;
  const policy = policyForm();
  const server = serverForm();
  const code = codeView();
  const refresh = () => {
    showVerdict(server.verdictBox, tg, server.url.value, policy.security());
    code.update(server.values(), policy.security(), call?.chosen());
  };
  const connect = el("button", { type: "submit", class: "primary", id: "mcp-connect" }, "Connect");
  const cancel = el("button", { type: "button", id: "mcp-cancel", hidden: true }, "Cancel");
  const disconnect = el("button", { type: "button", id: "mcp-disconnect", disabled: true }, "Disconnect");
  const status = el("p", { id: "mcp-conn", role: "status", "aria-live": "polite" }, "Not connected.");
  const notice = el("div", { id: "mcp-notice" });
  const elicit = el("div", { id: "mcp-elicitations" });
  const list = el("ul", { class: "mcp-list", id: "mcp-tools", "aria-label": "Discovered tools" });
  const empty = el("p", { class: "hint", id: "mcp-tools-empty" }, "No server connected: connect one above, or load a .mcp.json.");
  const call = callArea(() => refresh());
  const sess = sessions(() => tg, {
    status, notice, elicitation: elicitationHook(elicit),
    busy(on) {
      connect.disabled = on;
      cancel.hidden = !on;
    },
    render(servers) {
      disconnect.disabled = servers.length === 0;
      empty.hidden = servers.length > 0;
      renderTools(list, servers, (name) => call.pick(name), (e) => failureView("Not connected", e));
      call.setTools(servers.flatMap((s) => s.tools.map((tool) => ({ branch: s.branch, tool }))));
      // the other panels see these tools too: the tools list, the provider tabs, the call panel
      setMcpSources(tg, servers);
    },
  });
  const config = configBox(() => sess.loadConfig(config.text(), policy.security()));
  cancel.addEventListener("click", () => sess.cancel());
  disconnect.addEventListener("click", () => sess.disconnect());
  const form = el("form", { id: "mcp-form", novalidate: true }, server.node, policy.node,
    el("div", { class: "row" }, connect, cancel, disconnect), status, notice, code.node);
  // any change (the URL, a toggle, a header row) re-checks the URL and rewrites the code
  form.addEventListener("input", refresh);
  form.addEventListener("change", refresh);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    sess.connect(server.values(), policy.security());
  });
  const fields = el("fieldset", { class: "mcp-controls", disabled: true },
    el("legend", { class: "visually-hidden" }, "MCP controls (enabled when the full build has loaded)"),
    form, config.node,
    el("div", { class: "mcp-work" }, el("div", {}, el("h3", {}, "Tools"), empty, list), el("div", { class: "mcp-side" }, elicit, call.node)),
    trafficView());
  body.append(fields);
  refresh();
  return (api) => {
    tg = api;
    installTap(); // the traffic view reads the full build's requests through the page's fetch
    fields.disabled = false;
    refresh();
  };
}

/** Builds the panel inside its section: a disclosure that loads the full build when first opened. */
export function mount(section) {
  const details = el("details", { class: "mcp-disclosure", id: "mcp-details" },
    el("summary", { id: "mcp-open" }, "Connect to an MCP server", el("span", { class: "hint" }, " (opening this loads the full build, toolgate.wasm)")));
  const body = el("div", { class: "mcp-body" });
  let ready = () => {};
  const build = fullBuild((tg) => ready(tg));
  body.append(
    el("p", { class: "hint" }, "toolgate talks to the server from this page (Streamable HTTP or SSE, over fetch): the server must allow this origin (CORS). Nothing goes through a backend."),
    build.node);
  ready = controls(body);
  details.append(body);
  details.addEventListener("toggle", () => {
    if (details.open) build.ensure();
  });
  section.append(details);
}
