// The providers panel: the branch in each provider's tool format (tg.toProvider) with the export's
// report, and the tool-result message each provider gets back from the latest invoke.
import { state, on, setView, viewBranch } from "./store.js";
import { el, pretty, errorLine, copyButton } from "./ui.js";
import { compactJson } from "./tools-format.js";
import { renderReport } from "./providers-report.js";
import { mcpExportView } from "./mcp-providers.js";

/** The targets, in tab order, with what each option does there. */
const TARGETS = [
  { id: "openai-chat", label: "OpenAI Chat", option: "strict", optionLabel: "strict (Structured Outputs: every object closed, every property required)" },
  { id: "openai-responses", label: "OpenAI Responses", option: "strict", optionLabel: "strict (Structured Outputs: every object closed, every property required)" },
  { id: "anthropic", label: "Anthropic", option: null },
  { id: "gemini", label: "Gemini", option: "geminiLegacy", optionLabel: "geminiLegacy (the older OpenAPI-subset parameters instead of parametersJsonSchema)" },
  { id: "mcp", label: "MCP", option: null },
];

const ui = {};
const options = Object.fromEntries(TARGETS.map((t) => [t.id, false]));
let current = TARGETS[0].id;
let lastInvoke = null;

/** Builds the panel inside its section. */
export function mount(section) {
  const tabs = TARGETS.map((t) => el("button", {
    type: "button", role: "tab", id: `provider-tab-${t.id}`, "aria-controls": "provider-tabpanel", "data-target": t.id,
    onclick: () => choose(t.id), onkeydown: (e) => arrowKeys(e),
  }, t.label));
  ui.tabs = tabs;
  ui.option = el("div", { class: "row provider-options" });
  ui.export = el("div", { class: "provider-export" });
  ui.result = el("div", { class: "provider-result", "aria-live": "polite" });
  ui.panel = el("div", { role: "tabpanel", id: "provider-tabpanel", tabindex: "0" }, ui.option, ui.export, ui.result);
  section.append(
    el("p", { class: "hint" }, "The branch as each provider's API takes it (tg.toProvider), with every change toolgate made so it fits, and what the provider gets back after an invoke (tg.toolResult)."),
    el("div", { role: "tablist", "aria-label": "Provider formats" }, tabs),
    ui.panel);
  on("tools", render);
  on("mcp-tools", render);
  on("outcome", (outcome) => {
    if (outcome?.kind !== "invoke") return;
    lastInvoke = outcome;
    renderResult();
  });
  choose(current, false);
}

/** Left/Right/Home/End move between the tabs (and show the tab reached). */
function arrowKeys(e) {
  const i = TARGETS.findIndex((t) => t.id === current);
  const moves = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TARGETS.length - 1 };
  if (!(e.key in moves)) return;
  e.preventDefault();
  const next = (moves[e.key] + TARGETS.length) % TARGETS.length;
  choose(TARGETS[next].id, true);
}

/** Shows target's tab; focus moves to its tab when asked (keyboard). */
function choose(id, focus = false) {
  current = id;
  for (const tab of ui.tabs) {
    const on = tab.dataset.target === id;
    tab.setAttribute("aria-selected", on ? "true" : "false");
    tab.tabIndex = on ? 0 : -1;
    if (on && focus) tab.focus();
  }
  ui.panel.setAttribute("aria-labelledby", `provider-tab-${id}`);
  follow();
  renderOption();
  render();
}

/** The call panel validates as the tab shown exports (state.view). */
function follow() {
  const target = TARGETS.find((t) => t.id === current);
  setView(current, target.option && options[current] ? { [target.option]: true } : {});
}

/** The option checkbox of the current target (strict or geminiLegacy), or a note that it has none. */
function renderOption() {
  const target = TARGETS.find((t) => t.id === current);
  if (!target.option) {
    ui.option.replaceChildren(el("p", { class: "hint" }, `${target.label} has no export options: toolgate writes its one format.`));
    return;
  }
  const box = el("input", { type: "checkbox", id: `provider-option-${current}`, checked: options[current], onchange: () => {
    options[current] = box.checked;
    follow();
    render();
  } });
  ui.option.replaceChildren(el("label", { for: box.id }, box, target.optionLabel));
}

/** The export of the current target: tools with a copy button, then the report. */
function render() {
  if (!state.built) {
    ui.export.replaceChildren(el("p", { class: "hint" }, "The provider formats appear once toolgate has loaded."));
    renderResult();
    return;
  }
  const target = TARGETS.find((t) => t.id === current);
  const opts = target.option && options[current] ? { [target.option]: true } : {};
  // The export the call panel validates on (a clone that learnt this tab's aliases and restores).
  const { exported, error } = viewBranch();
  if (error) {
    ui.export.replaceChildren(el("p", { class: "verdict bad", role: "alert" }, `This export failed: ${errorLine(error)}`));
    renderResult();
    return;
  }
  const text = compactJson(exported.tools);
  const call = `tg.toProvider(branch, "${current}"${Object.keys(opts).length ? `, ${JSON.stringify(opts)}` : ""})`;
  ui.export.replaceChildren(...[
    el("div", { class: "row" }, el("h3", { id: "provider-tools-title" }, `${target.label} tools`),
      copyButton(() => text, `the ${target.label} tools`, "Copy tools")),
    el("p", { class: "hint" }, el("code", {}, call), ".tools: what goes in the request's tools."),
    leftOut(),
    el("pre", { class: "out", id: "provider-tools", role: "region", tabindex: "0", "aria-labelledby": "provider-tools-title" }, text),
    renderReport(exported.report, state.built.entries.some((e) => e.tool && !e.error)),
    mcpExportView(current, target.label, opts),
  ].filter(Boolean));
  renderResult();
}

/** A line naming the tools the branch left out (failed to build, or a name taken), or null. */
function leftOut() {
  const out = state.built.entries.filter((e) => e.error).map((e) => {
    const name = e.name ? ` (${e.name})` : "";
    return `tool ${e.index + 1}${name} ${e.error.code === "name-collision" ? "has a name an earlier tool has" : "did not build"}`;
  });
  return out.length ? el("p", { class: "verdict warn", id: "provider-left-out" }, `Not in the export: ${out.join("; ")}. See the tools panel.`) : null;
}

/** The tool-result message of the latest invoke for the current target. */
function renderResult() {
  const target = TARGETS.find((t) => t.id === current);
  const title = el("h3", { id: "provider-result-title" }, `The tool-result message ${target.label} gets back`);
  if (!lastInvoke) {
    ui.result.replaceChildren(title, el("p", { class: "hint", id: "provider-result-hint" }, "Invoke a call (in the call panel) to see the message each provider is sent back with its result."));
    return;
  }
  const result = lastInvoke.results?.[current];
  if (result?.missing) {
    const why = result.missing === "call id"
      ? `this call carries no call id, and ${target.label} pairs a tool result with its call by id. A model always sends one in this shape; a plain {function, arguments} call takes one as "id".`
      : "this call could not be read, so it names no function, and Gemini's functionResponse names the function it answers.";
    ui.result.replaceChildren(title, el("p", { class: "hint", id: "provider-result" }, `No message to show: ${why} tg.toolResult refuses such a call; nothing is wrong with the page.`));
    return;
  }
  const failed = !result || (typeof result === "object" && "error" in result && Object.keys(result).length === 1);
  const why = !result ? (lastInvoke.error ? `The invoke failed: ${lastInvoke.error}` : "The invoke gave no result for this provider.") : null;
  const text = failed ? (why || `tg.toolResult threw: ${result.error}`) : pretty(result);
  const stale = state.built && lastInvoke.version !== state.built.version;
  const view = failed
    ? el("p", { class: `verdict bad${stale ? " stale" : ""}`, id: "provider-result" }, text)
    : el("pre", { class: `out${stale ? " stale" : ""}`, id: "provider-result", role: "region", tabindex: "0", "aria-labelledby": "provider-result-title" }, text);
  ui.result.replaceChildren(
    el("div", { class: "row" }, title, failed ? null : copyButton(() => text, `the ${target.label} tool result`, "Copy result")),
    el("p", { class: "hint" }, `From the invoke of ${lastInvoke.request.length > 80 ? `${lastInvoke.request.slice(0, 80)}…` : lastInvoke.request} (status ${lastInvoke.status ?? "none"}).`),
    view);
}
