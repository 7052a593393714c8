// The JS evaluator of a typed tool's arguments (issue 23): the program Go exports for its fast path
// (core/fastpath_export.go, Tool.Program) made into closures (no eval, no new Function), giving every
// verdict Go's fast path gives: valid, with the normalised arguments exactly as JS gets them from Go
// (nested keys in Go's order, unknown top-level keys dropped, integers beyond ±(2^53−1) as BigInts),
// or refused, with the ToolgateError Go's path throws (code, message, tool, issues). Node and browser.
//
// It answers undefined ("not modelled": the call crosses to Go, which answers) for:
// - arguments that are not a plain object, or text that is not one JSON object;
// - object arguments JSON.stringify would not write as they read: a toJSON method (Date), an object
//   whose prototype is not Object.prototype or null, a symbol key's absence aside, a getter or a
//   Proxy that throws, a key that JSON escapes (control characters, quote, backslash);
// - a string or key with a lone surrogate;
// - text with an escaped or a repeated object key (Go's tape hands both to its full path), or no
//   quote at all ("{}": Go reads the arguments string only when it holds an escape);
// - nesting within two levels of MaxArgumentDepth, or arguments that may be near MaxArgumentBytes;
// - a uniqueItems array longer than Go's fast path checks (64 items);
// - arguments that pass the schema but lack a key the tool's minimum requires (Go's full path words
//   that refusal);
// - text with lax conversions whose top level has an array-index key ("0", "12"): JS objects list
//   those first, Go converts in the text's order;
// - a program with a lax plan this build cannot run (evaluator-lax.js), or of another version.
import { Num } from "./evaluator-num.js";
import { exponentWithin } from "./evaluator-decimal.js";
import { readJSON, NOPE, wellFormed, setMember } from "./evaluator-read.js";
import { pointer, describeField, cmpStrings, sortKeys, clipText, argumentsError } from "./evaluator-issues.js";
import { compileNode } from "./evaluator-check.js";
import { compileLax } from "./evaluator-lax.js";

/** The program format this evaluator reads (core.ProgramVersion). */
export const PROGRAM_VERSION = 1;

const OBJECT = Object.prototype;
const ARRAY = Array.prototype;

/** A key JSON.stringify escapes (Go's tape then hands the text to its full path). */
const ESCAPED_KEY = /["\\\u0000-\u001f]/;

/** Keys already found to need no escape and to be well-formed (keys repeat from call to call; at most 4096 short ones). */
const plainKeys = new Set();

/** Whether a key crosses to Go unescaped and well-formed. */
function plainKey(k) {
  if (plainKeys.has(k)) return true;
  if (ESCAPED_KEY.test(k) || !wellFormed(k)) return false;
  if (plainKeys.size < 4096 && k.length <= 128) plainKeys.add(k);
  return true;
}

/**
 * Copies object arguments as JSON.stringify writes them and Go reads them back: nested objects'
 * keys sorted as Go sorts them, -0 as 0, NaN and ±Infinity as null, undefined, functions and
 * symbols left out (null in an array), BigInts as exact integers; st.big is set when an integer
 * beyond ±(2^53−1) is met. Throws NOPE for what it does not model.
 */
function copyValue(v, depth, st, top) {
  switch (typeof v) {
    case "string":
      if (!wellFormed(v)) throw NOPE;
      st.bytes += v.length * 6 + 3;
      return v;
    case "number":
      st.bytes += 25;
      if (!Number.isFinite(v)) return null;
      if (v > Number.MAX_SAFE_INTEGER || v < -Number.MAX_SAFE_INTEGER) st.big = true;
      return v + 0;
    case "boolean":
      st.bytes += 6;
      return v;
    case "bigint": {
      const text = v.toString();
      st.bytes += text.length + 1;
      if (v >= -9007199254740991n && v <= 9007199254740991n) return Number(text);
      st.big = true;
      return new Num(text);
    }
    case "object":
      if (v === null) {
        st.bytes += 5;
        return null;
      }
      if (depth >= st.maxDepth || v.toJSON !== undefined) throw NOPE;
      return Array.isArray(v) ? copyArray(v, depth, st) : copyObject(v, depth, st, top);
  }
  throw NOPE;
}

function copyArray(v, depth, st) {
  if (Object.getPrototypeOf(v) !== ARRAY) throw NOPE;
  const out = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const e = v[i];
    out[i] = e === undefined || typeof e === "function" || typeof e === "symbol" ? null : copyValue(e, depth + 1, st, false);
  }
  st.bytes += 2 + v.length;
  return out;
}

function copyObject(v, depth, st, top) {
  const proto = Object.getPrototypeOf(v);
  if (proto !== OBJECT && proto !== null) throw NOPE;
  const keys = Object.keys(v);
  if (!top && keys.length > 1) sortKeys(keys);
  const known = top ? st.known : null;
  const out = {};
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const e = v[k];
    if (e === undefined || typeof e === "function" || typeof e === "symbol") continue;
    if (!plainKey(k)) throw NOPE;
    if (known !== null && !known.has(k)) st.unknown = true;
    st.bytes += k.length * 6 + 4;
    const c = copyValue(e, depth + 1, st, false);
    if (k === "__proto__") setMember(out, k, c);
    else out[k] = c;
  }
  st.bytes += 2;
  return out;
}

/** Whether keys are in Go's order already. */
function inOrder(keys) {
  for (let i = 1; i < keys.length; i++) if (cmpStrings(keys[i - 1], keys[i]) > 0) return false;
  return true;
}

/**
 * One pass over arguments text, deciding whether JSON.parse reads it as Go's tape does: no escape,
 * no number whose spelling JSON.parse would lose (a fraction or an exponent, "-0", 16 digits or
 * more; strings aside), nesting within maxDepth. Returns the number of keys the text holds (its
 * colons outside strings), or -1 when the reader must read it. Strings are skipped with indexOf:
 * without escapes, a string ends at the next quote.
 */
function plainText(s, maxDepth) {
  if (s.indexOf("\\") >= 0) return -1;
  let colons = 0;
  let level = 0;
  let digits = 0;
  for (let i = 0, n = s.length; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits >= 16) return -1;
      continue;
    }
    if (digits > 0) {
      if (c === 46 || c === 101 || c === 69) return -1;
      digits = 0;
    }
    switch (c) {
      case 34: // a string
        i = s.indexOf('"', i + 1);
        if (i < 0) return -1;
        break;
      case 58:
        colons++;
        break;
      case 123:
      case 91:
        if (++level > maxDepth) return -1;
        break;
      case 125:
      case 93:
        level--;
        break;
      case 45: // "-0"
        if (s.charCodeAt(i + 1) === 48) return -1;
        break;
      case 46: // "." with no digit before: not JSON; the reader says so
        return -1;
    }
  }
  return colons;
}

/**
 * JSON.parse's value v made ready for the evaluator in one walk: every nested object's keys put in
 * Go's order (in place, or a sorted copy), st.keys counting the keys of the whole value (compared
 * with the text's colons: fewer means a repeated key) and, at the top, st.unknown set when a key
 * is not one the tool keeps, st.index when one is an array index (INDEX_KEY). Returns the value (v itself at the top and for arrays).
 */
function settle(v, top, st) {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const e = v[i];
      if (e !== null && typeof e === "object") v[i] = settle(e, false, st);
    }
    return v;
  }
  const keys = Object.keys(v);
  st.keys += keys.length;
  if (top) {
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (st.known !== null && !st.known.has(k)) st.unknown = true;
      const d = k.charCodeAt(0);
      if (d >= 48 && d <= 57 && INDEX_KEY.test(k)) st.index = true;
    }
  }
  if (top || inOrder(keys)) {
    for (let i = 0; i < keys.length; i++) {
      const e = v[keys[i]];
      if (e !== null && typeof e === "object") {
        const x = settle(e, false, st);
        if (x !== e) setMember(v, keys[i], x);
      }
    }
    return v;
  }
  sortKeys(keys);
  const out = {};
  for (let i = 0; i < keys.length; i++) {
    const e = v[keys[i]];
    setMember(out, keys[i], e !== null && typeof e === "object" ? settle(e, false, st) : e);
  }
  return out;
}

/** Lists the numbers whose exponent is beyond the bound (Go's unsafeNumbers), as issues. */
function unsafeNumbers(v, path, limit, issues) {
  if (v instanceof Num) {
    const t = v.text;
    if (/[.eE]/.test(t) && !exponentWithin(t, limit)) {
      const p = pointer(path);
      issues.push({ path: p, keyword: "maxExponent", message: `${describeField(p)}: the number ${clipText(t, 40)} has a decimal exponent beyond ±${limit}` });
    }
  } else if (Array.isArray(v)) {
    v.forEach((e, i) => {
      path.push(i);
      unsafeNumbers(e, path, limit, issues);
      path.pop();
    });
  } else if (v !== null && typeof v === "object") {
    for (const k of Object.keys(v)) {
      path.push(k);
      unsafeNumbers(v[k], path, limit, issues);
      path.pop();
    }
  }
}

/** Whether some number of v is a Num past the exponent bound. */
function anyUnsafe(v, limit) {
  if (v instanceof Num) return /[.eE]/.test(v.text) && !exponentWithin(v.text, limit);
  if (Array.isArray(v)) return v.some((e) => anyUnsafe(e, limit));
  if (v !== null && typeof v === "object") return Object.keys(v).some((k) => anyUnsafe(v[k], limit));
  return false;
}

/** The JS value Go's JSON of an evaluator value becomes: Nums as numbers, or BigInts for long integers beyond ±(2^53−1). */
function jsValue(v, top = false) {
  if (typeof v === "number") return Number.isInteger(v) && Math.abs(v) > Number.MAX_SAFE_INTEGER && Math.abs(v) < 1e21 ? BigInt(JSON.stringify(v)) : v;
  if (v instanceof Num) {
    const t = v.text;
    if (/^-?\d{16,}$/.test(t)) {
      const b = BigInt(t);
      if (b > 9007199254740991n || b < -9007199254740991n) return b;
    }
    return Number(t);
  }
  if (Array.isArray(v)) return v.map((e) => jsValue(e));
  if (v !== null && typeof v === "object") {
    const out = {};
    const keys = Object.keys(v);
    for (const k of top ? keys : sortKeys(keys)) setMember(out, k, jsValue(v[k]));
    return out;
  }
  return v;
}

/** How decide turns the kept value into the JS arguments. */
const AS_IS = 0; // the value is fresh and final (object arguments without big integers, settled text)
const REVIVE = 1; // object arguments with integers beyond ±(2^53−1): those become BigInts, in place
const JS = 2; // Nums or conversions: jsValue makes the arguments

/**
 * The check's scratch: the issues and the path. The walk is synchronous and calls nothing of the
 * caller's (it runs on the evaluator's own values), so one serves every call; a call that stops
 * half-way (NOPE) leaves a path behind, which the next call resets.
 */
const scratch = { issues: [], path: [] };

/**
 * The verdict of a compiled program `c` on an evaluator value: lax conversions first (as Go's
 * fastNormalize), the exponent bound, the schema, then the keys kept (`unknown`: whether the value
 * has a top-level key the tool does not keep); `finish` (AS_IS, REVIVE or JS) says how the kept
 * value becomes the JS arguments. undefined when Go's full path would word the answer.
 */
function decide(c, value, unsafe, finish, unknown) {
  let conversions;
  if (c.lax !== null) {
    const r = c.lax(value);
    value = r.value;
    if (r.conversions && r.conversions.length) conversions = r.conversions;
  }
  const limits = c.program.limits;
  if (unsafe && anyUnsafe(value, limits.exponent)) {
    const issues = [];
    unsafeNumbers(value, [], limits.exponent, issues);
    return { ok: false, error: argumentsError(c.program, c.tool, issues) };
  }
  const st = scratch;
  if (st.path.length) st.path.length = 0;
  if (st.issues.length) st.issues.length = 0;
  c.root(value, st, false);
  if (st.issues.length) {
    const issues = st.issues;
    st.issues = [];
    return { ok: false, error: argumentsError(c.program, c.tool, issues) };
  }
  let kept = value;
  if (unknown) {
    kept = {};
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) if (c.known.has(keys[i])) setMember(kept, keys[i], value[keys[i]]);
  }
  const minimum = c.minimum;
  for (let i = 0; i < minimum.length; i++) if (!Object.hasOwn(kept, minimum[i])) return undefined; // Go's full path words this refusal
  if (conversions !== undefined) finish = JS;
  const args = finish === AS_IS ? kept : finish === REVIVE ? reviveBig(kept) : jsValue(kept, true);
  return conversions === undefined ? { ok: true, arguments: args } : { ok: true, arguments: args, conversions };
}

/** The verdict on object arguments, as JSON.stringify hands them to Go. */
function fromObject(c, args) {
  if (args === null || typeof args !== "object" || Array.isArray(args)) return undefined;
  const st = { bytes: 0, big: false, maxDepth: c.maxDepth, known: c.known, unknown: false };
  const value = copyValue(args, 0, st, true); // an object: args is one, and toJSON is refused
  if (st.bytes > c.program.limits.bytes) return undefined;
  return decide(c, value, false, st.big ? REVIVE : AS_IS, st.unknown);
}

/** Whether a read value is a JSON object (not an array, a Num or a scalar). */
function isObject(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Num);
}

/** A key JS objects order before the others (an array index). */
const INDEX_KEY = /^(?:0|[1-9][0-9]*)$/;

/** The verdict on arguments text: JSON.parse when no spelling or key needs a closer look, else the reader. */
function fromText(c, json) {
  if (typeof json !== "string" || json.length * 3 > c.program.limits.bytes || !json.includes('"') || !wellFormed(json)) return undefined;
  let value;
  let nums = 0;
  let unknown = false;
  let index = false;
  const keys = plainText(json, c.maxDepth);
  if (keys >= 0) {
    value = JSON.parse(json);
    if (!isObject(value)) return undefined;
    const st = { keys: 0, known: c.known, unknown: false, index: false };
    value = settle(value, true, st);
    if (st.keys !== keys) return undefined; // a repeated key: Go's tape hands it to its full path
    unknown = st.unknown;
    index = st.index;
  } else {
    const st = { nums: 0 };
    value = readJSON(json, c.maxDepth, st);
    nums = st.nums;
    if (!isObject(value)) return undefined;
    const top = Object.keys(value);
    unknown = c.known !== null && top.some((k) => !c.known.has(k));
    index = top.some((k) => INDEX_KEY.test(k));
  }
  // JS objects list integer-like keys first, whatever the text's order; Go converts top-level
  // members in the text's order, so such a key with lax conversions goes to Go
  if (c.lax !== null && index) return undefined;
  return decide(c, value, nums > 0, keys >= 0 ? AS_IS : JS, unknown); // the reader's value: jsValue sorts its nested keys
}

/**
 * Every node of a program as its closure (evaluator-check.js), each compiled once, a node's
 * children before it so that it calls theirs directly; a node reached again while it compiles (a
 * $ref to an enclosing schema) is called through the array. An index out of range declines at run
 * time, as a malformed program must. A chain of nodes too deep to compile this way (the stack runs
 * out) is compiled in order instead, every child called through the array.
 */
function compileNodes(program) {
  const nodes = program.nodes;
  const fns = new Array(nodes.length);
  const through = (i) => (Number.isInteger(i) && i >= 0 && i < nodes.length ? (v, st, items) => fns[i](v, st, items) : decline);
  const state = new Uint8Array(nodes.length); // 0: not yet, 1: compiling, 2: compiled
  const at = (i) => {
    if (!Number.isInteger(i) || i < 0 || i >= nodes.length) return decline;
    if (state[i] === 2) return fns[i];
    if (state[i] === 1) return through(i);
    state[i] = 1;
    fns[i] = compileNode(nodes[i], at, program.limits, nodes);
    state[i] = 2;
    return fns[i];
  };
  try {
    for (let i = 0; i < nodes.length; i++) at(i);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    for (let i = 0; i < nodes.length; i++) fns[i] = compileNode(nodes[i], through, program.limits, nodes);
  }
  return fns;
}

function decline() {
  throw NOPE;
}

/**
 * Whether a value the root node passes holds every key of the tool's minimum after the unknown
 * keys are dropped: the root node requires each of them and the tool keeps each. (The root check
 * then never passes a value that lacks one.)
 */
function impliedMinimum(program) {
  const required = program.nodes[program.root]?.required;
  if (!Array.isArray(required) || !Array.isArray(program.minimum)) return false;
  return program.minimum.every((k) => required.includes(k) && (program.keepAll || program.known.includes(k)));
}

/**
 * Compiles Go's exported program (core Tool.Program) for the tool named toolName into
 * {object(args), text(json)}: each returns {ok: true, arguments, conversions?}, {ok: false, error}
 * (the ToolgateError Go's path throws), or undefined when the evaluator does not model the case
 * (see the list above) and the call must cross to Go. Returns null for a program it cannot run.
 */
export function compileEvaluator(program, toolName = program?.tool) {
  if (!program || program.v !== PROGRAM_VERSION) return null;
  let lax = null;
  if (program.lax !== undefined && program.lax !== null) {
    lax = compileLax(program.lax);
    if (typeof lax !== "function") return null;
  }
  const fns = compileNodes(program);
  const c = {
    program,
    tool: toolName,
    lax,
    root: fns[program.root],
    known: program.keepAll ? null : new Set(program.known), // null: every key is kept
    minimum: impliedMinimum(program) ? [] : program.minimum, // keys to look for in what is kept
    maxDepth: program.limits.depth - 2, // Go counts the nesting from 1; keep clear of its bound
  };
  const guard = (read) => (input) => {
    try {
      return read(c, input);
    } catch {
      return undefined; // NOPE, or a getter or Proxy that threw: Go answers what JSON.stringify makes of it
    }
  };
  return { object: guard(fromObject), text: guard(fromText) };
}

/** Replaces, in place, each number of v beyond ±(2^53−1) that JSON writes as an integer by its BigInt, as Go hands it back. */
function reviveBig(v) {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = bigOf(v[i]);
  } else {
    for (const k of Object.keys(v)) {
      const x = bigOf(v[k]);
      if (x !== v[k]) setMember(v, k, x);
    }
  }
  return v;
}

function bigOf(x) {
  if (typeof x === "number") return Number.isInteger(x) && Math.abs(x) > Number.MAX_SAFE_INTEGER && Math.abs(x) < 1e21 ? BigInt(JSON.stringify(x)) : x;
  if (x instanceof Num) return BigInt(x.text);
  return x !== null && typeof x === "object" ? reviveBig(x) : x;
}
