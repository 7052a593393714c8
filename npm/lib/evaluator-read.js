// A JSON text reader for the evaluator (issue 23): arguments text read in one pass into values
// whose numbers keep the spelling Go compares (evaluator-num.js: a Num where the literal is not
// JSON.stringify of its double). It reads what Go's tape (internal/jsontext/tape.go) reads and
// declines, by throwing NOPE, what the tape hands to Go's full path: a text that is not JSON, an
// escaped or repeated object key, a string with a lone surrogate, nesting at the depth bound.
// Node and browser.
import { numberOf } from "./evaluator-num.js";

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

/** One read of a text: the position, and st.nums counting the values that are not plain doubles. */
class Reader {
  constructor(s, maxDepth, st) {
    this.s = s;
    this.i = 0;
    this.maxDepth = maxDepth;
    this.st = st;
  }
  space() {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 10 || c === 13 || c === 9) this.i++;
      else return;
    }
  }
  /** A string at its opening quote: {v, escaped}. */
  string() {
    const s = this.s;
    let i = this.i + 1;
    const start = i;
    let out = null;
    let from = start;
    for (;;) {
      if (i >= s.length) throw NOPE;
      const c = s.charCodeAt(i);
      if (c === 34) break;
      if (c < 32) throw NOPE;
      if (c !== 92) {
        i++;
        continue;
      }
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
    }
    const v = out === null ? s.slice(start, i) : out + s.slice(from, i);
    this.i = i + 1;
    if (out !== null && !wellFormed(v)) throw NOPE;
    return { v, escaped: out !== null };
  }
  /** Digits from i on: the index past them. */
  digits(i) {
    const s = this.s;
    while (i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57) i++;
    return i;
  }
  /** A number literal, as Go's tape scans it: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? */
  number() {
    const s = this.s;
    const start = this.i;
    let i = s.charCodeAt(start) === 45 ? start + 1 : start;
    const d0 = i;
    i = this.digits(i);
    if (i === d0 || (s.charCodeAt(d0) === 48 && i - d0 > 1)) throw NOPE;
    if (s.charCodeAt(i) === 46) {
      const f = i + 1;
      i = this.digits(f);
      if (i === f) throw NOPE;
    }
    if (s.charCodeAt(i) === 101 || s.charCodeAt(i) === 69) {
      i++;
      if (s.charCodeAt(i) === 43 || s.charCodeAt(i) === 45) i++;
      const x = i;
      i = this.digits(i);
      if (i === x) throw NOPE;
    }
    this.i = i;
    const v = numberOf(s.slice(start, i));
    if (typeof v !== "number" || Math.abs(v) > Number.MAX_SAFE_INTEGER) this.st.nums++; // a Num, or a BigInt to be
    return v;
  }
  literal(word, v) {
    if (!this.s.startsWith(word, this.i)) throw NOPE;
    this.i += word.length;
    return v;
  }
  /** A value after white space. */
  value(depth) {
    this.space();
    const c = this.s.charCodeAt(this.i);
    if (c === 34) return this.string().v;
    if (c === 123) return this.object(depth);
    if (c === 91) return this.array(depth);
    if (c === 116) return this.literal("true", true);
    if (c === 102) return this.literal("false", false);
    if (c === 110) return this.literal("null", null);
    if (c === 45 || (c >= 48 && c <= 57)) return this.number();
    throw NOPE;
  }
  /** The next byte after white space, consumed. */
  next() {
    this.space();
    return this.s.charCodeAt(this.i++);
  }
  object(depth) {
    if (depth >= this.maxDepth) throw NOPE;
    this.i++;
    const o = {};
    this.space();
    if (this.s.charCodeAt(this.i) === 125) {
      this.i++;
      return o;
    }
    for (;;) {
      this.space();
      if (this.s.charCodeAt(this.i) !== 34) throw NOPE;
      const k = this.string();
      if (k.escaped || Object.hasOwn(o, k.v)) throw NOPE; // Go's tape hands these to the full path
      if (this.next() !== 58) throw NOPE;
      setMember(o, k.v, this.value(depth + 1));
      const d = this.next();
      if (d === 125) return o;
      if (d !== 44) throw NOPE;
    }
  }
  array(depth) {
    if (depth >= this.maxDepth) throw NOPE;
    this.i++;
    const a = [];
    this.space();
    if (this.s.charCodeAt(this.i) === 93) {
      this.i++;
      return a;
    }
    for (;;) {
      a.push(this.value(depth + 1));
      const d = this.next();
      if (d === 93) return a;
      if (d !== 44) throw NOPE;
    }
  }
}

/**
 * Reads the JSON text `s` (one value, white space around it) into evaluator values; throws NOPE
 * for anything Go's fast path would not read. `st.nums` counts the Nums made. @internal
 */
export function readJSON(s, maxDepth, st) {
  const r = new Reader(s, maxDepth, st);
  const v = r.value(0);
  r.space();
  if (r.i !== s.length) throw NOPE;
  return v;
}
