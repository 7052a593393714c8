// "Call one": pick a discovered tool, edit its JSON arguments (prefilled from its input schema),
// Invoke it on the server, and see its progress, status, response and record.
import { el, pretty, json, errorLine } from "./ui.js";
import { codeBox } from "./editor.js";
import { failureView } from "./mcp-errors.js";

/** A starting value for a schema: its default, first enum or example, else an empty one of its type. */
export function sampleValue(schema = {}) {
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === "object" || schema.properties) {
    const out = {};
    for (const [k, v] of Object.entries(schema.properties || {})) out[k] = sampleValue(v);
    return out;
  }
  return { string: "", integer: 0, number: 0, boolean: false, array: [], null: null }[type] ?? null;
}

/** The record of a call as JSON text (BigInts spelled as records spell them). */
function recordText(fc) {
  try {
    return json(fc.toDict());
  } catch (e) {
    return `(no record: ${errorLine(e)})`;
  }
}

/** The outcome of one call: status badge, response (or error) and the record. */
function outcomeView(fc) {
  const ok = fc.status === "completed";
  const body = ok ? pretty(fc.response) : errorLine(fc.error);
  return el("div", { class: "mcp-outcome" },
    el("p", {}, "Status ", el("span", { class: `badge ${ok ? "ok" : "bad"}`, id: "mcp-call-status" }, fc.status),
      fc.duration != null ? el("span", { class: "hint" }, ` in ${Math.round(fc.duration * 1000)} ms`) : ""),
    el("h4", {}, ok ? "Response" : "Error"),
    el("pre", { class: "out", id: "mcp-call-response" }, body),
    el("details", {}, el("summary", {}, "Record (fc.toDict())"), el("pre", { class: "out" }, recordText(fc))));
}

/** Shows one progress notification: a bar when the server gives a total, and the list of what it said. */
function showProgress(box, p) {
  if (!box.firstChild) box.append(el("h4", {}, "Progress"), el("progress", { "aria-label": "Progress of the call" }), el("ol", {}));
  const [, bar, list] = box.children;
  if (p.total) {
    bar.max = p.total;
    bar.value = p.progress;
  }
  list.append(el("li", {}, `${p.progress}${p.total ? ` of ${p.total}` : ""}${p.message ? `: ${p.message}` : ""}`));
}

/**
 * The call area: {node, setTools(branch, tools), pick(name)}. A call runs on the branch the tool
 * was registered in; Cancel aborts it (AbortSignal). onElicit is where the server's questions go.
 */
export function callArea() {
  const select = el("select", { id: "mcp-call-tool", "aria-describedby": "mcp-call-hint" });
  const args = codeBox(el("textarea", { id: "mcp-call-args", rows: "6", "aria-label": "Arguments (JSON)" }));
  const invoke = el("button", { type: "button", class: "primary", id: "mcp-invoke" }, "Invoke");
  const cancel = el("button", { type: "button", id: "mcp-call-cancel", hidden: true }, "Cancel");
  const progress = el("div", { class: "mcp-progress", id: "mcp-call-progress" });
  const out = el("div", { id: "mcp-call-out", "aria-live": "polite" });
  const node = el("div", { class: "mcp-call", hidden: true },
    el("h3", {}, "Call one"),
    el("label", { class: "block" }, "Tool", select),
    el("p", { class: "hint", id: "mcp-call-hint" }, "The arguments start from the tool's input schema; toolgate validates them before anything is sent."),
    el("label", { class: "block", for: "mcp-call-args" }, "Arguments (JSON)"), args,
    el("div", { class: "row" }, invoke, cancel), progress, out);
  let tools = new Map();
  let ctrl = null;

  const fill = () => {
    const t = tools.get(select.value);
    args.value = t ? JSON.stringify(sampleValue(t.tool.toolSchema.function?.parameters), null, 2) : "";
  };
  select.addEventListener("change", fill);
  cancel.addEventListener("click", () => ctrl?.abort());
  invoke.addEventListener("click", () => run());

  async function run() {
    const entry = tools.get(select.value);
    if (!entry) return;
    let parsed;
    try {
      parsed = JSON.parse(args.value || "{}");
      args.removeAttribute("aria-invalid");
    } catch (e) {
      args.setAttribute("aria-invalid", "true");
      return out.replaceChildren(el("p", { class: "verdict bad", role: "alert" }, `The arguments are not JSON: ${e.message}`));
    }
    ctrl?.abort();
    const mine = (ctrl = new AbortController());
    progress.replaceChildren();
    out.replaceChildren(el("p", {}, el("span", { class: "spinner", "aria-hidden": "true" }), ` Calling ${entry.tool.function}…`));
    invoke.disabled = true;
    cancel.hidden = false;
    try {
      const onProgress = (p) => showProgress(progress, p);
      const fc = await entry.branch.invoke({ function: entry.tool.function, arguments: parsed }, { signal: mine.signal, onProgress });
      if (ctrl === mine) out.replaceChildren(outcomeView(fc));
    } catch (e) {
      if (ctrl === mine) out.replaceChildren(failureView(`${entry.tool.function} was not called`, e));
    } finally {
      if (ctrl === mine) {
        invoke.disabled = false;
        cancel.hidden = true;
        ctrl = null;
      }
    }
  }

  return {
    node,
    /** entries: [{branch, tool}]; an empty list hides the area. */
    setTools(entries) {
      ctrl?.abort();
      const keep = select.value;
      tools = new Map(entries.map((e) => [e.tool.function, e]));
      select.replaceChildren(...entries.map((e) => el("option", { value: e.tool.function }, e.tool.function)));
      node.hidden = entries.length === 0;
      out.replaceChildren();
      progress.replaceChildren();
      if (tools.has(keep)) select.value = keep;
      fill();
    },
    pick(name) {
      select.value = name;
      fill();
      node.scrollIntoView({ block: "nearest" });
      args.focus();
    },
  };
}
