// A form generated from the selected tool's parameters schema, beside the call's raw JSON (as the
// MCP Inspector has): strings (enum → select), numbers, booleans, arrays of scalars (one per
// line), nested objects (fieldsets); required fields marked. Editing the form writes the call as
// {"function", "arguments"} (setCall "form"); the form refreshes from the JSON whenever it parses.
import { state, on, setCall } from "./store.js";
import { el } from "./ui.js";

let root = null;
let current = null; // {name, schema, fields: [{path, kind, get(), set(v)}]}
let uid = 0;

/** Builds the form area inside container and keeps it in step with the selected tool and the call. */
export function mountForm(container) {
  root = el("details", { class: "schema-form", open: true },
    el("summary", {}, "Form from the schema"),
    el("p", { class: "hint" }, "The form appears when toolgate has loaded."));
  container.append(root);
  on("tools", render);
  on("select", render);
  on("call", ({ source } = {}) => {
    if (source !== "form") fill();
  });
}

function typeOf(schema) {
  const t = Array.isArray(schema?.type) ? schema.type.find((x) => x !== "null") : schema?.type;
  if (t) return t;
  if (schema?.properties) return "object";
  if (Array.isArray(schema?.enum)) return typeof schema.enum[0] === "number" ? "number" : "string";
  return "string";
}

function render() {
  const entry = state.built?.entries?.[state.selected];
  const summary = el("summary", {}, entry?.name ? `Form from ${entry.name}'s schema` : "Form from the schema");
  if (!entry?.tool) {
    current = null;
    root.replaceChildren(summary, el("p", { class: "hint" }, "The selected tool does not build, so there is no form."));
    return;
  }
  const schema = entry.tool.toolSchema?.function?.parameters || {};
  current = { name: entry.name, schema, fields: [] };
  const body = objectFields(schema, "", current.fields);
  root.replaceChildren(summary,
    el("p", { class: "hint" }, "Editing a field writes the call above; a required field is marked *. Empty fields are left out."),
    body.length ? el("form", { class: "fields", onsubmit: (e) => e.preventDefault(), oninput: write, onchange: write }, body) : el("p", { class: "hint" }, `${entry.name} takes no arguments.`));
  fill();
}

function objectFields(schema, path, fields) {
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  return Object.entries(schema?.properties || {}).map(([key, sub]) => field(key, sub || {}, `${path}/${key}`, required.has(key), fields));
}

function labelText(key, sub, required) {
  return el("span", { class: "field-label" }, el("span", { class: "field-name" }, key), required ? el("span", { class: "required", title: "required" }, " *") : null,
    sub.description ? el("span", { class: "hint" }, ` — ${sub.description}`) : null);
}

function field(key, sub, path, required, fields) {
  const type = typeOf(sub);
  if (type === "object" && sub.properties) {
    return el("fieldset", { class: "field", dataset: { path } }, el("legend", {}, labelText(key, sub, required)), objectFields(sub, path, fields));
  }
  const id = `form-${++uid}`;
  const { control, get, set } = makeControl(type, sub, id);
  fields.push({ path, get, set });
  const wrapper = type === "boolean"
    ? el("label", { class: "field", for: id }, control, labelText(key, sub, required))
    : el("label", { class: "block field", for: id }, labelText(key, sub, required), control);
  wrapper.dataset.path = path;
  return wrapper;
}

function scalar(type, text) {
  if (type === "integer" || type === "number") return text.trim() === "" ? undefined : Number(text);
  if (type === "boolean") return text === "true";
  return text === "" ? undefined : text;
}

function makeControl(type, sub, id) {
  if (Array.isArray(sub.enum)) {
    const control = el("select", { id }, el("option", { value: "" }, "(not set)"), sub.enum.map((v, i) => el("option", { value: String(i) }, JSON.stringify(v))));
    return { control, get: () => (control.value === "" ? undefined : sub.enum[Number(control.value)]), set: (v) => (control.value = v === undefined ? "" : String(Math.max(0, sub.enum.findIndex((x) => JSON.stringify(x) === JSON.stringify(v))))) };
  }
  if (type === "boolean") {
    const control = el("input", { id, type: "checkbox" });
    return { control, get: () => control.checked, set: (v) => (control.checked = v === true) };
  }
  if (type === "array" && !["object", "array"].includes(typeOf(sub.items || {}))) {
    const itemType = typeOf(sub.items || {});
    const control = el("textarea", { id, rows: 3, class: "code", placeholder: "one value per line" });
    return { control, get: () => (control.value.trim() === "" ? undefined : control.value.split("\n").filter((l) => l.trim() !== "").map((l) => scalar(itemType, l.trim()))), set: (v) => (control.value = Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("\n") : "") };
  }
  if (type === "array" || type === "object") {
    const control = el("textarea", { id, rows: 3, class: "code", placeholder: "JSON" });
    return { control, get: () => { try { return control.value.trim() === "" ? undefined : JSON.parse(control.value); } catch { return control.value; } }, set: (v) => (control.value = v === undefined ? "" : JSON.stringify(v)) };
  }
  const numeric = type === "integer" || type === "number";
  const attrs = { id, type: numeric ? "number" : "text", step: type === "integer" ? "1" : numeric ? "any" : null, inputmode: numeric ? "decimal" : null };
  if (sub.format === "date-time") attrs.placeholder = "2026-03-14T09:30:00Z";
  if (numeric && typeof sub.minimum === "number") attrs.min = sub.minimum;
  if (numeric && typeof sub.maximum === "number") attrs.max = sub.maximum;
  const control = el("input", attrs);
  const show = (v) => {
    if (v === undefined || v === null) return "";
    if (numeric) return typeof v === "number" || (typeof v === "string" && v.trim() !== "" && Number.isFinite(Number(v))) ? String(v) : "";
    return typeof v === "string" ? v : JSON.stringify(v);
  };
  return { control, get: () => scalar(type, control.value), set: (v) => (control.value = show(v)) };
}

function getAt(obj, path) {
  return path.split("/").slice(1).reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), obj);
}

function setAt(obj, path, value) {
  const keys = path.split("/").slice(1);
  let o = obj;
  for (const k of keys.slice(0, -1)) o = o[k] && typeof o[k] === "object" ? o[k] : (o[k] = {});
  o[keys[keys.length - 1]] = value;
}

/** The {name, args} of the call text, when it parses as one call (any shape), else null. */
function callInBox() {
  let value;
  try {
    value = JSON.parse(state.call);
  } catch {
    return null;
  }
  if (value && typeof value.function === "string") return { name: value.function, args: value.arguments && typeof value.arguments === "object" ? value.arguments : {} };
  try {
    const calls = state.tg?.parseToolCalls(state.call) ?? [];
    return calls.length && typeof calls[0].arguments === "object" ? { name: calls[0].function, args: calls[0].arguments } : null;
  } catch {
    return null;
  }
}

/** Shows the call's arguments in the form (empty fields for a call of another tool); leaves it as it is while the JSON does not parse. */
function fill() {
  if (!current) return;
  const call = callInBox();
  if (!call) return;
  const args = call.name === current.name ? call.args : {};
  for (const f of current.fields) f.set(getAt(args, f.path));
}

function write() {
  if (!current) return;
  const args = {};
  for (const f of current.fields) {
    const v = f.get();
    if (v !== undefined && !(typeof v === "number" && Number.isNaN(v))) setAt(args, f.path, v);
  }
  setCall(JSON.stringify({ function: current.name, arguments: args }, null, 2), "form");
}
