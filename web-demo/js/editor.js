// Code boxes: Tab indents (Esc then Tab leaves the box, so the keyboard is never trapped), said in a
// hint right after each box, and the page-wide shortcuts Ctrl/⌘+Enter (validate) and
// Shift+Ctrl/⌘+Enter (invoke).
import { emit } from "./store.js";

const INDENT = "  ";
const TAB_HINT = "In this box Tab indents; press Esc, then Tab, to leave it.";
let hints = 0;

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
  area.dataset.codeBox = "";
  if (area.isConnected) addTabHint(area);
  return area;
}

/**
 * Puts the Tab hint right after a code box (after its label when the box sits in one, so the label
 * stays its name) and adds it to the box's description. Boxes are made before they are placed, so
 * installShortcuts watches the page for new ones.
 */
function addTabHint(area) {
  if ("tabHinted" in area.dataset) return;
  area.dataset.tabHinted = "";
  const id = `tab-hint-${++hints}`;
  const hint = document.createElement("p");
  hint.className = "hint tab-hint";
  hint.id = id;
  hint.textContent = TAB_HINT;
  (area.parentElement?.tagName === "LABEL" ? area.parentElement : area).after(hint);
  area.setAttribute("aria-describedby", [area.getAttribute("aria-describedby"), id].filter(Boolean).join(" "));
}

function hintNewBoxes() {
  for (const area of document.querySelectorAll("textarea[data-code-box]:not([data-tab-hinted])")) addTabHint(area);
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

/** Installs the page-wide shortcuts once, and the Tab hint of every code box placed in the page. */
export function installShortcuts() {
  hintNewBoxes();
  new MutationObserver(hintNewBoxes).observe(document.body, { childList: true, subtree: true });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" || !(e.ctrlKey || e.metaKey)) return;
    if (document.getElementById("controls")?.disabled) return;
    e.preventDefault();
    emit(e.shiftKey ? "invoke" : "validate");
  });
}
