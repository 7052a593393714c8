// The pre-check of a typed JS tool's arguments: the program Go exports for the fast path
// (core/fastpath_export.go) made into closures (no eval, so CSP-safe). It answers only "certainly
// valid, and these are the normalised arguments Go would hand back" or "not sure" (undefined); on
// "not sure" the call goes to Go, which gives every verdict, error and message. Node and browser.

import { MAX_ARGUMENT_DEPTH as MAX_DEPTH, MAX_ARGUMENT_BYTES as MAX_BYTES } from "./contract.js";

const OBJECT = Object.prototype;
const ARRAY = Array.prototype;
const wellFormed =
  typeof String.prototype.isWellFormed === "function" ? (s) => s.isWellFormed() : (s) => !/[\uD800-\uDFFF]/.test(s) || !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** Thrown inside a walk for anything the pre-check does not model. */
const NOPE = Symbol("not sure");

/** UTF-16 code unit c moved so that comparing units compares code points (the order Go sorts keys in). */
function unit(c) {
  return c < 0xd800 ? c : c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

/** Compares two strings by code point, as Go compares their UTF-8 bytes. */
function cmpKeys(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) - unit(y);
  }
  return a.length - b.length;
}

/** A key JS objects or Go treat specially: not well-formed, or "__proto__". */
function badKey(k) {
  return k === "__proto__" || !wellFormed(k);
}

/**
 * Walks a JS value (object arguments): a plain deep copy of its JSON data, as Go hands it back
 * (nested objects' keys sorted, -0 as 0), or NOPE for anything JSON.stringify would not write as
 * it reads (undefined, functions, symbols, BigInts, non-finite or unsafe numbers, toJSON, objects
 * that are not plain, strings with lone surrogates).
 */
function copyValue(v, depth, st, top) {
  switch (typeof v) {
    case "string":
      if (!wellFormed(v)) throw NOPE;
      st.bytes += v.length * 6 + 3;
      return v;
    case "number":
      if (!(Math.abs(v) <= Number.MAX_SAFE_INTEGER)) throw NOPE;
      st.bytes += 25;
      return v + 0; // JSON.stringify(-0) is "0"
    case "boolean":
      st.bytes += 6;
      return v;
    case "object": {
      if (v === null) {
        st.bytes += 5;
        return null;
      }
      if (depth >= MAX_DEPTH - 2) throw NOPE; // Go counts the nesting from 1; keep clear of its bound
      if (v.toJSON !== undefined) throw NOPE;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== ARRAY) throw NOPE;
        const out = [];
        for (let i = 0; i < v.length; i++) out.push(copyValue(v[i], depth + 1, st, false));
        st.bytes += 2 + v.length;
        return out;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== OBJECT && proto !== null) throw NOPE;
      const keys = Object.keys(v);
      if (!top && keys.length > 1) keys.sort(cmpKeys);
      const out = {};
      for (const k of keys) {
        if (badKey(k)) throw NOPE;
        st.bytes += k.length * 6 + 4;
        out[k] = copyValue(v[k], depth + 1, st, false);
      }
      st.bytes += 2;
      return out;
    }
  }
  throw NOPE;
}

/**
 * Walks the JSON.parse result of arguments text: the same value, or where a nested object's keys
 * are not in Go's order a new object with them sorted; NOPE for strings with lone surrogates.
 * st.keys counts the keys, which the caller compares with the text's colons.
 */
function parsedValue(v, depth, st, top) {
  if (typeof v === "string") {
    if (!wellFormed(v)) throw NOPE;
    return v;
  }
  if (typeof v !== "object" || v === null) return v;
  if (depth >= MAX_DEPTH - 2) throw NOPE; // Go counts the nesting from 1; keep clear of its bound
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (typeof e === "object" || typeof e === "string") {
        const c = parsedValue(e, depth + 1, st, false);
        if (c !== e) v[i] = c;
      }
    }
    return v;
  }
  const keys = Object.keys(v);
  st.keys += keys.length;
  let sorted = true;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (badKey(k)) throw NOPE;
    if (i > 0 && cmpKeys(keys[i - 1], k) > 0) sorted = false;
    const e = v[k];
    if (typeof e === "object" || typeof e === "string") {
      const c = parsedValue(e, depth + 1, st, false);
      if (c !== e) v[k] = c;
    }
  }
  if (top || sorted) return v;
  keys.sort(cmpKeys);
  const out = {};
  for (const k of keys) out[k] = v[k];
  return out;
}

/** The JSON Schema type of a JSON value. */
function kindOf(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

/** JSON equality, as the validator's (numbers by value, objects whatever their key order). */
function equal(a, b) {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) if (!Object.hasOwn(b, k) || !equal(a[k], b[k])) return false;
  return true;
}

/** The length of a well-formed string in code points. */
function codePoints(s) {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xdc00 && c <= 0xdfff) n--;
  }
  return n;
}

/** The checks of type, const, enum and the number and string keywords. */
function scalarChecks(n, checks) {
  if (n.types) {
    const types = new Set(n.types);
    const integer = types.has("integer");
    checks.push((v) => {
      const k = kindOf(v);
      return types.has(k) || (integer && k === "number" && Number.isInteger(v));
    });
  }
  if (n.const) {
    const c = n.const[0];
    checks.push((v) => v === c);
  }
  if (n.enum) {
    const list = n.enum;
    checks.push((v) => list.includes(v));
  }
  const num = [];
  for (const b of n.bounds ?? []) {
    const x = b.v;
    if (b.k === "minimum") num.push((v) => v >= x);
    else if (b.k === "exclusiveMinimum") num.push((v) => v > x);
    else if (b.k === "maximum") num.push((v) => v <= x);
    else num.push((v) => v < x);
  }
  if (n.multipleOf) {
    const m = n.multipleOf;
    num.push((v) => Number.isInteger(v) && v % m === 0);
  }
  if (num.length) checks.push((v) => typeof v !== "number" || num.every((f) => f(v)));
  if (n.minLength !== undefined || n.maxLength !== undefined) {
    const min = n.minLength ?? 0;
    const max = n.maxLength ?? Infinity;
    checks.push((v) => {
      if (typeof v !== "string") return true;
      let len = v.length;
      if (len > max || len < 2 * min) len = codePoints(v);
      return len >= min && len <= max;
    });
  }
}

/** The checks of the object keywords. */
function objectChecks(n, at, checks) {
  const obj = [];
  if (n.minProperties !== undefined) {
    const x = n.minProperties;
    obj.push((v) => Object.keys(v).length >= x);
  }
  if (n.maxProperties !== undefined) {
    const x = n.maxProperties;
    obj.push((v) => Object.keys(v).length <= x);
  }
  if (n.props || n.additional !== undefined || n.noAdditional) {
    const props = new Map((n.props ?? []).map(([name, i]) => [name, at(i)]));
    const add = n.additional !== undefined ? at(n.additional) : undefined;
    const closed = !!n.noAdditional;
    obj.push((v) => {
      for (const k in v) {
        const f = props.get(k);
        if (f !== undefined) {
          if (!f(v[k])) return false;
        } else if (closed) return false;
        else if (add !== undefined && !add(v[k])) return false;
      }
      return true;
    });
  }
  if (n.required) {
    const req = n.required;
    obj.push((v) => req.every((k) => Object.hasOwn(v, k)));
  }
  if (obj.length) checks.push((v) => kindOf(v) !== "object" || obj.every((f) => f(v)));
}

/** The checks of the array keywords. */
function arrayChecks(n, at, checks) {
  const arr = [];
  if (n.minItems !== undefined) {
    const x = n.minItems;
    arr.push((v) => v.length >= x);
  }
  if (n.maxItems !== undefined) {
    const x = n.maxItems;
    arr.push((v) => v.length <= x);
  }
  if (n.unique) {
    arr.push((v) => {
      for (let i = 1; i < v.length; i++) for (let j = 0; j < i; j++) if (equal(v[i], v[j])) return false;
      return true;
    });
  }
  if (n.prefix || n.items !== undefined) {
    const prefix = (n.prefix ?? []).map(at);
    const items = n.items !== undefined ? at(n.items) : undefined;
    arr.push((v) => {
      for (let i = 0; i < v.length; i++) {
        const f = i < prefix.length ? prefix[i] : items;
        if (f === undefined) break;
        if (!f(v[i])) return false;
      }
      return true;
    });
  }
  if (arr.length) checks.push((v) => !Array.isArray(v) || arr.every((f) => f(v)));
}

/** The checks of $ref, allOf, anyOf and oneOf, in place. */
function inPlaceChecks(n, at, checks) {
  if (n.ref !== undefined) checks.push(at(n.ref));
  for (const i of n.allOf ?? []) checks.push(at(i));
  if (n.anyOf) {
    const list = n.anyOf.map(at);
    checks.push((v) => list.some((f) => f(v)));
  }
  if (n.oneOf) {
    const list = n.oneOf.map(at);
    checks.push((v) => {
      let hits = 0;
      for (const f of list) if (f(v) && ++hits > 1) return false;
      return hits === 1;
    });
  }
}

/** Makes a node of the program (and, through fns, the ones it names) a closure: value → valid. */
function compileNode(n, fns) {
  if (n.never || n.noEnum) return () => false;
  const at = (i) => (v) => fns[i](v);
  const checks = [];
  scalarChecks(n, checks);
  objectChecks(n, at, checks);
  arrayChecks(n, at, checks);
  inPlaceChecks(n, at, checks);
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0];
  return (v) => {
    for (const f of checks) if (!f(v)) return false;
    return true;
  };
}

/** Counts the colons of a text. */
function colons(text) {
  let n = 0;
  for (let i = text.indexOf(":"); i >= 0; i = text.indexOf(":", i + 1)) n++;
  return n;
}

/** Number spellings whose value a double may not hold exactly: a fraction, an exponent, 16 digits or more (also matched inside strings: then the pre-check declines). */
const RISKY_NUMBER = /\d[.eE]|\d{16}/;

/**
 * Compiles Go's exported program (Tool.Precheck) into {object(args), text(json)}: each returns the
 * normalised arguments when they are certainly valid, otherwise undefined. Node and browser.
 */
export function compilePrecheck(program) {
  const fns = [];
  for (let i = 0; i < program.nodes.length; i++) fns.push(undefined);
  program.nodes.forEach((n, i) => (fns[i] = compileNode(n, fns)));
  const root = fns[program.root];
  const known = new Set(program.known);
  const keepAll = !!program.keepAll;
  const minimum = program.minimum;
  /** The checks on the normalised top-level object: no key dropped, the minimum keys present, the schema. */
  const accept = (args) => {
    if (!keepAll) for (const k in args) if (!known.has(k)) return false;
    for (const k of minimum) if (!Object.hasOwn(args, k)) return false;
    return root(args);
  };
  return {
    object(args) {
      try {
        const st = { bytes: 0 };
        const out = copyValue(args, 0, st, true);
        if (kindOf(out) !== "object" || st.bytes > MAX_BYTES) return undefined;
        return accept(out) ? out : undefined;
      } catch {
        return undefined; // NOPE, or a getter or proxy that threw: Go reports what JSON.stringify makes of it
      }
    },
    text(json) {
      if (json.length * 3 > MAX_BYTES || RISKY_NUMBER.test(json)) return undefined;
      let v;
      try {
        v = JSON.parse(json);
      } catch {
        return undefined;
      }
      if (kindOf(v) !== "object") return undefined;
      try {
        const st = { keys: 0 };
        const out = parsedValue(v, 0, st, true);
        if (st.keys !== colons(json)) return undefined; // a repeated key, or a colon inside a string
        return accept(out) ? out : undefined;
      } catch {
        return undefined; // NOPE, or a getter or proxy that threw: Go reports what JSON.stringify makes of it
      }
    },
  };
}
