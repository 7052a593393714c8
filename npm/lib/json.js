// BigInt-safe JSON both ways between JS and Go, and the big-integer spelling of records. Node and
// browser.
import { ToolgateError } from "./errors.js";
import { MAX_ARGUMENT_DEPTH } from "./contract.js";

/**
 * Serialises a value for Go; BigInts become exact JSON integers. What JSON cannot carry is a
 * ToolgateError naming `what`: a cycle or a throwing toJSON method with `code`, nesting too deep to
 * serialise with `depthCode` (and a `maxDepth` issue, as Go refuses deep JSON text). Node and browser.
 */
export function toJSON(value, { code = "invalid-request", what = "the value", depthCode = code } = {}) {
  let text;
  try {
    text = stringify(value);
  } catch (e) {
    if (ToolgateError.isInstance(e)) throw e;
    if (e instanceof RangeError) {
      const message = `${what} nests deeper than ${MAX_ARGUMENT_DEPTH} levels of objects and arrays`;
      throw new ToolgateError(depthCode, message, { issues: [{ path: "", keyword: "maxDepth", message }], cause: e });
    }
    const why = /circular/i.test(String(e?.message)) ? "holds a circular reference" : `cannot be serialised (${e?.message})`;
    throw new ToolgateError(code, `${what} ${why}: only JSON values cross to Go`, { cause: e });
  }
  // JSON.stringify gives undefined for a function, a symbol or undefined itself: none is JSON.
  if (text === undefined) throw new ToolgateError(code, `${what} is ${unserializable(value)}: only JSON values cross to Go`);
  return text;
}

/** What JSON cannot carry at the top of a value, named for a message. */
function unserializable(v) {
  return v === undefined ? "undefined" : `a ${typeof v}`;
}

/** JSON.stringify with BigInts written as exact integers. */
function stringify(value) {
  try {
    return JSON.stringify(value); // the common case: no BigInt anywhere
  } catch (e) {
    if (!(e instanceof TypeError) || !/BigInt/i.test(e.message)) throw e;
  }
  // A marker no user string can hold: a fresh random tag per call.
  const tag = `\u0000bigint${Math.random().toString(36).slice(2)}:`;
  const text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? tag + v : v));
  return text.replaceAll(new RegExp(`"${JSON.stringify(tag).slice(1, -1).replaceAll("\\", "\\\\")}(-?\\d+)"`, "g"), "$1");
}

/**
 * Refuses a value JSON would drop or turn into null on its way to Go (a function, a symbol, NaN,
 * ±Infinity) with unsupported-type naming the call and the option key; anything else crosses, and
 * Go checks it. Node and browser.
 */
export function checkCrosses(v, call, key) {
  const t = typeof v;
  if (t === "function" || t === "symbol" || (t === "number" && !Number.isFinite(v))) {
    throw new ToolgateError("unsupported-type", `${call}: option ${key} must be JSON data, got ${t === "number" ? String(v) : t}`);
  }
  return v;
}

/** Turns the JSON pointers Go marks as big integers into BigInts, in place; returns obj. Node and browser. */
export function reviveBigints(obj, pointers) {
  for (const ptr of pointers) {
    const parts = ptr.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
    let parent = obj;
    for (let i = 0; i < parts.length - 1; i++) parent = parent[parts[i]];
    const last = parts[parts.length - 1];
    parent[last] = BigInt(parent[last]);
  }
  return obj;
}

/**
 * A record's value made JSON-safe, as JSON.stringify reads it (toJSON methods, getters, any kind of
 * object): every BigInt becomes {"$bigint": "<decimal digits>"}, the documented spelling of
 * integers in JS records (reviveRecord turns it back). A value JSON cannot carry (a function or a
 * symbol, a cycle, nesting too deep, a throwing getter or toJSON, a revoked Proxy) is
 * "<unserializable>", as Go writes a response it cannot marshal, and as toJSON refuses it (one
 * rule: what toolResult refuses to send, a record shows as "<unserializable>"). undefined is null;
 * inside an object or an array JSON's own rules apply (a function member is left out). Node and
 * browser.
 */
export function recordValue(v) {
  if (v === undefined) return null;
  try {
    const text = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? { $bigint: x.toString() } : x));
    return text === undefined ? "<unserializable>" : JSON.parse(text);
  } catch {
    return "<unserializable>";
  }
}

/** A JSON.parse reviver that turns the record spelling {"$bigint": "<digits>"} back into BigInts. Node and browser. */
export function reviveRecord(_key, v) {
  if (v !== null && typeof v === "object" && !Array.isArray(v)) {
    const keys = Object.keys(v);
    if (keys.length === 1 && keys[0] === "$bigint" && typeof v.$bigint === "string" && /^-?\d+$/.test(v.$bigint)) return BigInt(v.$bigint);
  }
  return v;
}

/**
 * JSON.parse of Go's JSON text (valid, so only numbers need care) with each integer literal beyond
 * ±(2^53−1) read exactly, as a BigInt. Node and browser.
 */
export function parseExact(text) {
  if (!/\d{16}/.test(text)) return JSON.parse(text); // no literal long enough to be big
  let out = "";
  let last = 0;
  const number = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; text[i] !== '"'; i++) if (text[i] === "\\") i++;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      number.lastIndex = i;
      const lit = number.exec(text)[0];
      if (/^-?\d+$/.test(lit) && !Number.isSafeInteger(Number(lit))) {
        out += `${text.slice(last, i)}{"\\u0000bigint":"${lit}"}`;
        last = i + lit.length;
      }
      i += lit.length - 1;
    }
  }
  if (last === 0) return JSON.parse(text);
  return JSON.parse(out + text.slice(last), (_k, v) =>
    v !== null && typeof v === "object" && typeof v["\u0000bigint"] === "string" ? BigInt(v["\u0000bigint"]) : v,
  );
}
