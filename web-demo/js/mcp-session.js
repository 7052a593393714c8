// The MCP panel's connections: which servers are connected (each in its own McpBranch of the full
// build), Connect with Cancel, loading a .mcp.json, Disconnect (tg.mcp.cleanup()), and the status
// line that says where things stand.
import { el, errorLine } from "./ui.js";
import { failureView } from "./mcp-errors.js";
import { popupAuth } from "./mcp-oauth.js";
import { eraOf, eraLabel, versionsOf } from "./mcp-era.js";
import { watch, abortRequests, stopAll } from "./mcp-traffic.js";

/** The status line: the connected servers, then what just happened. */
function say(ctx, extra = "") {
  const ok = ctx.servers.filter((s) => s.tools.length);
  const text = ok.length ? `Connected to ${ok.map((s) => `"${s.name}" (${s.tools.length} tools)`).join(", ")}.` : "Not connected.";
  ctx.ui.status.replaceChildren(text, extra ? el("span", { class: "hint" }, ` ${extra}`) : "");
}

function update(ctx, extra) {
  ctx.ui.render(ctx.servers);
  say(ctx, extra);
}

const toolsOf = (branch, names) => names.map((n) => branch.tools.get(n)).filter(Boolean);

/** Adds entries, replacing the servers of the same names. */
function put(ctx, entries) {
  const names = new Set(entries.map((e) => e.name));
  ctx.servers = [...ctx.servers.filter((s) => !names.has(s.name)), ...entries];
}

/**
 * True for a warning about one discovered tool left out (its x-mcp-header annotations, or a schema
 * that does not compile), not about a server a loader skipped.
 */
const isToolWarning = (e) => (e?.code === "invalid-tool" && e?.rule === "x-mcp-header") || e?.code === "invalid-schema";

/**
 * The options of a registration: the policy, the hooks, the OAuth popup when asked for. Warnings
 * about tools left out are kept in fresh (server → errors) until the registration, or the refresh
 * they came with (they arrive before its onToolsChanged), is over: then they are the server's.
 */
function options(ctx, branch, security, fresh, oauth = false) {
  const onToolsChanged = (ev) => {
    const s = ctx.servers.find((x) => x.branch === branch && x.name === ev.server);
    const warnings = fresh.get(ev.server) ?? [];
    fresh.delete(ev.server);
    if (!s) return;
    if (ev.error) s.error = ev.error;
    else {
      s.tools = [...branch.tools.values()].filter((t) => t.mcp?.server === ev.server);
      s.warnings = warnings;
    }
    update(ctx, `The tools of "${ev.server}" changed.`);
  };
  const onWarning = (server, e) => fresh.set(server, [...(fresh.get(server) ?? []), e]);
  const opts = { security, update: true, elicitation: ctx.ui.elicitation, onToolsChanged, onWarning };
  if (oauth) opts.auth = popupAuth(ctx.ui.notice, (t) => ctx.ui.status.replaceChildren(t));
  return opts;
}

/**
 * The connect timeout of attempt me: after ms with no result, the attempt is given up (its requests
 * stopped, onTimeout called). Time in the OAuth sign-in window (auth.redirectToAuthorization) does
 * not count: the person is signing in. Returns the function that clears it.
 */
function connectTimer(ms, auth, onTimeout) {
  let timer = 0;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(onTimeout, ms);
  };
  if (auth?.redirectToAuthorization) {
    const redirect = auth.redirectToAuthorization.bind(auth);
    auth.redirectToAuthorization = async (...args) => {
      clearTimeout(timer);
      try {
        return await redirect(...args);
      } finally {
        arm();
      }
    };
  }
  arm();
  return () => clearTimeout(timer);
}

/** The notice of a connect given up after its timeout: what happened, and what to change. */
function timeoutView(values) {
  const s = Math.round(values.timeoutMs / 1000);
  return el("div", { class: "verdict bad mcp-failure", role: "alert", dataset: { rule: "connect-timeout" } },
    el("p", {}, el("strong", {}, `Could not connect to "${values.name}": `), `no answer within ${s} s (the connect timeout), so the connect was given up and its requests stopped.`),
    el("p", {}, "The server may be down, busy, or not an MCP endpoint at this URL (the Traffic view below shows what was sent). A slow server needs a longer timeout: set it above."));
}

/** What a registration found, for the status line: the era its tools were discovered with, the tools left out. */
function found(tools, warnings) {
  const eras = versionsOf(tools).map(eraLabel);
  return `${eras.length ? ` over ${eras.join(" and ")}` : ""}${warnings.length ? `; ${warnings.length} left out` : ""}`;
}

/** Connects one server from the form's values; a later attempt or Cancel makes this one's result ignored. */
async function connect(ctx, values, security) {
  const me = (ctx.attempt = { name: values.name });
  ctx.ui.notice.replaceChildren();
  ctx.ui.busy(true);
  ctx.ui.status.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), ` Connecting to "${values.name}"…`);
  const branch = ctx.getTg().branch();
  const started = performance.now();
  const config = { name: values.name, url: values.url, transport: values.transport };
  if (values.protocolVersion) config.protocolVersion = values.protocolVersion;
  if (Object.keys(values.headers).length) config.headers = values.headers;
  const fresh = new Map();
  watch(values.name, values.url, values.headers);
  const opts = options(ctx, branch, security, fresh, values.oauth);
  const clear = connectTimer(values.timeoutMs ?? 30000, opts.auth, () => {
    if (ctx.attempt !== me) return;
    ctx.attempt = null;
    ctx.ui.busy(false);
    abortRequests(values.name);
    if (!ctx.servers.length) ctx.getTg().mcp.cleanup().catch(() => {});
    ctx.ui.notice.replaceChildren(timeoutView(values));
    update(ctx, `Gave up connecting to "${values.name}" after ${Math.round(values.timeoutMs / 1000)} s.`);
  });
  try {
    const names = await branch.registerMcpServer(config, opts);
    if (ctx.attempt !== me) return;
    const tools = toolsOf(branch, names);
    const warnings = fresh.get(values.name) ?? [];
    fresh.delete(values.name);
    put(ctx, [{ name: values.name, branch, tools, warnings }]);
    update(ctx, `"${values.name}": ${names.length} tools in ${Math.round(performance.now() - started)} ms${found(tools, warnings)}.`);
  } catch (e) {
    if (ctx.attempt !== me) return;
    // the hint's headers: those of the pinned era (both eras' when toolgate was to find it), and the config's own
    const cors = { era: eraOf(values.protocolVersion), sent: Object.keys(values.headers) };
    ctx.ui.notice.replaceChildren(failureView(`Could not connect to "${values.name}"`, e, { oauth: values.oauth, cors }));
    update(ctx);
  } finally {
    clear();
    if (ctx.attempt === me) {
      ctx.attempt = null;
      ctx.ui.busy(false);
    }
  }
}

/**
 * Connects every server of a .mcp.json; each server that failed keeps its error beside its name,
 * each tool left out is a warning beside its server.
 */
async function loadConfig(ctx, text, security) {
  const branch = ctx.getTg().branch();
  const errors = new Map();
  const fresh = new Map();
  ctx.ui.notice.replaceChildren();
  ctx.ui.status.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), " Loading the .mcp.json servers…");
  let result;
  const opts = options(ctx, branch, security, fresh);
  for (const [name, entry] of configServers(text)) watch(name, entry.url, entry.headers ?? {});
  const toolWarning = opts.onWarning;
  opts.onWarning = (server, e) => (isToolWarning(e) ? toolWarning(server, e) : errors.set(server, e));
  try {
    result = await branch.loadMcpConfig(text, opts);
  } catch (e) {
    ctx.ui.notice.replaceChildren(failureView("Could not load the .mcp.json", e));
    return update(ctx);
  }
  const names = [...new Set([...Object.keys(result), ...errors.keys()])];
  put(ctx, names.map((name) => {
    const warnings = fresh.get(name) ?? [];
    fresh.delete(name);
    return { name, branch, tools: toolsOf(branch, result[name] || []), warnings, error: errors.get(name) };
  }));
  const failed = [...errors.keys()];
  update(ctx, `.mcp.json: ${names.length} servers${failed.length ? `, ${failed.length} not connected (${failed.join(", ")})` : ""}.`);
}

/** The URL servers of a .mcp.json text ([name, entry]), for the traffic view; none when it does not parse. */
function configServers(text) {
  try {
    const cfg = JSON.parse(text);
    return Object.entries(cfg?.mcpServers ?? cfg?.servers ?? {}).filter(([, e]) => typeof e?.url === "string");
  } catch {
    return [];
  }
}

/**
 * Stops the connect under way: its result is dropped (registerMcpServer takes no signal) and its
 * requests are stopped (the page's fetch, mcp-traffic.js).
 */
function cancel(ctx) {
  if (!ctx.attempt) return;
  const name = ctx.attempt.name;
  abortRequests(name);
  ctx.attempt = null;
  ctx.ui.busy(false);
  // with nothing else connected, the pool is closed so the abandoned connection does not linger
  if (!ctx.servers.length) ctx.getTg().mcp.cleanup().catch(() => {});
  update(ctx, `Stopped connecting to "${name}".`);
}

/** Closes every connection (tg.mcp.cleanup()) and forgets the servers and their tools. */
async function disconnect(ctx) {
  ctx.attempt = null;
  ctx.ui.busy(false);
  ctx.servers = [];
  ctx.ui.notice.replaceChildren();
  try {
    await ctx.getTg().mcp.cleanup();
    stopAll();
    update(ctx, "Every connection is closed.");
  } catch (e) {
    update(ctx, `Closing failed: ${errorLine(e)}`);
  }
}

/**
 * The connections of the panel. ui: {status, notice, elicitation, busy(on), render(servers)}.
 * Returns {connect(values, security), loadConfig(text, security), cancel(), disconnect(), servers}.
 * Servers are [{name, branch, tools: Tool[], warnings: ToolgateError[], error?}] (warnings: the
 * tools toolgate left out); render(servers) is called on every change.
 */
export function sessions(getTg, ui) {
  const ctx = { getTg, ui, servers: [], attempt: null };
  return {
    connect: (values, security) => connect(ctx, values, security),
    loadConfig: (text, security) => loadConfig(ctx, text, security),
    cancel: () => cancel(ctx),
    disconnect: () => disconnect(ctx),
    get servers() {
      return ctx.servers;
    },
  };
}
