// Lax coercion in JS (issue 23): Go's coercion plan (core/coerce.go), exported with a tool's
// program as data (core/fastpath_export_lax.go), made into a function over evaluator values that
// makes the conversions Go's fast path makes (core/fastpath_emit.go: convertObject, convert,
// convertScalar) in Go's order: the top-level members in the arguments' order, nested members
// sorted by their UTF-8 bytes, array items by index; each reported as Go reports it. The scalar
// rules are in evaluator-lax-scalar.js. Closures over data, no code generation. Node and browser.
import { Num } from "./evaluator-num.js";
import { KIND, fromString, fromNumber, isIntegerText } from "./evaluator-lax-scalar.js";

/** A plan with nothing to convert here nor below (Go's nil plan). */
const NONE = null;

/**
 * Compiles an exported coercion plan ({root, nodes}) into (value, keys?) => {value, conversions}:
 * value the arguments object (an evaluator value, never modified: what changes is a copy, what
 * does not is shared), keys its top-level keys in the order Go reads them (default: the object's
 * own order), conversions [{path, from, to}] as Go's. Null when the program is malformed.
 * @internal
 */
export function compileLax(program) {
  const plans = buildPlans(program);
  if (plans === null) return null;
  const root = plans.root;
  if (root === NONE || !root.walksObject) return (value) => ({ value, conversions: [] });
  return (value, keys = undefined) => {
    if (path.length) path.length = 0; // a walk that threw (NOPE) may leave one behind
    convs = [];
    let out = null;
    if (isObject(value)) {
      for (const k of keys ?? Object.keys(value)) {
        const c = member(root, k);
        if (c === NONE) continue;
        path.push(k);
        const nv = convert(c, value[k]);
        path.pop();
        if (nv !== undefined) out = setMember(out ?? { ...value }, k, nv);
      }
    }
    const conversions = convs;
    convs = null;
    return { value: out ?? value, conversions };
  };
}

// The walk's path and conversions: module scratch, as the walk is synchronous and calls nothing
// that could start another.
const path = [];
let convs = null;

/** The program's plans, linked: {root}, or null when the program is malformed. */
function buildPlans(program) {
  if (program === null || typeof program !== "object" || !Number.isInteger(program.root)) return null;
  const nodes = program.nodes ?? [];
  if (!Array.isArray(nodes) || program.root >= nodes.length || program.root < -1) return null;
  const plans = nodes.map(() => ({}));
  const at = (i) => {
    if (i === undefined || i === -1) return NONE;
    if (!Number.isInteger(i) || i < 0 || i >= plans.length) throw new RangeError("bad node index");
    return plans[i];
  };
  try {
    nodes.forEach((n, i) => {
      const p = plans[i];
      p.kinds = 0;
      for (const t of n.types ?? []) {
        if (!Object.hasOwn(KIND, t)) throw new RangeError("bad type name");
        p.kinds |= KIND[t];
      }
      // scalarTarget: something to convert a scalar to, and not every type accepted.
      p.scalar = p.kinds !== 0 && p.kinds !== 127 && (p.kinds & (KIND.integer | KIND.number | KIND.boolean)) !== 0;
      // Go lists the members sorted by their UTF-8 bytes, the order its walk visits them in.
      p.propList = (n.props ?? []).map(([name, j]) => [memberName(name), at(j)]).filter(([, c]) => c !== NONE);
      p.props = p.propList.length ? new Map(p.propList) : null;
      p.other = at(n.other);
      p.prefix = n.prefix ? n.prefix.map(at) : null;
      p.items = at(n.items);
      p.walksObject = p.props !== null || p.other !== NONE;
      p.walksArray = p.prefix !== null || p.items !== NONE;
    });
    return { root: at(program.root) };
  } catch {
    return null;
  }
}

/** A member name of the program, which must be a string. */
function memberName(name) {
  if (typeof name !== "string") throw new TypeError("bad member name");
  return name;
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof Num);

/** coercePlan.member: the plan of an object member (NONE when there is none). */
function member(p, k) {
  return (p.props !== null && p.props.get(k)) || p.other;
}

/** out[k] = v, also for "__proto__" (an own data property, as JSON.parse makes it). */
function setMember(out, k, v) {
  if (k === "__proto__") Object.defineProperty(out, k, { value: v, writable: true, enumerable: true, configurable: true });
  else out[k] = v;
  return out;
}

/** convert: the value at this place with the plan's conversions made, or undefined when none is. */
function convert(p, v) {
  switch (typeof v) {
    case "string":
      return p.scalar ? record(fromString(p.kinds, v)) : undefined;
    case "number": {
      if (!p.scalar) return undefined;
      // JSON.stringify writes an integral double below 1e21 as digits alone, anything else with
      // "." or an exponent: whether Go reads an integer literal, without writing the text.
      const integer = Number.isInteger(v) && Math.abs(v) < 1e21;
      if (integer ? p.kinds & KIND.integer : p.kinds & KIND.number) return undefined;
      return record(fromNumber(p.kinds, JSON.stringify(v)));
    }
    case "object":
      break;
    default:
      return undefined;
  }
  if (v === null) return undefined;
  if (v instanceof Num) {
    if (!p.scalar) return undefined;
    const integer = isIntegerText(v.text);
    if (integer ? p.kinds & KIND.integer : p.kinds & KIND.number) return undefined;
    return record(fromNumber(p.kinds, v.text));
  }
  let out = null;
  if (Array.isArray(v)) {
    if (!p.walksArray) return undefined;
    for (let i = 0; i < v.length; i++) {
      const c = p.prefix !== null && i < p.prefix.length ? p.prefix[i] : p.items;
      if (c === NONE) continue;
      path.push(String(i));
      const nv = convert(c, v[i]);
      path.pop();
      if (nv !== undefined) (out ??= v.slice())[i] = nv;
    }
    return out ?? undefined;
  }
  if (!p.walksObject) return undefined;
  if (p.other === NONE) {
    // Only named members have plans: the plan's list is already in Go's order.
    for (const [k, c] of p.propList) {
      if (!Object.hasOwn(v, k)) continue;
      path.push(k);
      const nv = convert(c, v[k]);
      path.pop();
      if (nv !== undefined) out = setMember(out ?? { ...v }, k, nv);
    }
    return out ?? undefined;
  }
  const keys = Object.keys(v);
  if (keys.length > 1) keys.sort(byUTF8);
  for (const k of keys) {
    path.push(k);
    const nv = convert(member(p, k), v[k]);
    path.pop();
    if (nv !== undefined) out = setMember(out ?? { ...v }, k, nv);
  }
  return out ?? undefined;
}

/** Notes a scalar conversion ({value, from, to} or null) at the current path; its value, or undefined. */
function record(r) {
  if (r === null) return undefined;
  convs.push({ path: pointer(path), from: r.from, to: r.to });
  return r.value;
}

/** jsontext.Join("", tokens...): a JSON pointer, "~" written "~0" and "/" "~1". */
function pointer(tokens) {
  let s = "";
  for (const t of tokens) s += "/" + (t.includes("~") || t.includes("/") ? t.replaceAll("~", "~0").replaceAll("/", "~1") : t);
  return s;
}

/** The sort key of a UTF-16 code unit: surrogates after every other unit, so that comparing
 * keys unit by unit orders them as their UTF-8 bytes do (Go's sort of keys). */
const unitKey = (u) => (u >= 0xd800 && u <= 0xdfff ? u + 0x10000 : u);

/** Orders strings by their UTF-8 bytes. */
function byUTF8(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unitKey(x) - unitKey(y);
  }
  return a.length - b.length;
}
