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

/** JSON for people: 2-space indents, BigInts as their digits followed by n (what the record holds). */
export function pretty(value) {
  if (typeof value === "string") return value;
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `${v}n` : v), 2) ?? String(value);
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

/** Copies text to the clipboard and says so (or says why it could not). */
export async function copy(text, what = "text") {
  try {
    await navigator.clipboard.writeText(text);
    toast(`Copied ${what}.`);
    return true;
  } catch {
    // no clipboard permission (an insecure origin or a headless browser): select-and-copy fallback
    const area = el("textarea", { class: "visually-hidden", "aria-hidden": "true" });
    area.value = text;
    document.body.append(area);
    area.select();
    const done = document.execCommand?.("copy");
    area.remove();
    toast(done ? `Copied ${what}.` : `Could not copy ${what}: the browser refused the clipboard.`);
    return Boolean(done);
  }
}

/** A button that copies what getText() returns. */
export function copyButton(getText, what, label = "Copy") {
  return el("button", { type: "button", class: "small", "data-copy": what, onclick: () => copy(getText(), what) }, label);
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
