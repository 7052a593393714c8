// A JSON text reader for the evaluator (issue 23): arguments text read in one pass into values
// whose numbers keep the spelling Go compares (evaluator-num.js: a Num where the literal is not
// JSON.stringify of its double). It reads what Go's tape (internal/jsontext/tape.go) reads and
// declines, by throwing NOPE, what the tape hands to Go's full path: a text that is not JSON, an
// escaped or repeated object key, a string with a lone surrogate, nesting at the depth bound.
// Node and browser.
import { numberOf, Num } from "./evaluator-num.js";

/** Thrown for anything the evaluator does not model: the call crosses to Go. @internal */
export const NOPE = Symbol("not modelled");

const wellFormed =
  typeof String.prototype.isWellFormed === "function"
    ? (s) => s.isWellFormed()
    : (s) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** Whether a string holds no lone surrogate. @internal */
export { wellFormed };

const ESCAPES = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Sets o[k] = v as JSON.parse does (an own "__proto__" member, not the prototype). @internal */
export function setMember(o, k, v) {
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/**
 * Reads the JSON text `s` (one object, white space around it) into evaluator values; throws NOPE
 * for anything Go's fast path would not read. `st.nums` counts the Nums made. @internal
 */
export function readJSON(s, maxDepth, st) {
  let i = 0;
  const n = s.length;
  const space = () => {
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else return;
    }
  };
  const string = () => {
    // at the opening quote
    const start = ++i;
    let out = null;
    let from = start;
    for (;;) {
      if (i >= n) throw NOPE;
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) throw NOPE;
      if (c === 92) {
        out = (out ?? "") + s.slice(from, i);
        const e = s[i + 1];
        if (e === "u") {
          const hex = s.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) throw NOPE;
          out += String.fromCharCode(parseInt(hex, 16));
          i += 6;
        } else {
          const r = ESCAPES[e];
          if (r === undefined) throw NOPE;
          out += r;
          i += 2;
        }
        from = i;
        continue;
      }
      i++;
    }
    const v = out === null ? s.slice(start, i) : out + s.slice(from, i);
    i++;
    if (out !== null && !wellFormed(v)) throw NOPE;
    return { v, escaped: out !== null };
  };
  const number = () => {
    const start = i;
    if (s.charCodeAt(i) === 45) i++;
    const d0 = i;
    while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    if (i === d0 || (s.charCodeAt(d0) === 48 && i - d0 > 1)) throw NOPE;
    if (s.charCodeAt(i) === 46) {
      const f = ++i;
      while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
      if (i === f) throw NOPE;
    }
    const e = s.charCodeAt(i);
    if (e === 101 || e === 69) {
      i++;
      if (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45) i++;
      const x = i;
      while (i < n && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
      if (i === x) throw NOPE;
    }
    const v = numberOf(s.slice(start, i));
    if (typeof v !== "number" || Math.abs(v) > Number.MAX_SAFE_INTEGER) st.nums++; // a Num, or a BigInt to be
    return v;
  };
  const literal = (word, v) => {
    if (s.startsWith(word, i)) {
      i += word.length;
      return v;
    }
    throw NOPE;
  };
  const value = (depth) => {
    space();
    const c = s.charCodeAt(i);
    if (c === 34) return string().v;
    if (c === 123) {
      if (depth >= maxDepth) throw NOPE;
      i++;
      const o = {};
      space();
      if (s.charCodeAt(i) === 125) {
        i++;
        return o;
      }
      for (;;) {
        space();
        if (s.charCodeAt(i) !== 34) throw NOPE;
        const k = string();
        if (k.escaped || Object.hasOwn(o, k.v)) throw NOPE; // Go's tape hands these to the full path
        space();
        if (s.charCodeAt(i) !== 58) throw NOPE;
        i++;
        setMember(o, k.v, value(depth + 1));
        space();
        const d = s.charCodeAt(i++);
        if (d === 125) return o;
        if (d !== 44) throw NOPE;
      }
    }
    if (c === 91) {
      if (depth >= maxDepth) throw NOPE;
      i++;
      const a = [];
      space();
      if (s.charCodeAt(i) === 93) {
        i++;
        return a;
      }
      for (;;) {
        a.push(value(depth + 1));
        space();
        const d = s.charCodeAt(i++);
        if (d === 93) return a;
        if (d !== 44) throw NOPE;
      }
    }
    if (c === 116) return literal("true", true);
    if (c === 102) return literal("false", false);
    if (c === 110) return literal("null", null);
    if (c === 45 || (c >= 48 && c <= 57)) return number();
    throw NOPE;
  };
  const v = value(0);
  space();
  if (i !== n) throw NOPE;
  return v;
}
