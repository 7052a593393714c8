// Permalinks: the tools and the call in the URL hash (#p=…), deflated and base64url-encoded, so a
// link reproduces the view with no server. A link holds code, so opening one never runs it: the
// page asks first (a link from someone else is their code running in your page).
import { state, setDefs, setCall, emit } from "./store.js";
import { el, copy } from "./ui.js";

const PREFIX = "#p=";

/** The hash that reproduces the current view. */
export async function encodeView() {
  const text = JSON.stringify({ v: 1, defs: state.defs, selected: state.selected, call: state.call });
  return PREFIX + toBase64Url(await deflate(new TextEncoder().encode(text)));
}

/** The view a hash holds ({defs, selected, call}), or null when it holds none; throws on a damaged one. */
export async function decodeView(hash) {
  if (!hash.startsWith(PREFIX)) return null;
  const bytes = await inflate(fromBase64Url(hash.slice(PREFIX.length)));
  const view = JSON.parse(new TextDecoder().decode(bytes));
  if (view?.v !== 1 || !Array.isArray(view.defs) || typeof view.call !== "string") throw new Error("this link's view has an unknown shape");
  return view;
}

/** Keeps the address bar's hash in step with the view (without adding history entries). */
export async function syncHash() {
  const hash = await encodeView();
  if (location.hash !== hash) history.replaceState(null, "", hash);
}

/** Copies a link to this view. */
export async function copyLink() {
  await syncHash();
  await copy(location.href, "the link to this view");
}

/**
 * Applies the view in location.hash, if any, after asking: shows a notice above the panels with
 * "Load this link's tools" and "Keep the examples". Resolves true when a view was applied.
 */
export async function restoreFromHash(container) {
  let view;
  try {
    view = await decodeView(location.hash);
  } catch (e) {
    container.prepend(el("p", { class: "verdict bad", role: "alert" }, `This link's view could not be read (${e.message}); the examples are shown instead.`));
    return false;
  }
  if (!view) return false;
  return new Promise((resolve) => {
    const names = view.defs.map((d) => (d.kind === "schema" ? d.name : (d.source.match(/function\s*\*?\s*([\w$]+)/) || [, "a function"])[1]));
    const notice = el("div", { class: "verdict warn", id: "permalink-notice", role: "region", "aria-label": "Link contents" },
      el("p", {}, `This link holds ${view.defs.length} tool${view.defs.length === 1 ? "" : "s"} (${names.join(", ")}) with JavaScript that runs in this page when you invoke them. Load them only if you trust who sent the link.`),
      el("div", { class: "row" },
        el("button", { type: "button", class: "primary", id: "permalink-load", onclick: () => done(true) }, "Load this link's tools"),
        el("button", { type: "button", id: "permalink-ignore", onclick: () => done(false) }, "Keep the examples")));
    container.prepend(notice);
    function done(apply) {
      notice.remove();
      if (apply) {
        setDefs(view.defs, view.selected ?? 0);
        setCall(view.call, "permalink");
        emit("restore", view);
      } else history.replaceState(null, "", location.pathname + location.search);
      resolve(apply);
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
  if (bytes[0] !== 1) throw new Error("this link's view has an unknown encoding");
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
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}
