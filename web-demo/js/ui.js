// Small DOM helpers every panel uses: no framework, no globals.

/**
 * Makes an element: el("button", {class: "primary", onclick: f}, "Validate").
 * Attributes named on* become listeners; `dataset` and `style` take objects; false/null attributes are left out.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === false || value === null || value === undefined) continue;
    if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key === "style" && typeof value === "object") Object.assign(node.style, value);
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : String(child));
  }
  return node;
}

const NUMBER_MARK = "\u2060tg-number:";

/**
 * JSON for people: 2-space indents, BigInts as their digits followed by n (what the record holds),
 * NaN and ±Infinity as themselves (JSON would print null), also when the worker sent them as
 * {"$number": "NaN"}.
 */
export function pretty(value) {
  if (typeof value === "string") return value;
  const text = JSON.stringify(value, (_k, v) => {
    if (typeof v === "bigint") return `${v}n`;
    if (typeof v === "number" && !Number.isFinite(v)) return NUMBER_MARK + String(v);
    if (v && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length === 1 && ["NaN", "Infinity", "-Infinity"].includes(v.$number)) return NUMBER_MARK + v.$number;
    return v;
  }, 2);
  return text === undefined ? String(value) : text.replace(/"\u2060tg-number:(NaN|-?Infinity)"/g, "$1");
}

/** A duration for people: "0.4 ms", "12 ms", "1.25 s", "2 min 5 s". */
export function formatDuration(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  if (ms < 10) return `${Math.round(ms * 10) / 10} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60000) return `${(ms / 1000).toFixed(ms < 10000 ? 2 : 1)} s`;
  return `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
}

/** JSON text that parses back: BigInts as the record spelling {"$bigint": "<digits>"}. */
export function json(value, indent = 2) {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? { $bigint: String(v) } : v), indent);
}

/** Shows a short message in the page's polite live region for a few seconds. */
export function toast(message) {
  const t = document.getElementById("toast");
  if (!t) return;
  t.textContent = message;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => (t.textContent = ""), 4000);
}

/**
 * Says message in status (a live region beside the button that copied), or in the page's toast when
 * there is none; cleared after a few seconds.
 */
function tell(status, message) {
  if (!status) return toast(message);
  status.textContent = message;
  clearTimeout(status.timer);
  status.timer = setTimeout(() => (status.textContent = ""), 4000);
}

/** Copies text to the clipboard and says so (or says why it could not), in status when given. */
export async function copy(text, what = "text", status = null) {
  try {
    await navigator.clipboard.writeText(text);
    tell(status, `Copied ${what}.`);
    return true;
  } catch {
    // no clipboard permission (an insecure origin or a headless browser): select-and-copy fallback
    const area = el("textarea", { class: "visually-hidden", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand?.("copy");
    area.remove();
    tell(status, done ? `Copied ${what}.` : `Could not copy ${what}: the browser refused the clipboard.`);
    return Boolean(done);
  }
}

/** A live region for what a copy button did, to sit right beside it (visible and announced). */
export function copyStatus(attrs = {}) {
  return el("span", { class: "copy-status", role: "status", "aria-live": "polite", ...attrs });
}

/** A button that copies what getText() returns, with its own live region beside it ("Copied …"). */
export function copyButton(getText, what, label = "Copy") {
  const status = copyStatus();
  const button = el("button", { type: "button", class: "small", "data-copy": what, onclick: () => copy(typeof getText === "function" ? getText() : String(getText), what, status) }, label);
  return el("span", { class: "copy-wrap" }, button, status);
}

/** What an error says, as one line: "code: message" for a ToolgateError, "Name: message" otherwise. */
export function errorLine(e) {
  if (e && typeof e === "object" && e.code) return `${e.code}: ${e.message}`;
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return String(e);
}

/** Calls fn at most once per `ms` of quiet. */
export function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
