// The MCP panel's connections: which servers are connected (each in its own McpBranch of the full
// build), Connect with Cancel, loading a .mcp.json, Disconnect (tg.mcp.cleanup()), and the status
// line that says where things stand.
import { el, errorLine } from "./ui.js";
import { failureView } from "./mcp-errors.js";
import { popupAuth } from "./mcp-oauth.js";

/**
 * The connections of the panel. ui: {status, notice, elicitation(hook), render(servers)}.
 * Returns {connect(values, security), loadConfig(text, security), cancel(), disconnect(), busy}.
 * Servers are [{name, branch, tools: Tool[], error?}]; render(servers) is called on every change.
 */
export function sessions(getTg, ui) {
  let servers = [];
  let attempt = null;

  const summary = () => {
    const ok = servers.filter((s) => s.tools.length);
    if (!ok.length) return "Not connected.";
    return `Connected to ${ok.map((s) => `"${s.name}" (${s.tools.length} tools)`).join(", ")}.`;
  };
  const say = (text, extra = "") => ui.status.replaceChildren(text, extra ? el("span", { class: "hint" }, ` ${extra}`) : "");
  const update = (extra) => {
    ui.render(servers);
    say(summary(), extra);
  };
  const toolsOf = (branch, names) => names.map((n) => branch.tools.get(n)).filter(Boolean);
  const put = (entries) => {
    const names = new Set(entries.map((e) => e.name));
    servers = [...servers.filter((s) => !names.has(s.name)), ...entries];
  };
  // a refresh after the server's notifications/tools/list_changed
  const onToolsChanged = (branch) => (ev) => {
    const s = servers.find((x) => x.branch === branch && x.name === ev.server);
    if (!s) return;
    if (ev.error) s.error = ev.error;
    else s.tools = [...branch.tools.values()].filter((t) => t.mcp?.server === ev.server);
    update(`The tools of "${ev.server}" changed.`);
  };
  const options = (branch, security, values = {}) => ({
    security, update: true, elicitation: ui.elicitation, onToolsChanged: onToolsChanged(branch),
    ...(values.oauth ? { auth: popupAuth(ui.notice, (t) => say(t)) } : {}),
  });

  async function connect(values, security) {
    const tg = getTg();
    const me = (attempt = { name: values.name });
    ui.notice.replaceChildren();
    ui.busy(true);
    say(`Connecting to "${values.name}"…`);
    const branch = tg.branch();
    const started = performance.now();
    const config = { name: values.name, url: values.url, transport: values.transport };
    if (Object.keys(values.headers).length) config.headers = values.headers;
    try {
      const names = await branch.registerMcpServer(config, options(branch, security, values));
      if (attempt !== me) return;
      put([{ name: values.name, branch, tools: toolsOf(branch, names) }]);
      update(`"${values.name}": ${names.length} tools in ${Math.round(performance.now() - started)} ms.`);
    } catch (e) {
      if (attempt !== me) return;
      ui.notice.replaceChildren(failureView(`Could not connect to "${values.name}"`, e, { oauth: values.oauth }));
      update();
    } finally {
      if (attempt === me) {
        attempt = null;
        ui.busy(false);
      }
    }
  }

  async function loadConfig(text, security) {
    const tg = getTg();
    const branch = tg.branch();
    const warnings = new Map();
    ui.notice.replaceChildren();
    say("Loading the .mcp.json servers…");
    let result;
    try {
      result = await branch.loadMcpConfig(text, { ...options(branch, security), onWarning: (server, e) => warnings.set(server, e) });
    } catch (e) {
      ui.notice.replaceChildren(failureView("Could not load the .mcp.json", e));
      return update();
    }
    const names = new Set([...Object.keys(result), ...warnings.keys()]);
    put([...names].map((name) => ({ name, branch, tools: toolsOf(branch, result[name] || []), error: warnings.get(name) })));
    const failed = [...warnings.keys()];
    update(`.mcp.json: ${names.size} servers${failed.length ? `, ${failed.length} not connected (${failed.join(", ")})` : ""}.`);
  }

  function cancel() {
    if (!attempt) return;
    const name = attempt.name;
    attempt = null;
    ui.busy(false);
    // registerMcpServer takes no signal: the attempt is abandoned, and with nothing else connected
    // the pool is closed so its connection does not linger
    if (!servers.length) getTg().mcp.cleanup().catch(() => {});
    update(`Stopped connecting to "${name}".`);
  }

  async function disconnect() {
    attempt = null;
    ui.busy(false);
    servers = [];
    ui.notice.replaceChildren();
    try {
      await getTg().mcp.cleanup();
      update("Every connection is closed.");
    } catch (e) {
      update(`Closing failed: ${errorLine(e)}`);
    }
  }

  return { connect, loadConfig, cancel, disconnect, get servers() { return servers; } };
}
