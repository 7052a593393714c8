// Permalinks: the tools and the call in the URL hash (#p=…), deflated and base64url-encoded, so a
// link reproduces the view with no server. A link holds code, so opening one never runs it: the
// page asks first (a link from someone else is their code running in your page). A link this tab
// wrote itself (the address bar follows the view) is remembered for the session, so reloading it
// brings the work back without the question.
import { state, setDefs, setCall, emit } from "./store.js";
import { el, copy } from "./ui.js";

const PREFIX = "#p=";
const OWN_KEY = "toolgate-playground-own-links";
const OWN_MAX = 20;

/** A damaged link, with why in words (never the link's bytes) and the reason as data. */
class LinkError extends Error {
  constructor(reason, message) {
    super(message);
    this.reason = reason;
  }
}

/** Whether hash holds a view (#p=…). */
export function isViewHash(hash) {
  return typeof hash === "string" && hash.startsWith(PREFIX);
}

/** The hash that reproduces the current view. */
export async function encodeView() {
  const text = JSON.stringify({ v: 1, defs: state.defs, selected: state.selected, call: state.call });
  return PREFIX + toBase64Url(await deflate(new TextEncoder().encode(text)));
}

/**
 * The view a hash holds ({defs, selected, call}), or null when it holds none; throws an Error with
 * `reason` ("not-base64url", "damaged-data", "not-a-view") on a damaged one.
 */
export async function decodeView(hash) {
  if (!isViewHash(hash)) return null;
  let bytes;
  try {
    bytes = fromBase64Url(hash.slice(PREFIX.length));
  } catch {
    throw new LinkError("not-base64url", "it holds characters a link of this page never has; it may have been cut or changed when it was pasted");
  }
  try {
    bytes = await inflate(bytes);
  } catch {
    throw new LinkError("damaged-data", "its compressed data is damaged or cut short");
  }
  let view;
  try {
    view = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw new LinkError("not-a-view", "it does not hold a view this page can read");
  }
  if (view?.v !== 1 || !Array.isArray(view.defs) || typeof view.call !== "string") throw new LinkError("not-a-view", "it holds a view of an unknown shape (made by another version of the playground?)");
  return view;
}

async function digest(hash) {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(hash)));
  return Array.from(bytes.slice(0, 16), (b) => b.toString(16).padStart(2, "0")).join("");
}

function ownLinks() {
  try {
    const list = JSON.parse(sessionStorage.getItem(OWN_KEY) || "[]");
    return Array.isArray(list) ? list : [];
  } catch {
    return [];
  }
}

/** Remembers, for this tab's session, that this page wrote hash (only digests are kept). */
async function rememberOwn(hash) {
  try {
    const d = await digest(hash);
    const list = ownLinks().filter((x) => x !== d);
    list.unshift(d);
    sessionStorage.setItem(OWN_KEY, JSON.stringify(list.slice(0, OWN_MAX)));
  } catch {
    // no sessionStorage (a sandboxed frame): links then always ask
  }
}

/** Whether this tab wrote hash itself in this session. */
async function isOwn(hash) {
  try {
    return ownLinks().includes(await digest(hash));
  } catch {
    return false;
  }
}

/** Keeps the address bar's hash in step with the view (without adding history entries). */
export async function syncHash() {
  const hash = await encodeView();
  await rememberOwn(hash);
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/** Copies a link to this view; says so in status (the live region beside the button). */
export async function copyLink(status = null) {
  await syncHash();
  await copy(location.href, "the link to this view", status);
}

function apply(view, source) {
  setDefs(view.defs, view.selected ?? 0);
  setCall(view.call, source);
  emit("restore", view);
}

/**
 * Applies the view in location.hash, if any. A link this tab wrote in this session is applied at
 * once; any other after asking, with a notice above the panels: "Load this link's tools" or keep
 * what the page shows ("Keep the examples" when the page just opened, fresh; "Keep my work" when a
 * link was pasted into an open tab). Keeping never erases anything: the page is left as it is and
 * the link stays one Back away. Resolves true when a view was applied.
 */
export async function restoreFromHash(container, { fresh = true } = {}) {
  document.getElementById("permalink-notice")?.remove();
  document.getElementById("permalink-error")?.remove();
  const hash = location.hash;
  let view;
  try {
    view = await decodeView(hash);
  } catch (e) {
    container.prepend(el("p", { class: "verdict bad", id: "permalink-error", role: "alert", dataset: { reason: e.reason || "not-a-view" } },
      `This link's view could not be read: ${e.reason ? e.message : "it does not hold a view this page can read"}. ${fresh ? "The examples are shown instead." : "The page is left as it was."}`));
    return false;
  }
  if (!view) return false;
  if (await isOwn(hash)) {
    apply(view, "permalink");
    return true;
  }
  return new Promise((resolve) => {
    const names = view.defs.map((d) => (d.kind === "schema" ? d.name : (String(d.source).match(/function\s*\*?\s*([\w$]+)/) || [, "a function"])[1]));
    const notice = el("div", { class: "verdict warn", id: "permalink-notice", role: "region", "aria-label": "Link contents" },
      el("p", {}, `This link holds ${view.defs.length} tool${view.defs.length === 1 ? "" : "s"} (${names.join(", ")}) with JavaScript that runs in this page when you invoke them. Load them only if you trust who sent the link.`),
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: "permalink-load", onclick: () => done(true) }, "Load this link's tools"),
        el("button", { type: "button", id: "permalink-ignore", onclick: () => done(false) }, fresh ? "Keep the examples" : "Keep my work")));
    container.prepend(notice);
    async function done(yes) {
      notice.remove();
      if (yes) {
        await rememberOwn(hash); // trusted once: a reload of it does not ask again
        apply(view, "permalink");
      } else {
        // the link stays one Back away; the address bar shows what the page holds
        history.pushState(null, "", location.pathname + location.search);
        if (!fresh) await syncHash();
      }
      resolve(yes);
    }
  });
}

async function deflate(bytes) {
  if (typeof CompressionStream !== "function") return concat([new Uint8Array([0])], bytes);
  const out = await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer();
  return concat([new Uint8Array([1])], new Uint8Array(out));
}

async function inflate(bytes) {
  if (bytes[0] === 0) return bytes.subarray(1);
  if (bytes[0] !== 1) throw new Error("unknown encoding");
  const out = await new Response(new Blob([bytes.subarray(1)]).stream().pipeThrough(new DecompressionStream("deflate-raw"))).arrayBuffer();
  return new Uint8Array(out);
}

function concat(parts, tail) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, tail.length));
  let at = 0;
  for (const p of [...parts, tail]) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

function toBase64Url(bytes) {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64Url(text) {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("not base64url");
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
