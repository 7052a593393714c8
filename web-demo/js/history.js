// The history panel: every validate and invoke the person asked for (not the live check made
// while typing), newest first, the last MAX kept: time, request, verdict or status, duration; a row
// expands to the request and the verdict or record, with copy and replay (the call back in the box,
// then the same kind of run).
import { on, emit, setCall } from "./store.js";
import { el, pretty, copyButton, formatDuration } from "./ui.js";

const MAX = 50;
const entries = [];
let list = null;
let empty = null;

/** Builds the panel inside its section. */
export function mount(section) {
  empty = el("p", { class: "hint", id: "history-empty" }, "No calls yet: Validate or Invoke one and it is listed here (the last 50).");
  list = el("ul", { class: "items history", "aria-label": "Calls, newest first" });
  section.append(empty, list,
    el("div", { class: "row" }, el("button", { type: "button", class: "small", id: "history-clear", onclick: clear }, "Clear the history")));
  on("outcome", (outcome) => {
    if (!outcome || outcome.live) return;
    add(outcome);
  });
}

function clear() {
  entries.length = 0;
  list.replaceChildren();
  empty.hidden = false;
}

/** What the row says the outcome was: [text, badge class]. */
function verdictOf(o) {
  if (o.kind === "validate") return o.result?.ok ? ["valid", "ok"] : [`refused: ${o.result?.error?.code || "error"}`, "bad"];
  const code = o.errorData?.code || o.record?.execution?.error?.code;
  const cls = o.status === "completed" ? "ok" : o.status === "cancelled" ? "warn" : "bad";
  return [`${o.status}${code ? ` (${code})` : ""}`, cls];
}

function short(request) {
  const oneLine = String(request).replace(/\s+/g, " ");
  return oneLine.length > 80 ? `${oneLine.slice(0, 79)}…` : oneLine;
}

function detailOf(o) {
  if (o.kind === "validate") {
    const r = o.result;
    return r?.ok ? { ok: true, function: r.function, arguments: r.arguments, conversions: r.conversions ?? [] } : { ok: false, code: r?.error?.code, message: r?.error?.message, issues: r?.error?.issues ?? [] };
  }
  return o.record ?? { status: o.status, error: o.error };
}

function add(o) {
  const time = new Date();
  const [verdict, cls] = verdictOf(o);
  const detail = pretty(detailOf(o));
  const entry = { kind: o.kind, request: o.request };
  entries.unshift(entry);
  const row = el("li", { class: "history-row", dataset: { kind: o.kind } },
    el("details", {},
      el("summary", { class: "history-summary" },
        el("time", { datetime: time.toISOString() }, time.toLocaleTimeString([], { hour12: false })), " ",
        el("span", { class: "badge" }, o.kind), " ",
        o.label ? el("span", { class: "hint" }, o.label) : null,
        el("code", { class: "history-request" }, short(o.request)), " ",
        el("span", { class: `badge ${cls} history-verdict` }, verdict), " ",
        el("span", { class: "hint history-ms" }, formatDuration(o.durationMs))),
      el("p", {}, el("strong", {}, "Request"), o.label ? ` (${o.label})` : ""),
      el("pre", { class: "out history-request-full", role: "region", tabindex: "0", "aria-label": "Request" }, o.request),
      el("p", {}, el("strong", {}, o.kind === "validate" ? "Verdict" : "Record")),
      el("pre", { class: "out history-detail", role: "region", tabindex: "0", "aria-label": "Outcome" }, detail),
      el("div", { class: "row" },
        copyButton(() => o.request, "the request", "Copy request"),
        copyButton(() => detail, o.kind === "validate" ? "the verdict" : "the record", o.kind === "validate" ? "Copy verdict" : "Copy record"),
        el("button", { type: "button", class: "small replay", onclick: () => replay(entry) }, `Replay (${o.kind})`))));
  list.prepend(row);
  empty.hidden = true;
  while (entries.length > MAX) {
    entries.pop();
    list.lastElementChild?.remove();
  }
}

/** Puts the request back in the call box and runs it again the same way. */
function replay(entry) {
  setCall(entry.request, "history");
  emit(entry.kind);
}
