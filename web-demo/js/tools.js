// The tools panel: the branch's tools (add, remove, select), the editor of the selected one (a raw
// function or a JSON Schema tool, rebuilt as you type), its derived provider schema, the branch's
// schemaList, and the examples one click away.
import { state, on, setDefs, updateDef, select, setCall } from "./store.js";
import { el, errorLine, copyButton, toast } from "./ui.js";
import { compactJson } from "./tools-format.js";
import { examples, blankDef } from "./examples.js";
import { renderEditor } from "./tools-editor.js";
import { mountMcpTools } from "./tools-mcp.js";
import { pickedMcpTool, pickMcpTool } from "./branches.js";

const DEBOUNCE_MS = 250;
const ui = {};
let editor = null;
let editorIndex = -1;
let editorDef = null;
let selfUpdate = false;
let pending = null;
let pendingIndex = -1;
let timer = null;

/** Builds the panel inside its section. */
export function mount(section) {
  section.append(
    examplesBlock(),
    el("h3", { id: "tools-list-title" }, "Tools in this branch"),
    ui.collisions = el("div", { id: "tool-collisions", "aria-live": "polite" }),
    ui.list = el("ul", { class: "items tool-list", id: "tool-list", "aria-labelledby": "tools-list-title" }),
    el("div", { class: "row" },
      el("button", { type: "button", id: "tool-add-function", onclick: () => addTool("function") }, "Add a function"),
      el("button", { type: "button", id: "tool-add-schema", onclick: () => addTool("schema") }, "Add a JSON Schema tool")),
    el("h3", { id: "tool-editor-title" }, "Edit the selected tool"),
    ui.editor = el("div", { id: "tool-editor", role: "group", "aria-labelledby": "tool-editor-title" }, el("p", { class: "hint" }, "The tools appear once toolgate has loaded.")),
    schemaBlock());
  mountMcpTools(section);
  on("tools", render);
  on("select", render);
}

/** The example chips and the add-or-replace toggle. */
function examplesBlock() {
  ui.addMode = el("input", { type: "checkbox", id: "example-add-mode" });
  const chips = examples.map((ex) => el("button", { type: "button", "data-example": ex.id, title: ex.hint, onclick: () => loadExample(ex) }, ex.label));
  return el("div", { class: "tool-examples" },
    el("h3", { id: "examples-title" }, "Examples"),
    el("p", { class: "hint", id: "examples-hint" }, "A click replaces the branch's tools with the example's and puts a call that fits it in the call box. Tick the box to add the example's tools to the branch instead (the call is left as it is)."),
    el("div", { class: "chips", role: "group", "aria-labelledby": "examples-title", "aria-describedby": "examples-hint" }, chips),
    el("label", { for: "example-add-mode" }, ui.addMode, "Add to the branch instead of replacing"));
}

/** The selected tool's provider schema and the branch's schemaList. */
function schemaBlock() {
  ui.schema = el("pre", { class: "out", id: "tool-schema", role: "region", tabindex: "0", "aria-label": "Provider schema of the selected tool" });
  ui.schemaTitle = el("h3", { id: "tool-schema-title" }, "Provider schema (tool.toolSchema)");
  ui.schemaList = el("pre", { class: "out", id: "schema-list", role: "region", tabindex: "0", "aria-label": "The branch's schemaList" });
  ui.schemaListSummary = el("summary", {}, "The branch's schemaList");
  return el("div", { class: "tool-schemas" },
    el("div", { class: "row" }, ui.schemaTitle, copyButton(() => ui.schema.textContent, "the tool's schema", "Copy schema")),
    ui.schema,
    el("details", { id: "schema-list-details" }, ui.schemaListSummary,
      el("p", { class: "hint" }, "What LionAGI sends a model (branch.schemaList): each tool's schema, in branch order; a failed or colliding tool is not in it."),
      el("div", { class: "row" }, copyButton(() => ui.schemaList.textContent, "the schemaList", "Copy schemaList")),
      ui.schemaList));
}

/** Re-renders from state.built: the list, the editor (unless this panel's own edit caused the build) and the schemas. */
function render() {
  if (!state.built) return;
  if (state.selected !== editorIndex || (!selfUpdate && state.defs[state.selected] !== editorDef)) renderSelected();
  editorDef = state.defs[state.selected];
  editor?.mark(state.built.entries[state.selected]);
  renderList();
  renderCollisions();
  renderSchemas();
}

/** Builds the editor of the selected definition. */
function renderSelected() {
  editorIndex = state.selected;
  const def = state.defs[state.selected];
  if (!def) {
    editor = null;
    ui.editor.replaceChildren(el("p", { class: "hint" }, "No tools in this branch: add one or pick an example."));
    return;
  }
  editor = renderEditor(ui.editor, def, (patch) => queuePatch(state.selected, patch));
}

/** The name a definition goes by in the list, even when it did not build. */
function displayName(entry, index) {
  if (entry?.tool) return entry.tool.function;
  const def = state.defs[index];
  if (def?.kind === "schema" && def.name) return def.name;
  const m = def?.source?.match(/function\s*\*?\s*([\w$]+)/);
  return m ? m[1] : `tool ${index + 1}`;
}

/** The badge of an entry: built, failed or name taken. */
function badge(entry) {
  if (!entry?.error) return el("span", { class: "badge ok" }, "built");
  if (entry.error.code === "name-collision") return el("span", { class: "badge warn" }, "name taken: left out");
  return el("span", { class: "badge bad" }, "failed to build");
}

/** The list of the branch's tools. */
function renderList() {
  const items = state.defs.map((def, i) => {
    const entry = state.built.entries[i];
    const name = displayName(entry, i);
    const kind = def.kind === "schema" ? "typed JSON Schema" : "raw function";
    const current = i === state.selected;
    return el("li", { "aria-current": current ? "true" : false, dataset: { index: String(i), state: entry?.error ? (entry.error.code === "name-collision" ? "collision" : "failed") : "ok" } },
      el("div", { class: "tool-item" },
        el("button", { type: "button", class: "tool-pick", onclick: () => pick(i) },
          el("strong", {}, `${i + 1}. ${name}`), " ", el("span", { class: "tool-kind" }, kind)),
        badge(entry),
        el("button", { type: "button", class: "small tool-remove", "aria-label": `Remove tool ${i + 1} (${name})`, onclick: () => removeTool(i) }, "Remove")),
      entry?.error && entry.error.code !== "name-collision" ? el("p", { class: "tool-error" }, errorLine(entry.error)) : null);
  });
  ui.list.replaceChildren(...items);
  if (!items.length) ui.list.append(el("li", { class: "hint" }, "No tools yet."));
}

/** One line per name two or more tools share. */
function renderCollisions() {
  const lines = state.built.collisions.map(({ name, indexes }) => {
    const [first, ...later] = indexes.map((i) => i + 1);
    const others = later.map((n) => `tool ${n}`).join(" and ");
    return el("p", { class: "verdict warn collision" }, el("strong", {}, "Name collision: "),
      `${others} ${later.length > 1 ? "are" : "is"} also named "${name}", which tool ${first} already has. A branch holds one tool per name, so ${later.length > 1 ? "they are" : "it is"} left out: rename ${later.length > 1 ? "them" : "it"}.`);
  });
  ui.collisions.replaceChildren(...lines);
}

/** The selected tool's schema and the schemaList. */
function renderSchemas() {
  const entry = state.built.entries[state.selected];
  ui.schemaTitle.textContent = entry ? `Provider schema of ${displayName(entry, state.selected)} (tool.toolSchema)` : "Provider schema (tool.toolSchema)";
  if (!entry) ui.schema.textContent = "No tool selected.";
  else if (!entry.tool) ui.schema.textContent = `No schema: this tool did not build.\n${errorLine(entry.error)}`;
  else ui.schema.textContent = compactJson(entry.tool.toolSchema);
  ui.schema.classList.toggle("stale", false);
  let list;
  try {
    list = state.built.branch.schemaList;
  } catch (e) {
    list = `schemaList failed: ${errorLine(e)}`;
  }
  ui.schemaList.textContent = compactJson(list);
  const n = Array.isArray(list) ? list.length : 0;
  ui.schemaListSummary.textContent = `The branch's schemaList (${n} tool${n === 1 ? "" : "s"})`;
}

/** Keeps an edit for a moment so typing rebuilds once per pause. */
function queuePatch(index, patch) {
  if (pending && pendingIndex !== index) flush();
  pending = { ...pending, ...patch };
  pendingIndex = index;
  clearTimeout(timer);
  timer = setTimeout(flush, DEBOUNCE_MS);
}

/** Applies the waiting edit now (before anything else changes the definitions). */
function flush() {
  clearTimeout(timer);
  if (!pending) return;
  const patch = pending;
  pending = null;
  if (pendingIndex >= state.defs.length) return;
  selfUpdate = true;
  try {
    updateDef(pendingIndex, patch);
  } finally {
    selfUpdate = false;
  }
}

/** Selects tool i for editing. */
function pick(i) {
  flush();
  if (pickedMcpTool()) pickMcpTool(null); // the samples go back to the page's own tool
  if (i !== state.selected) select(i);
}

/** Adds a blank definition of kind and selects it. */
function addTool(kind) {
  flush();
  const taken = state.built ? state.built.entries.map((e, i) => displayName(e, i)) : [];
  setDefs([...state.defs, blankDef(kind, taken)], state.defs.length);
  ui.editor.querySelector("textarea, input")?.focus();
  toast(`Added tool ${state.defs.length} (${kind === "schema" ? "a JSON Schema tool" : "a function"}).`);
}

/** Removes tool i; the selection stays on the same tool, or moves to its neighbour. */
function removeTool(i) {
  flush();
  const name = displayName(state.built?.entries[i], i);
  const defs = state.defs.filter((_d, j) => j !== i);
  const selected = state.selected > i ? state.selected - 1 : Math.min(state.selected, defs.length - 1);
  editorIndex = -1;
  setDefs(defs, Math.max(0, selected));
  (ui.list.querySelector(`li[data-index="${Math.min(i, defs.length - 1)}"] .tool-remove`) || document.getElementById("tool-add-function"))?.focus();
  toast(`Removed ${name}.`);
}

/** Loads an example: replaces the branch's tools (and the call), or with the toggle adds them. */
function loadExample(ex) {
  flush();
  editorIndex = -1;
  if (ui.addMode.checked) {
    setDefs([...state.defs, ...ex.defs()], state.defs.length);
    toast(`Added the example ${ex.label} to the branch.`);
  } else {
    setDefs(ex.defs(), 0);
    setCall(ex.call, "example");
    toast(`Loaded the example ${ex.label}.`);
  }
}
