// The call panel: the call box (what the model sent), one-click samples, Validate (in the page,
// live as you type) and Invoke (in the handler worker, with elapsed time and Cancel), the verdict
// with its issues table and what the check covers, and a form generated from the tool's schema.
// Verdicts follow the export the providers panel shows (state.view): the page validates, and the
// worker invokes, on the branch as that export left it, and the result says which export that is.
// Every validate/invoke ends in one "outcome" event per call (docs/playground.md).
import { state, on, emit, setCall, viewBranch } from "./store.js";
import { viewLabel, viewCode } from "./export-view.js";
import { el, errorLine } from "./ui.js";
import { brokenToolsNote } from "./broken-tools.js";
import { codeBox } from "./editor.js";
import { splitCalls, sentArguments } from "./call-split.js";
import { verdictView, outcomeView } from "./call-verdict.js";
import { coversText } from "./covers.js";
import { locate, callStart } from "./call-locate.js";
import { samplesFor } from "./samples.js";
import { mountForm } from "./form.js";
import * as runner from "./runner.js";
import { mcpVerdict, pickedMcpTool, toolNamed } from "./branches.js";
import { invokeParts } from "./mcp-invoke.js";

const LIVE_MS = 300;
const ui = {};
let seq = 0; // the newest validate/invoke; an answer for an older one is dropped
let running = null; // {seq, controller, timer, started}
let shown = null; // {kind, version} of what #result shows

/** Builds the panel inside its section. */
export function mount(section) {
  ui.samples = el("div", { class: "samples", role: "group", "aria-label": "Sample calls" }, el("p", { class: "hint" }, "Samples appear when toolgate has loaded."));
  ui.box = codeBox(el("textarea", { id: "call", rows: 9, "aria-describedby": "call-hint", oninput: () => setCall(ui.box.value, "editor") }));
  ui.running = el("p", { id: "running", class: "running", hidden: true });
  ui.result = el("div", { id: "result", class: "result", "aria-live": "polite" },
    el("p", { class: "hint" }, "The verdict appears here as you type. Validate checks the call in the page; Invoke runs the tool in a Web Worker."));
  ui.form = el("div", { class: "call-form" });
  section.append(
    ui.samples,
    el("label", { class: "block", for: "call" }, "Call (JSON: one call in any provider's shape, or a whole response)"),
    ui.box,
    el("p", { class: "hint", id: "call-hint" }, "Checked as you type. Ctrl/⌘+Enter validates, Shift+Ctrl+Enter invokes."),
    el("div", { class: "row" },
      el("button", { type: "button", id: "validate", class: "primary", onclick: () => validate({ live: false }) }, "Validate"),
      el("button", { type: "button", id: "invoke", onclick: () => invokeCall() }, "Invoke")),
    ui.running,
    ui.result,
    ui.form);
  mountForm(ui.form);
  // the handler worker (its own toolgate, fetched again) starts when the panel is first used, not at load
  section.addEventListener("focusin", () => state.module && runner.warm());
  section.addEventListener("pointerdown", () => state.module && runner.warm());
  listen();
}

let liveTimer = 0;

/** Validates after LIVE_MS of quiet; an explicit validate or invoke cancels the wait. */
function live() {
  clearTimeout(liveTimer);
  liveTimer = setTimeout(() => validate({ live: true }), LIVE_MS);
}

function listen() {
  on("ready", () => renderSamples());
  on("call", ({ source } = {}) => {
    if (source !== "editor" && ui.box.value !== state.call) ui.box.value = state.call;
    if (source !== "sample") markSample(null);
    if (source !== "sample" && source !== "history") live();
  });
  on("tools", () => {
    renderSamples();
    if (!shown) return;
    if (shown.kind === "validate") validate({ live: true });
    else if (shown.version !== state.version) ui.result.classList.add("stale");
  });
  on("view", () => {
    if (!shown || !state.built) return;
    if (shown.kind === "validate") validate({ live: true });
    else ui.result.classList.add("stale");
  });
  on("select", () => renderSamples());
  // a server connected or gone: its tools are call targets (branches.js), so the verdict may change
  on("mcp-tools", () => {
    renderSamples();
    if (shown?.kind === "validate") validate({ live: true });
  });
  on("validate", () => validate({ live: false }));
  on("invoke", () => invokeCall());
}

function selectedEntry() {
  return state.built?.entries?.[state.selected] ?? null;
}

function renderSamples() {
  const mcp = pickedMcpTool();
  const entry = mcp ? { tool: mcp.tool, name: mcp.tool.function } : selectedEntry();
  if (!entry) return void ui.samples.replaceChildren(el("p", { class: "hint" }, "There are no tools in the branch, so there are no samples: add one in Tools."));
  if (!entry.tool) {
    ui.samples.replaceChildren(el("p", { class: "hint" }, `Tool ${entry.index + 1} does not build, so it has no samples: ${errorLine(entry.error)}`));
    return;
  }
  const schema = entry.tool.toolSchema?.function?.parameters || {};
  const list = samplesFor(entry.name, schema);
  const chips = (group) => el("div", { class: "chips" }, list.filter((s) => s.group === group).map((s) =>
    el("button", { type: "button", class: "small", title: s.title, "aria-pressed": "false", dataset: { sample: s.id }, onclick: () => useSample(s) }, s.label)));
  ui.samples.replaceChildren(
    el("p", { class: "samples-title" }, el("strong", {}, `Samples for ${entry.name}`), " from its schema, as each provider sends a call:"),
    chips("shapes"),
    el("p", { class: "samples-title" }, "What models get wrong:"),
    chips("broken"));
}

function markSample(id) {
  for (const b of ui.samples.querySelectorAll("[data-sample]")) b.setAttribute("aria-pressed", String(b.dataset.sample === id));
}

function useSample(sample) {
  setCall(sample.text, "sample");
  markSample(sample.id);
  validate({ live: false });
}

/** The built entry of the tool named name (the one the branch holds), or null. */
function entryNamed(name) {
  return state.built?.entries?.find((e) => e.tool && !e.error && e.name === name) ?? null;
}

function coversFor(result) {
  if (!result.ok && result.error.code === "invalid-request") {
    return "The envelope is read first: one JSON value in a call shape (plain, OpenAI Chat or Responses, Anthropic tool_use, Gemini functionCall) or a whole response; a problem there stops the check before any tool is looked up.";
  }
  if (!result.ok && result.error.code === "tool-not-found" && brokenToolsNote(state.built)) return brokenToolsNote(state.built);
  const name = result.ok ? result.function : result.error.tool;
  const mcp = toolNamed(name);
  if (mcp) return `An MCP tool of server "${mcp.server}": its input schema, checked by the full build on the branch the MCP panel registered it on, before anything is sent to the server.`;
  const entry = entryNamed(name);
  if (!entry) return coversText(null);
  return coversText(entry.def, entry.tool);
}

/** Selects, in the call box, the place an issue names. */
function pick(issue, callId) {
  const text = ui.box.value;
  const range = locate(text, issue.path, callStart(text, callId));
  ui.box.focus();
  if (range) ui.box.setSelectionRange(range.start, range.end);
}

/** The branch calls are checked on: the built branch as the shown provider tab exports it. */
function branch() {
  return viewBranch().branch;
}

/**
 * The line that says which export a verdict follows, and, when servers (names of MCP servers whose
 * tools the calls named) is not empty, that those calls were checked on the MCP panel's branch.
 */
function followsLine(kind, view, servers = []) {
  const v = view === state.view ? viewBranch() : { error: null };
  const what = kind === "invoke" ? "Invoked" : "Validated";
  const mcp = servers.length
    ? ` Calls to the tools of MCP server ${servers.join(", ")} were ${what.toLowerCase()} on the branch the MCP panel registered them on (the full build), as its provider tabs exported it.`
    : "";
  if (v.error) return el("p", { class: "follows warn", id: "result-follows" }, `${what} on the tools as registered: the ${viewLabel(view)} export failed (${errorLine(v.error)}).${mcp}`);
  return el("p", { class: "follows", id: "result-follows", dataset: { target: view.target, options: Object.keys(view.options).join(","), mcp: servers.join(",") } },
    `${what} as the ${viewLabel(view)} export sees it (`, el("code", {}, viewCode(view)),
    `): its rewritten names and strict restores apply. Another provider tab, or its option, changes this.${mcp}`);
}

/** The names of the MCP servers whose tools the calls name (branches.js), in order, once each. */
function mcpServersOf(parts) {
  const names = parts.map((p) => mcpVerdict(p.request, branch().validate(p.request))?.server).filter(Boolean);
  return [...new Set(names)];
}

function show(kind, version, nodes, view = state.view, servers = []) {
  shown = { kind, version };
  nodes = [followsLine(kind, view, servers), ...nodes];
  ui.result.classList.toggle("stale", version !== state.version);
  ui.result.removeAttribute("aria-busy");
  ui.result.replaceChildren(...nodes);
}

function summary(rows, okOf, [yes, no, how]) {
  if (rows.length < 2) return null;
  const ok = rows.filter(okOf).length;
  return el("p", { class: "summary" }, el("strong", {}, `${rows.length} calls`), `: ${ok} ${yes}, ${rows.length - ok} ${no}, ${how}.`);
}

/** Validates the call text in the page (the branch of the main thread) and shows one verdict per call. */
function validate({ live }) {
  clearTimeout(liveTimer);
  if (!state.built || (live && running)) return; // typing never cancels a running invoke
  const mySeq = ++seq;
  supersede(mySeq);
  const started = performance.now();
  const text = state.call;
  const parts = splitCalls(state.tg, text);
  const rows = parts.map((p) => ({ ...p, result: verdictOf(p.request) }));
  const durationMs = Math.round((performance.now() - started) * 10) / 10;
  for (const row of rows) {
    row.covers = coversFor(row.result);
    if (row.result.ok) row.dropped = Object.keys(sentArguments(state.tg, row) || {}).filter((k) => !(k in row.result.arguments));
  }
  ui.box.setAttribute("aria-invalid", String(rows.some((r) => !r.result.ok && r.result.error.code === "invalid-request")));
  const nodes = rows.length
    ? [summary(rows, (r) => r.result.ok, ["valid", "refused", "each checked on its own"]), ...rows.map((row) => verdictView(row, (issue) => pick(issue, row.callId)))]
    : [el("div", { class: "verdict warn" }, el("strong", {}, "No tool call"), ": this response holds no function call (only text, or an empty list).")];
  show("validate", state.version, nodes.filter(Boolean), state.view, mcpServersOf(parts));
  for (const row of rows) emit("outcome", { kind: "validate", request: row.requestText, version: state.version, result: row.result, durationMs, live, label: row.label });
}

/** The verdict on request: the page's branch's, or the MCP branch's when the call names an MCP tool (branches.js). */
function verdictOf(request) {
  const local = branch().validate(request);
  return mcpVerdict(request, local)?.result ?? local;
}

/** Stops showing (and cancels) whatever ran before call number mySeq. */
function supersede(mySeq) {
  if (!running || running.seq === mySeq) return;
  running.controller.abort(new DOMException("a newer call replaced this one", "AbortError"));
  stopRunning();
}

function stopRunning() {
  if (!running) return;
  clearInterval(running.timer);
  running = null;
  ui.running.hidden = true;
  ui.running.replaceChildren();
  ui.result.removeAttribute("aria-busy");
}

function startRunning(mySeq) {
  const controller = new AbortController();
  const started = performance.now();
  const clock = el("span", { class: "elapsed" }, "0.0 s");
  ui.running.replaceChildren(el("span", { class: "spinner", "aria-hidden": "true" }), " running… ", clock, " ",
    el("button", { type: "button", id: "cancel-invoke", class: "small", onclick: () => controller.abort(new DOMException("cancelled from the page", "AbortError")) }, "Cancel"));
  ui.running.hidden = false;
  ui.result.classList.remove("stale");
  ui.result.replaceChildren(el("p", { class: "hint" }, "Invoking in the handler worker… the outcome appears here."));
  ui.result.setAttribute("aria-busy", "true");
  const timer = setInterval(() => (clock.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`), 100);
  running = { seq: mySeq, controller, timer, started };
  return controller;
}

/** A refusal made before anything runs: the call names a tool that is not built because its definition fails. */
function notBuilt(parts) {
  const note = brokenToolsNote(state.built);
  if (!note) return null;
  const missing = parts.map((p) => verdictOf(p.request)).find((r) => !r.ok && r.error.code === "tool-not-found");
  if (!missing) return null;
  return `tool-not-found: ${missing.error.message} ${note} Nothing ran.`;
}

/** The sum of the timeoutMs of the tools the calls name, or undefined when one of them has none. */
function timeBudget(parts) {
  let total = 0;
  for (const p of parts) {
    const r = branch().validate(p.request);
    const ms = entryNamed(r.ok ? r.function : r.error.tool)?.def?.timeoutMs;
    if (!(ms > 0)) return undefined;
    total += ms;
  }
  return total || undefined;
}

/** Invokes the call in the worker; shows running… with Cancel, then the outcome of each call. */
async function invokeCall() {
  clearTimeout(liveTimer);
  if (!state.built || !state.module) return;
  const text = state.call;
  const version = state.version;
  const view = state.view;
  const mySeq = ++seq;
  supersede(mySeq);
  const parts = splitCalls(state.tg, text);
  const refusal = notBuilt(parts);
  let outcomes;
  if (refusal) outcomes = [{ kind: "invoke", request: text, version, status: "failed", error: refusal, errorData: { code: "tool-not-found", message: refusal }, durationMs: 0 }];
  else {
    const controller = startRunning(mySeq);
    const route = (p) => mcpVerdict(p.request, branch().validate(p.request));
    if (parts.some(route)) {
      // a call to an MCP tool runs on its server's branch (mcp-invoke.js), the others in the worker
      const local = (p) => runner.invoke(state.defs, version, p.requestText, { signal: controller.signal, timeoutMs: timeBudget([p]), view });
      outcomes = await invokeParts(parts, { route, local, signal: controller.signal, version });
    } else outcomes = await runner.invoke(state.defs, version, text, { signal: controller.signal, timeoutMs: timeBudget(parts), view });
    if (mySeq !== seq) return; // a newer call superseded this one: its answer is dropped
    stopRunning();
  }
  const nodes = outcomes.length
    ? [summary(outcomes, (o) => o.status === "completed", ["completed", "did not complete", "each invoked on its own, in order"]), ...outcomes.map((o) => outcomeView(o, outcomeCovers(o), (issue) => pick(issue, o.errorData?.callId)))]
    : [el("div", { class: "verdict warn" }, el("strong", {}, "No tool call"), ": this response holds no function call, so nothing ran.")];
  show("invoke", version, nodes.filter(Boolean), view, mcpServersOf(parts));
  for (const o of outcomes) emit("outcome", o);
}

function outcomeCovers(o) {
  if (o.status === "cancelled") return "Cancel and the tool's timeoutMs end a call as cancelled (an AbortSignal reaches the handler); a handler that never yields is stopped with its worker.";
  if (o.status === "failed" && o.record) return "The arguments passed match's check (LionAGI's: for a raw function, keys only), then the handler ran and threw: the record keeps the error.";
  if (o.status === "failed" && o.errorData?.code === "invalid-arguments") {
    const entry = entryNamed(o.errorData.tool);
    return `Invoke checks the call as match does, before anything runs, and nothing ran. ${entry ? coversText(entry.def, entry.tool) : ""}`;
  }
  return null;
}
