// The editor of one tool definition (tools panel): a form for a raw function or for a JSON Schema
// tool. It reports each change as a patch of the definition; the panel debounces and rebuilds, then
// tells the editor what the build said so it can mark the field at fault in place.
import { el, errorLine } from "./ui.js";
import { codeBox } from "./editor.js";

const MODE_HINTS = {
  lionagi: "lionagi: LionAGI's own derivation: every parameter required, untyped ones advertised as strings.",
  accurate: "accurate: parameters with a default are optional, and their type is inferred from the default.",
};
const COERCE_HINTS = {
  lax: "lax: Pydantic's lax conversions (\"5\" becomes 5 for an integer), each one reported.",
  none: "none: no conversion; a string where an integer is wanted is refused.",
};

let uid = 0;

/** A labelled select of values; the current one selected. */
function select(id, label, values, current, onchange) {
  const box = el("select", { id, onchange: () => onchange(box.value) }, values.map((v) => el("option", { value: v, selected: v === current }, v)));
  return el("label", { for: id }, label, box);
}

/** A labelled checkbox. */
function checkbox(id, label, checked, onchange) {
  const box = el("input", { type: "checkbox", id, checked: Boolean(checked), onchange: () => onchange(box.checked) });
  return el("label", { for: id }, box, label);
}

/** The timeout field: empty for none. */
function timeoutField(id, value, onchange) {
  const box = el("input", { type: "number", id, min: "0", step: "100", inputmode: "numeric", placeholder: "none", value: Number.isFinite(value) ? String(value) : "" });
  box.addEventListener("input", () => {
    const n = Number(box.value);
    onchange(box.value.trim() === "" || !Number.isFinite(n) || n <= 0 ? undefined : Math.round(n));
  });
  return el("label", { for: id }, "timeoutMs", box);
}

/** A labelled code box (at least rows tall, taller for longer text) with its error line below it. Returns {wrap, box, error}. */
function codeField(id, label, value, onchange, rows = 10) {
  const lines = String(value ?? "").split("\n").length + 1;
  const box = codeBox(el("textarea", { id, rows: String(Math.max(rows, Math.min(lines, 18))), "aria-describedby": `${id}-error` }));
  box.value = value ?? "";
  box.addEventListener("input", () => onchange(box.value));
  const error = el("p", { id: `${id}-error`, class: "field-error", "aria-live": "polite" });
  return { wrap: el("div", { class: "field" }, el("label", { class: "block", for: id }, label, box), error), box, error };
}

/** A labelled one-line text input with its error line. */
function textField(id, label, value, onchange) {
  const box = el("input", { type: "text", id, value: value ?? "", autocomplete: "off", spellcheck: "false", "aria-describedby": `${id}-error` });
  box.addEventListener("input", () => onchange(box.value));
  const error = el("p", { id: `${id}-error`, class: "field-error", "aria-live": "polite" });
  return { wrap: el("div", { class: "field" }, el("label", { class: "block", for: id }, label, box), error), box, error };
}

/** The form of a raw-function definition. */
function functionForm(def, patch, fields) {
  const p = `tool-ed-${++uid}`;
  const source = codeField(`${p}-source`, "Function source (JavaScript: its name, parameters and docstring become the schema)", def.source, (v) => patch({ source: v }), 12);
  fields.source = source;
  const hint = el("p", { class: "hint", id: `${p}-mode-hint` }, MODE_HINTS[def.schemaMode || "lionagi"]);
  const mode = select(`${p}-mode`, "Schema mode", ["lionagi", "accurate"], def.schemaMode || "lionagi", (v) => {
    hint.textContent = MODE_HINTS[v];
    patch({ schemaMode: v });
  });
  mode.querySelector("select").setAttribute("aria-describedby", hint.id);
  return [
    source.wrap,
    el("div", { class: "row" }, mode,
      select(`${p}-doc`, "Docstring style", ["google", "rest"], def.docstringStyle || "google", (v) => patch({ docstringStyle: v })),
      timeoutField(`${p}-timeout`, def.timeoutMs, (v) => patch({ timeoutMs: v }))),
    hint,
    checkbox(`${p}-sfc`, "strictFuncCall: the argument keys must be exactly the required ones", def.strictFuncCall, (v) => patch({ strictFuncCall: v })),
  ];
}

/** The form of a typed (JSON Schema) definition. */
function schemaForm(def, patch, fields) {
  const p = `tool-ed-${++uid}`;
  fields.name = textField(`${p}-name`, "Name", def.name, (v) => patch({ name: v }));
  const description = textField(`${p}-desc`, "Description", def.description, (v) => patch({ description: v }));
  fields.parameters = codeField(`${p}-params`, "Parameters (JSON Schema of the arguments object)", def.parameters, (v) => patch({ parameters: v }), 12);
  fields.handler = codeField(`${p}-handler`, "Handler (JavaScript: (args) => result, may be async)", def.handler, (v) => patch({ handler: v }), 4);
  const hint = el("p", { class: "hint", id: `${p}-coerce-hint` }, COERCE_HINTS[def.coerce || "lax"]);
  const coerce = select(`${p}-coerce`, "Coercion", ["lax", "none"], def.coerce || "lax", (v) => {
    hint.textContent = COERCE_HINTS[v];
    patch({ coerce: v });
  });
  coerce.querySelector("select").setAttribute("aria-describedby", hint.id);
  return [
    fields.name.wrap, description.wrap, fields.parameters.wrap, fields.handler.wrap,
    el("div", { class: "row" }, coerce, timeoutField(`${p}-timeout`, def.timeoutMs, (v) => patch({ timeoutMs: v }))),
    hint,
    checkbox(`${p}-strict`, "strict: function.strict is true in the provider schema", def.strict, (v) => patch({ strict: v })),
  ];
}

/** Which field of def an error of its build belongs to. */
export function faultyField(def, error) {
  if (def.kind === "function") return "source";
  if (error?.code === "name-collision") return "name";
  const message = String(error?.message || "");
  if (/^the parameters/.test(message)) return "parameters";
  if (error instanceof SyntaxError || error instanceof TypeError || /handler/i.test(message)) return "handler";
  if (/\bname\b/i.test(message) && !/parameters|schema/i.test(message)) return "name";
  return "parameters";
}

/**
 * Builds the editor of def into container. patch(fields) is called on every change. Returns
 * {mark(entry)}: shows the build's error (if any) under the field at fault, with aria-invalid on it.
 */
export function renderEditor(container, def, patch) {
  const fields = {};
  const kind = def.kind === "schema" ? "typed tool (JSON Schema and a handler)" : "raw function (the schema comes from the source)";
  const form = def.kind === "schema" ? schemaForm(def, patch, fields) : functionForm(def, patch, fields);
  container.replaceChildren(el("p", { class: "hint editor-kind" }, `Editing a ${kind}. Changes rebuild the tool as you type.`), ...form);
  return {
    mark(entry) {
      const at = entry?.error ? faultyField(def, entry.error) : null;
      for (const [key, f] of Object.entries(fields)) {
        const bad = key === at;
        f.box.setAttribute("aria-invalid", bad ? "true" : "false");
        f.error.textContent = bad ? errorLine(entry.error) : "";
        f.error.classList.toggle("verdict", bad);
        f.error.classList.toggle(entry?.error?.code === "name-collision" ? "warn" : "bad", bad);
        if (!bad) f.error.classList.remove("warn", "bad");
      }
    },
  };
}
