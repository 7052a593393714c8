// Lax coercion in JS (issue 23): Go's coercion plan (core/coerce.go), exported with a tool's
// program as data (core/fastpath_export_lax.go), made into a function over evaluator values that
// makes the conversions Go's fast path makes (core/fastpath_emit.go: convertObject, convert,
// convertScalar) in Go's order: the top-level members in the arguments' order, nested members
// sorted by their UTF-8 bytes, array items by index; each reported as Go reports it. The scalar
// rules are in evaluator-lax-scalar.js. Closures over data, no code generation. Node and browser.
import { Num, numberText } from "./evaluator-num.js";
import { KIND, fromString, fromNumber, isIntegerText } from "./evaluator-lax-scalar.js";

/** A plan with nothing to convert here nor below (Go's nil plan). */
const NONE = null;

/**
 * Compiles an exported coercion plan ({root, nodes}) into (value, keys?) => {value, conversions}:
 * value the arguments object (an evaluator value, never modified: what changes is a copy, what
 * does not is shared), keys its top-level keys in the order Go reads them (default Object.keys),
 * conversions [{path, from, to}] as Go's. Null when the program is malformed.
 * @internal
 */
export function compileLax(program) {
  const plans = buildPlans(program);
  if (plans === null) return null;
  const root = plans.root;
  if (root === NONE || !root.walksObject) return (value) => ({ value, conversions: [] });
  return (value, keys = undefined) => {
    const run = { path: [], conversions: [] };
    let out = null;
    if (isObject(value)) {
      for (const k of keys ?? Object.keys(value)) {
        const c = member(root, k);
        if (c === NONE) continue;
        run.path.push(k);
        const nv = convert(c, value[k], run);
        run.path.pop();
        if (nv !== undefined) out = setMember(out ?? { ...value }, k, nv);
      }
    }
    return { value: out ?? value, conversions: run.conversions };
  };
}

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
      p.props = n.props ? new Map(n.props.map(([name, j]) => [name, at(j)]).filter(([, c]) => c !== NONE)) : null;
      if (p.props !== null && p.props.size === 0) p.props = null;
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
function convert(p, v, run) {
  if (typeof v === "string" || typeof v === "number" || v instanceof Num) return p.scalar ? convertScalar(p, v, run) : undefined;
  if (Array.isArray(v)) {
    if (!p.walksArray) return undefined;
    let out = null;
    for (let i = 0; i < v.length; i++) {
      const c = p.prefix !== null && i < p.prefix.length ? p.prefix[i] : p.items;
      if (c === NONE) continue;
      run.path.push(String(i));
      const nv = convert(c, v[i], run);
      run.path.pop();
      if (nv !== undefined) (out ??= v.slice())[i] = nv;
    }
    return out ?? undefined;
  }
  if (!isObject(v) || !p.walksObject) return undefined;
  const keys = Object.keys(v).filter((k) => member(p, k) !== NONE);
  if (keys.length > 1) keys.sort(byUTF8);
  let out = null;
  for (const k of keys) {
    run.path.push(k);
    const nv = convert(member(p, k), v[k], run);
    run.path.pop();
    if (nv !== undefined) out = setMember(out ?? { ...v }, k, nv);
  }
  return out ?? undefined;
}

/** convertScalar: fromString's or fromNumber's conversion, recorded at the current path. */
function convertScalar(p, v, run) {
  let r;
  if (typeof v === "string") {
    r = fromString(p.kinds, v);
  } else {
    const text = numberText(v);
    const integer = isIntegerText(text);
    if ((integer && p.kinds & KIND.integer) || (!integer && p.kinds & KIND.number)) return undefined;
    r = fromNumber(p.kinds, text);
  }
  if (r === null) return undefined;
  run.conversions.push({ path: pointer(run.path), from: r.from, to: r.to });
  return r.value;
}

/** jsontext.Join("", tokens...): a JSON pointer, "~" written "~0" and "/" "~1". */
function pointer(tokens) {
  let s = "";
  for (const t of tokens) s += "/" + (/[~/]/.test(t) ? t.replaceAll("~", "~0").replaceAll("/", "~1") : t);
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
