// Finds where an issue's JSON pointer is in the call box's text, so a click on an issue row can
// select it. Works on the text as typed (any provider shape), including arguments sent as a JSON
// string inside the JSON (OpenAI's `"arguments": "{\"a\":1}"`). No DOM here.

const ARG_KEYS = ["arguments", "input", "args"];

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The index after the key `"name":` (also its escaped spelling inside a string) at or after from, or null. */
function findKey(text, name, from) {
  const re = new RegExp(`\\\\?"${escapeRe(name)}\\\\?"\\s*:`, "g");
  re.lastIndex = from;
  const m = re.exec(text);
  return m ? { start: m.index, after: m.index + m[0].length } : null;
}

/** The end of the JSON value that starts at or after i (a rough scan: strings, nesting, scalars). */
function valueEnd(text, i) {
  while (/\s/.test(text[i] || "")) i++;
  const open = text[i];
  if (open === '"' || (open === "\\" && text[i + 1] === '"')) {
    const escaped = open === "\\";
    for (let j = i + (escaped ? 2 : 1); j < text.length; j++) {
      if (!escaped && text[j] === "\\") j++;
      else if (escaped && text[j] === "\\" && text[j + 1] === '"') return j + 2;
      else if (!escaped && text[j] === '"') return j + 1;
    }
    return text.length;
  }
  if (open === "{" || open === "[") {
    let depth = 0;
    for (let j = i; j < text.length; j++) {
      const c = text[j];
      if (c === '"') {
        for (j++; j < text.length && text[j] !== '"'; j++) if (text[j] === "\\") j++;
      } else if (c === "{" || c === "[") depth++;
      else if ((c === "}" || c === "]") && --depth === 0) return j + 1;
    }
    return text.length;
  }
  const m = /^[^,}\]\s\\]+/.exec(text.slice(i));
  return i + (m ? m[0].length : 0);
}

/**
 * The range {start, end} of the place a JSON pointer (relative to a call's arguments) names in
 * text, searching from `from` (where the call starts, for a message with several); a key that is
 * missing (a "required" issue) gives the arguments object that lacks it. Null when nothing fits.
 */
export function locate(text, pointer, from = 0) {
  let at = from;
  for (const key of ARG_KEYS) {
    const found = findKey(text, key, from);
    if (found) {
      at = found.after;
      break;
    }
  }
  const segments = String(pointer || "").split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  while (/\s/.test(text[at] || "")) at++;
  let best = at === from ? null : { start: at, end: valueEnd(text, at) };
  for (const seg of segments) {
    if (/^\d+$/.test(seg)) continue;
    const found = findKey(text, seg, at);
    if (!found || (best && found.start > best.end)) return best;
    best = { start: found.start, end: valueEnd(text, found.after) };
    at = found.after;
  }
  return best;
}

/** Where the call with this provider id starts in text (0 when it has none or it is not found). */
export function callStart(text, callId) {
  if (!callId) return 0;
  const i = text.indexOf(JSON.stringify(callId));
  if (i < 0) return 0;
  // back to the start of the object holding the id
  const open = text.lastIndexOf("{", i);
  return open < 0 ? 0 : open;
}
