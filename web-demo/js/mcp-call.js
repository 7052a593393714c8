// "Call one": pick a discovered tool, edit its JSON arguments (prefilled from its input schema),
// Invoke it on the server, and see its progress, status, response and record.
import { el, pretty, json, errorLine } from "./ui.js";
import { codeBox } from "./editor.js";
import { failureView, isFetchFailure } from "./mcp-errors.js";
import { corsHint } from "./mcp-cors.js";
import { eraOf, paramHeaders } from "./mcp-era.js";

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

/** What a cancelled call reads as (not the AbortSignal's own "signal is aborted without reason"). */
const CANCELLED_TEXT = "Cancelled: you stopped the call. toolgate stopped waiting and told the server (notifications/cancelled); nothing it sends back later is used.";

/** The record of a call as JSON text (BigInts spelled as records spell them). */
function recordText(fc) {
  try {
    return json(fc.toDict());
  } catch (e) {
    return `(no record: ${errorLine(e)})`;
  }
}

/**
 * The outcome of one call: status badge, response (or error) and the record; a request the browser
 * refused gets the CORS hint for cors (mcp-cors.js).
 */
function outcomeView(fc, cors) {
  const ok = fc.status === "completed";
  const cancelled = fc.status === "cancelled";
  const body = ok ? pretty(fc.response) : cancelled ? CANCELLED_TEXT : errorLine(fc.error);
  return el("div", { class: "mcp-outcome" },
    el("p", {}, "Status ", el("span", { class: `badge ${ok ? "ok" : cancelled ? "warn" : "bad"}`, id: "mcp-call-status" }, fc.status),
      fc.duration != null ? el("span", { class: "hint" }, ` in ${Math.round(fc.duration * 1000)} ms`) : ""),
    el("h4", {}, ok ? "Response" : cancelled ? "Cancelled" : "Error"),
    el("pre", { class: "out", id: "mcp-call-response", role: "region", tabindex: "0", "aria-label": "Response" }, body),
    !ok && isFetchFailure(fc.error) ? corsHint(cors) : "",
    el("details", {}, el("summary", {}, "Record (fc.toDict())"), el("pre", { class: "out", role: "region", tabindex: "0", "aria-label": "Record" }, recordText(fc))));
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

/** Parses the arguments box; on bad JSON marks it and says why in out. Returns the value or undefined. */
function readArgs(c) {
  try {
    const value = JSON.parse(c.args.value || "{}");
    c.args.removeAttribute("aria-invalid");
    return value;
  } catch (e) {
    c.args.setAttribute("aria-invalid", "true");
    c.out.replaceChildren(el("p", { class: "verdict bad", role: "alert" }, `The arguments are not JSON: ${e.message}`));
    return undefined;
  }
}

/** Shows a call under way (or not): Invoke disabled, Cancel shown, the elapsed time ticking. */
function running(c, entry) {
  clearInterval(c.tick);
  c.invoke.disabled = Boolean(entry);
  c.cancel.hidden = !entry;
  if (!entry) return;
  const started = performance.now();
  const time = el("span", { class: "hint" });
  c.out.replaceChildren(el("p", {}, el("span", { class: "spinner", "aria-hidden": "true" }), ` Calling ${entry.tool.function}… `, time));
  c.tick = setInterval(() => (time.textContent = `${((performance.now() - started) / 1000).toFixed(1)} s`), 100);
}

/** Invokes the selected tool with the box's arguments; a newer call or a new tool list drops this one's result. */
async function run(c) {
  const entry = c.tools.get(c.select.value);
  if (!entry) return;
  const args = readArgs(c);
  if (args === undefined) return;
  c.ctrl?.abort();
  const mine = (c.ctrl = new AbortController());
  c.progress.replaceChildren();
  running(c, entry);
  // should the browser refuse the request, the CORS hint names the headers of this server's era and its tools' Mcp-Param-*
  const same = [...c.tools.values()].filter((x) => x.branch === entry.branch && x.tool.mcp?.server === entry.tool.mcp?.server).map((x) => x.tool);
  const cors = { era: eraOf(entry.tool.mcp?.protocolVersion), params: paramHeaders(same) };
  let view;
  try {
    const fc = await entry.branch.invoke({ function: entry.tool.function, arguments: args }, { signal: mine.signal, onProgress: (p) => showProgress(c.progress, p) });
    view = outcomeView(fc, cors);
  } catch (e) {
    view = mine.signal.aborted
      ? el("div", { class: "mcp-outcome" }, el("p", {}, "Status ", el("span", { class: "badge warn", id: "mcp-call-status" }, "cancelled")), el("p", { id: "mcp-call-response" }, CANCELLED_TEXT))
      : failureView(`${entry.tool.function} was not called`, e, { cors });
  }
  if (c.ctrl !== mine) return;
  c.ctrl = null;
  running(c, null);
  c.out.replaceChildren(view);
}

/** Lists entries ([{branch, tool}]) in the picker; a call under way goes on while its tool is still listed. */
function setTools(c, entries) {
  const keep = c.select.value;
  const next = new Map(entries.map((e) => [e.tool.function, e]));
  const goesOn = c.ctrl && next.get(keep)?.tool === c.tools.get(keep)?.tool;
  c.tools = next;
  c.select.replaceChildren(...entries.map((e) => el("option", { value: e.tool.function }, e.tool.function)));
  c.node.hidden = entries.length === 0;
  if (next.has(keep)) c.select.value = keep;
  if (goesOn) return;
  c.ctrl?.abort();
  c.ctrl = null; // its late result is dropped
  running(c, null);
  c.out.replaceChildren();
  c.progress.replaceChildren();
  fill(c);
}

/** The selected tool's arguments, started from its input schema. */
function fill(c) {
  const t = c.tools.get(c.select.value);
  c.args.value = t ? JSON.stringify(sampleValue(t.tool.toolSchema.function?.parameters), null, 2) : "";
}

/**
 * The call area: {node, setTools(entries), pick(name), chosen()}; onChange() runs when the chosen
 * tool or its arguments change. A call runs on the branch its tool was
 * registered in; Cancel aborts it (AbortSignal); the result, its record and progress show below.
 */
export function callArea(onChange = () => {}) {
  const c = {
    select: el("select", { id: "mcp-call-tool", "aria-describedby": "mcp-call-hint" }),
    args: codeBox(el("textarea", { id: "mcp-call-args", rows: "6" })),
    invoke: el("button", { type: "button", class: "primary", id: "mcp-invoke" }, "Invoke"),
    cancel: el("button", { type: "button", id: "mcp-call-cancel", hidden: true }, "Cancel"),
    progress: el("div", { class: "mcp-progress", id: "mcp-call-progress" }),
    out: el("div", { id: "mcp-call-out", "aria-live": "polite" }),
    tools: new Map(),
    ctrl: null,
  };
  c.node = el("div", { class: "mcp-call", hidden: true },
    el("h3", {}, "Call one"),
    el("label", { class: "block" }, "Tool", c.select),
    el("p", { class: "hint", id: "mcp-call-hint" }, "The arguments start from the tool's input schema; toolgate validates them before anything is sent."),
    el("label", { class: "block", for: "mcp-call-args" }, "Arguments (JSON)"), c.args,
    el("div", { class: "row" }, c.invoke, c.cancel), c.progress, c.out);
  c.select.addEventListener("change", () => {
    fill(c);
    onChange();
  });
  c.args.addEventListener("input", () => onChange());
  c.cancel.addEventListener("click", () => c.ctrl?.abort(new DOMException("cancelled from the page", "AbortError")));
  c.invoke.addEventListener("click", () => run(c));
  return {
    node: c.node,
    setTools(entries) {
      setTools(c, entries);
      onChange();
    },
    /** The chosen tool for "As code": {server, name, args} (args: the box's JSON, else {}), or null. */
    chosen() {
      const entry = c.tools.get(c.select.value);
      if (!entry) return null;
      let args = {};
      try {
        args = JSON.parse(c.args.value || "{}");
      } catch {
        // the box is being typed in: the snippet keeps {} until it is JSON
      }
      return { server: entry.tool.mcp?.server, name: entry.tool.function, args };
    },
    pick(name) {
      c.select.value = name;
      fill(c);
      onChange();
      c.node.scrollIntoView({ block: "nearest" });
      c.args.focus();
    },
  };
}
