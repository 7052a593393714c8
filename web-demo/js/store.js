// The playground's one shared state and its events. Panels read `state`, change it only through
// the setters here, and listen with on(). Nothing else is shared between panels.
import { buildBranch } from "./define.js";
import { DEFAULT_VIEW, exportBranch, viewKey } from "./export-view.js";

/**
 * state.tg       the core build's API (main thread), once loaded
 * state.module   the compiled toolgate-core.wasm (WebAssembly.Module), handed to the handler worker
 * state.defs     the tool definitions (see define.js), in branch order
 * state.selected index in defs of the definition being edited
 * state.call     the call editor's text
 * state.built    {branch, entries, collisions, version}: defs built into tools (buildBranch)
 * state.view     {target, options}: the provider export the call panel validates and invokes on
 *                (the tab the providers panel shows; see export-view.js)
 */
export const state = { tg: null, module: null, loadMs: 0, defs: [], selected: 0, call: "", built: null, version: 0, view: DEFAULT_VIEW };

let viewed = null; // {version, key, branch, exported, error}: state.built.branch exported as state.view

const listeners = new Map();

/**
 * Listens to an event: "ready" (toolgate loaded), "tools" (defs rebuilt; state.built is new),
 * "call" (state.call changed; detail.source names who changed it), "outcome" (a validate or invoke
 * finished: {kind, request, ...}), "validate"/"invoke" (asked for by a shortcut), "restore" (a
 * permalink was applied), "view" (state.view changed). Returns a function that stops listening.
 */
export function on(event, fn) {
  if (!listeners.has(event)) listeners.set(event, new Set());
  listeners.get(event).add(fn);
  return () => listeners.get(event).delete(fn);
}

/** Tells every listener of event; a listener that throws is reported and never stops the others. */
export function emit(event, detail) {
  for (const fn of listeners.get(event) || []) {
    try {
      fn(detail);
    } catch (e) {
      console.error(`playground: a "${event}" listener failed`, e);
    }
  }
}

/** Replaces the definitions, rebuilds the branch and announces "tools". */
export function setDefs(defs, selected = state.selected) {
  state.defs = defs.map((d) => ({ ...d }));
  state.selected = Math.max(0, Math.min(selected, state.defs.length - 1));
  rebuild();
}

/** Changes one definition (by index) and rebuilds. */
export function updateDef(index, patch) {
  state.defs[index] = { ...state.defs[index], ...patch };
  rebuild();
}

/** Selects the definition the tools panel edits (no rebuild). */
export function select(index) {
  state.selected = index;
  emit("select", index);
}

/** Replaces the call text; source says which control changed it, so it can skip its own echo. */
export function setCall(text, source = "") {
  state.call = text;
  emit("call", { source });
}

/** Rebuilds state.built from state.defs (after load, or when a definition changes). */
export function rebuild() {
  if (!state.tg) return;
  state.version += 1;
  state.built = { ...buildBranch(state.tg, state.defs), version: state.version };
  emit("tools", state.built);
  // A schema that needs the validator module, met while it is still downloading (tg.tool cannot wait):
  // built again once it has arrived, so the panel shows the real verdict (an invalid-schema reason).
  if (state.built.entries.some((e) => e.error?.code === "unsupported" && /still downloading/.test(e.error.message))) {
    const version = state.version;
    state.tg.ready("validator").then(() => version === state.version && rebuild(), () => {});
  }
}

/** Sets the export the call panel follows (the providers panel's tab and its option) and announces "view". */
export function setView(target, options = {}) {
  const view = { target, options: Object.fromEntries(Object.entries(options).filter(([, v]) => v)) };
  if (viewKey(view) === viewKey(state.view)) return;
  state.view = view;
  emit("view", view);
}

/**
 * The branch as state.view exports it (a clone of state.built.branch): {branch, exported, error},
 * computed once per build and view. Null before the first build.
 */
export function viewBranch() {
  if (!state.built) return null;
  const key = viewKey(state.view);
  if (!viewed || viewed.version !== state.built.version || viewed.key !== key) {
    viewed = { version: state.built.version, key, ...exportBranch(state.tg, state.built.branch, state.view) };
  }
  return viewed;
}
