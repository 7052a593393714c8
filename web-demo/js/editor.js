// Code boxes: Tab indents (Esc then Tab leaves the box, so the keyboard is never trapped), and the
// page-wide shortcuts Ctrl/⌘+Enter (validate) and Shift+Ctrl/⌘+Enter (invoke).
import { emit } from "./store.js";

const INDENT = "  ";

/** Makes a textarea a code box. Returns it. */
export function codeBox(area) {
  area.classList.add("code");
  area.spellcheck = false;
  area.setAttribute("autocapitalize", "off");
  area.setAttribute("autocomplete", "off");
  let escaped = false;
  area.addEventListener("keydown", (e) => {
    if (e.key === "Escape") {
      escaped = true;
      return;
    }
    if (e.key !== "Tab" || escaped || e.ctrlKey || e.metaKey || e.altKey) {
      escaped = false;
      return;
    }
    e.preventDefault();
    indent(area, e.shiftKey);
  });
  area.addEventListener("blur", () => (escaped = false));
  return area;
}

/** Indents (or with outdent, removes one indent from) the selected lines, or inserts an indent at the caret. */
function indent(area, outdent) {
  const { value, selectionStart: start, selectionEnd: end } = area;
  if (start === end && !outdent) {
    area.setRangeText(INDENT, start, end, "end");
  } else {
    const lineStart = value.lastIndexOf("\n", start - 1) + 1;
    const block = value.slice(lineStart, end);
    const lines = block.split("\n");
    const changed = lines.map((l) => (outdent ? l.replace(/^ {1,2}/, "") : INDENT + l)).join("\n");
    area.setRangeText(changed, lineStart, end, "select");
  }
  area.dispatchEvent(new Event("input", { bubbles: true }));
}

/** Installs the page-wide shortcuts once. */
export function installShortcuts() {
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
    if (document.getElementById("controls")?.disabled) return;
    e.preventDefault();
    emit(e.shiftKey ? "invoke" : "validate");
  });
}
