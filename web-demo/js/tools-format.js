// JSON for the tools and providers panels: pretty() with each short array of plain values on one
// line ("required": ["a", "b"]), so a schema reads in fewer lines. The text parses back the same.
import { pretty } from "./ui.js";

const MAX_LINE = 72;

/** value as 2-space JSON with short arrays of numbers, strings, booleans and nulls on one line. */
export function compactJson(value) {
  const text = pretty(value);
  if (typeof text !== "string") return String(text);
  return text.replace(/\[\n[ ]*([^[\]{}]*?)\n[ ]*\]/g, (whole, inner) => {
    const line = `[${inner.split(/,\n[ ]*/).join(", ")}]`;
    return line.length <= MAX_LINE ? line : whole;
  });
}
