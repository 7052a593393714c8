// The export the call panel's verdicts follow. tg.toProvider teaches the branch it exports the
// names it rewrote (aliases) and strict mode's restores (the nulls a strict model sends for a field
// it leaves out), so a call validates differently after an export; the page validates and invokes
// on a clone of the branch exported exactly as the provider tab shown exports it, and the copied
// code makes the same export. Used by the page, the handler worker and codegen: no DOM here.

/** The provider targets, in the providers panel's tab order, with their labels. */
export const TARGET_LABELS = { "openai-chat": "OpenAI Chat", "openai-responses": "OpenAI Responses", anthropic: "Anthropic", gemini: "Gemini", mcp: "MCP" };

/** The view the page opens with: the first provider tab, no option. */
export const DEFAULT_VIEW = Object.freeze({ target: "openai-chat", options: Object.freeze({}) });

/** A key that changes whenever the view does. */
export function viewKey(view) {
  return `${view.target}|${JSON.stringify(view.options || {})}`;
}

/** How people read a view: "OpenAI Chat (strict)". */
export function viewLabel(view) {
  const on = Object.keys(view.options || {}).filter((k) => view.options[k]);
  return `${TARGET_LABELS[view.target] || view.target}${on.length ? ` (${on.join(", ")})` : ""}`;
}

/** The export as code: tg.toProvider(b, "openai-chat", { strict: true }). */
export function viewCode(view, branch = "b") {
  const opts = Object.entries(view.options || {}).filter(([, v]) => v);
  const literal = opts.length ? `, { ${opts.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")} }` : "";
  return `tg.toProvider(${branch}, ${JSON.stringify(view.target)}${literal})`;
}

/**
 * The branch exported as view says, on a clone (the branch itself never learns an export):
 * {branch, exported, error}. When the export throws, branch is the clone as registered and error
 * what the export threw. Never throws.
 */
export function exportBranch(tg, branch, view) {
  const clone = branch.clone();
  try {
    const exported = tg.toProvider(clone, view.target, view.options || {});
    return { branch: clone, exported, error: null };
  } catch (error) {
    return { branch: branch.clone(), exported: null, error };
  }
}
