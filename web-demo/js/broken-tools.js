// What the page says when a call names a tool that is not in the branch because its definition
// does not build: one sentence, the same under Validate and Invoke.
import { errorLine } from "./ui.js";

/** The note for the definitions of built ({entries}) that do not build, or "" when every one builds. */
export function brokenToolsNote(built) {
  const broken = (built?.entries ?? []).filter((e) => e.error && !e.tool);
  if (!broken.length) return "";
  const which = broken.map((e) => `tool ${e.index + 1} (${errorLine(e.error)})`).join("; ");
  return `${which} does not build, so the branch leaves it out, and no earlier version of it is kept: fix the definition and try again.`;
}
