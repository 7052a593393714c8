// A form generated from the selected tool's parameters schema, beside the call's raw JSON (as the
// MCP Inspector has): strings (enum → select), numbers, booleans, arrays of scalars (one per
// line), nested objects (fieldsets); required fields marked. The form never rewrites the call it
// mirrors: editing a field changes only that argument inside the call as it stands (the provider's
// wrapper, the call id and a whole response's other calls stay; in an OpenAI shape the arguments
// stay a JSON string), keys the schema does not name stay, a value a field cannot hold (a
// wrong-type sample, a strict model's null) is shown as JSON in a raw field and kept, and a number
// sent for a string parameter (a raw function's, typed "string" in LionAGI mode) stays a number.
// A call that does not parse, or names another tool, is replaced by a plain {"function",
// "arguments"} call (setCall "form"); the form refreshes from the JSON whenever it parses.
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
    root.replaceChildren(summary, el("p", { class: "hint" }, entry ? "The selected tool does not build, so there is no form." : "There are no tools in the branch, so there is no form: add one in Tools."));
    return;
  }
  const schema = entry.tool.toolSchema?.function?.parameters || {};
  current = { name: entry.name, schema, fields: [] };
  const body = objectFields(schema, "", current.fields);
  root.replaceChildren(summary,
    el("p", { class: "hint" }, "Editing a field changes that argument in the call above and nothing else; a required field is marked *. Empty fields are left out; a value a field cannot hold is shown as JSON."),
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
  const typed = makeControl(type, sub, id);
  const { control, raw } = withRaw(typed, id, type);
  fields.push({ path, get: raw.get, set: raw.set });
  const wrapper = type === "boolean"
    ? el("div", { class: "field" }, el("label", { for: id }, typed.control, labelText(key, sub, required)), raw.box)
    : el("div", { class: "block field" }, el("label", { class: "block", for: id }, labelText(key, sub, required)), control);
  wrapper.dataset.path = path;
  return wrapper;
}

/**
 * A typed control with a raw-JSON twin for the values it cannot hold: set(v) shows v in the typed
 * control when it fits there and in the raw box (as JSON, marked) when it does not; get() reads
 * whichever is shown. The raw box keeps the control's id, so its label names it.
 */
function withRaw(typed, id, type) {
  const area = el("textarea", { rows: 2, class: "code raw-value", "aria-describedby": `${id}-raw-note`, spellcheck: "false" });
  const note = el("span", { class: "hint raw-note", id: `${id}-raw-note` });
  const box = el("div", { class: "raw-field", hidden: true }, area, note);
  let rawShown = false;
  const show = (raw) => {
    rawShown = raw;
    box.hidden = !raw;
    typed.control.hidden = raw;
    if (raw) {
      typed.control.removeAttribute("id");
      area.id = id;
    } else {
      area.removeAttribute("id");
      typed.control.id = id;
    }
  };
  const raw = {
    box,
    get: () => {
      if (!rawShown) return typed.get();
      try {
        return JSON.parse(area.value);
      } catch {
        return area.value === "" ? undefined : area.value;
      }
    },
    set: (v) => {
      if (v === undefined || typed.fits(v)) {
        show(false);
        typed.set(v);
      } else {
        show(true);
        area.value = JSON.stringify(v);
        note.textContent = `Not ${type === "integer" ? "an integer" : `a ${type}`} as the schema asks: shown and kept as the JSON that was sent.`;
      }
    },
  };
  return { control: type === "boolean" ? box : el("div", { class: "control" }, typed.control, box), raw };
}

function scalar(type, text) {
  if (type === "integer" || type === "number") return text.trim() === "" ? undefined : Number(text);
  if (type === "boolean") return text === "true";
  return text === "" ? undefined : text;
}

const isScalar = (v) => ["string", "number", "boolean"].includes(typeof v);
const numberText = (t) => t.trim() !== "" && Number.isFinite(Number(t));

function makeControl(type, sub, id) {
  if (Array.isArray(sub.enum)) {
    const control = el("select", { id }, el("option", { value: "" }, "(not set)"), sub.enum.map((v, i) => el("option", { value: String(i) }, JSON.stringify(v))));
    const index = (v) => sub.enum.findIndex((x) => JSON.stringify(x) === JSON.stringify(v));
    return { control, fits: (v) => index(v) >= 0, get: () => (control.value === "" ? undefined : sub.enum[Number(control.value)]), set: (v) => (control.value = v === undefined ? "" : String(index(v))) };
  }
  if (type === "boolean") {
    const control = el("input", { id, type: "checkbox" });
    return { control, fits: (v) => typeof v === "boolean", get: () => control.checked, set: (v) => (control.checked = v === true) };
  }
  if (type === "array" && !["object", "array"].includes(typeOf(sub.items || {}))) {
    const itemType = typeOf(sub.items || {});
    const numeric = itemType === "integer" || itemType === "number";
    const control = el("textarea", { id, rows: 3, class: "code", placeholder: "one value per line" });
    // one value per line can hold strings without a line break, numbers for a numeric item type, and booleans for a boolean one
    const fits = (v) => Array.isArray(v) && v.every((x) => (numeric ? typeof x === "number" && Number.isFinite(x) : itemType === "boolean" ? typeof x === "boolean" : typeof x === "string" && !x.includes("\n") && x.trim() === x && x !== ""));
    return { control, fits, get: () => (control.value.trim() === "" ? undefined : control.value.split("\n").filter((l) => l.trim() !== "").map((l) => scalar(itemType, l.trim()))), set: (v) => (control.value = Array.isArray(v) ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x))).join("\n") : "") };
  }
  if (type === "array" || type === "object") {
    const control = el("textarea", { id, rows: 3, class: "code", placeholder: "JSON" });
    return { control, fits: () => true, get: () => { try { return control.value.trim() === "" ? undefined : JSON.parse(control.value); } catch { return control.value; } }, set: (v) => (control.value = v === undefined ? "" : JSON.stringify(v)) };
  }
  const numeric = type === "integer" || type === "number";
  const attrs = { id, type: numeric ? "number" : "text", step: type === "integer" ? "1" : numeric ? "any" : null, inputmode: numeric ? "decimal" : null };
  if (sub.format === "date-time") attrs.placeholder = "2026-03-14T09:30:00Z";
  if (numeric && typeof sub.minimum === "number") attrs.min = sub.minimum;
  if (numeric && typeof sub.maximum === "number") attrs.max = sub.maximum;
  const control = el("input", attrs);
  // a text field that was given a number (or a boolean) gives it back as one while its text still spells it
  let sentAs = "string";
  const fits = numeric ? (v) => typeof v === "number" && Number.isFinite(v) && (type !== "integer" || Number.isInteger(v)) : isScalar;
  return {
    control,
    fits,
    get: () => {
      const text = control.value;
      if (!numeric && sentAs === "number" && numberText(text)) return Number(text);
      if (!numeric && sentAs === "boolean" && (text === "true" || text === "false")) return text === "true";
      return scalar(type, text);
    },
    set: (v) => {
      sentAs = typeof v;
      control.value = v === undefined ? "" : String(v);
    },
  };
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

const CALL_SHAPES = [
  // [test, name, read args, write args]; OpenAI's arguments are a JSON string
  [(o) => typeof o.function === "string" && !("type" in o), (o) => o.function, (o) => o.arguments ?? {}, (o, a) => (o.arguments = a)],
  [(o) => o.type === "function" && o.function && typeof o.function.name === "string", (o) => o.function.name, (o) => JSON.parse(o.function.arguments || "{}"), (o, a) => (o.function.arguments = JSON.stringify(a))],
  [(o) => o.type === "function_call" && typeof o.name === "string", (o) => o.name, (o) => JSON.parse(o.arguments || "{}"), (o, a) => (o.arguments = JSON.stringify(a))],
  [(o) => o.type === "tool_use" && typeof o.name === "string", (o) => o.name, (o) => o.input ?? {}, (o, a) => (o.input = a)],
  [(o) => o.functionCall && typeof o.functionCall.name === "string", (o) => o.functionCall.name, (o) => o.functionCall.args ?? {}, (o, a) => (o.functionCall.args = a)],
  [(o) => typeof o.name === "string" && o.args && typeof o.args === "object", (o) => o.name, (o) => o.args, (o, a) => (o.args = a)],
];

/** Every call in value, depth first (a call itself, or each one of a whole response): [{node, shape}]. */
function findCalls(value, out = [], depth = 0) {
  if (!value || typeof value !== "object" || depth > 8) return out;
  const shape = Array.isArray(value) ? null : CALL_SHAPES.find(([test]) => test(value));
  if (shape) out.push({ node: value, shape });
  else for (const child of Object.values(value)) findCalls(child, out, depth + 1);
  return out;
}

/** fn(), or undefined when it throws. */
const safe = (fn) => {
  try {
    return fn();
  } catch {
    return undefined;
  }
};

/**
 * The call in the box, as the form edits it: {root, node, shape, name, args} when the text parses
 * and holds a call whose arguments are an object, else null.
 */
function callInBox() {
  let root;
  try {
    root = JSON.parse(state.call);
  } catch {
    return null;
  }
  const calls = findCalls(root);
  // the first call of the form's tool (a whole response may hold others), else the first call
  const found = calls.find((c) => safe(() => c.shape[1](c.node)) === current?.name) ?? calls[0];
  if (!found) return null;
  const [, nameOf, argsOf, setArgs] = found.shape;
  let args;
  try {
    args = argsOf(found.node);
  } catch {
    return null; // OpenAI arguments that are not JSON: the form cannot mirror them
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) return null;
  return { root, node: found.node, name: nameOf(found.node), args, setArgs };
}

/** Shows the call's arguments in the form (empty fields for a call of another tool); leaves it as it is while the JSON does not parse. */
function fill() {
  if (!current) return;
  const call = callInBox();
  if (!call) return;
  const args = call.name === current.name ? call.args : {};
  for (const f of current.fields) f.set(getAt(args, f.path));
}

function deleteAt(obj, path) {
  const keys = path.split("/").slice(1);
  const parent = keys.slice(0, -1).reduce((o, k) => (o && typeof o === "object" ? o[k] : undefined), obj);
  if (parent && typeof parent === "object") delete parent[keys[keys.length - 1]];
}

/** Writes the form's values into the call as it stands: only the fields' arguments change. */
function write() {
  if (!current) return;
  const call = callInBox();
  const mirrored = call && call.name === current.name;
  const args = mirrored ? structuredClone(call.args) : {};
  for (const f of current.fields) {
    const v = f.get();
    if (v === undefined || (typeof v === "number" && Number.isNaN(v))) deleteAt(args, f.path);
    else setAt(args, f.path, v);
  }
  if (!mirrored) return setCall(JSON.stringify({ function: current.name, arguments: args }, null, 2), "form");
  call.setArgs(call.node, args);
  setCall(JSON.stringify(call.root, null, 2), "form");
}
