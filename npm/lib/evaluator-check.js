// The evaluator's checks (issue 23): each node of Go's exported program (core/fastpath_export.go)
// made into a closure (no eval) that checks an evaluator value as core/fastpath.go checks a token,
// recording the same issues in the same words. Node and browser.
import { Num, numberText } from "./evaluator-num.js";
import { parseDecimal, cmpDecimal, isIntegerDecimal, multipleOfDecimal } from "./evaluator-decimal.js";
import { readJSON, NOPE } from "./evaluator-read.js";
import { pointer, describeField } from "./evaluator-issues.js";

/** The JSON kinds as bits, for "type" checks (an integer is a number checked further). */
const STRING = 1;
const NUMBER = 2;
const BOOLEAN = 4;
const NULL = 8;
const ARRAY = 16;
const OBJECT = 32;
const BITS = { string: STRING, number: NUMBER, boolean: BOOLEAN, null: NULL, array: ARRAY, object: OBJECT };

/** The kind of an evaluator value as its bit. */
function kindBit(v) {
  switch (typeof v) {
    case "string":
      return STRING;
    case "number":
      return NUMBER;
    case "boolean":
      return BOOLEAN;
  }
  if (v === null) return NULL;
  if (Array.isArray(v)) return ARRAY;
  return v instanceof Num ? NUMBER : OBJECT;
}

/** A kind's name, as Go words it in messages. */
function kindName(bit) {
  switch (bit) {
    case STRING:
      return "string";
    case NUMBER:
      return "number";
    case BOOLEAN:
      return "boolean";
    case NULL:
      return "null";
    case ARRAY:
      return "array";
  }
  return "object";
}

/** The kinds a "type" list allows, as bits (an integer is a number checked further). */
function typeBits(types) {
  let bits = 0;
  for (const t of types) if (t !== "integer") bits |= BITS[t];
  return bits;
}

/**
 * The check of a node that is only a "type" (the commonest property schema), made inline by its
 * parent: {bits, integer, msg}; null for any other node.
 */
function typeOnly(n) {
  if (!n || !n.types) return null;
  for (const k of Object.keys(n)) if (k !== "types" && k !== "typeMsg") return null;
  return { bits: typeBits(n.types), integer: n.types.includes("integer"), msg: n.typeMsg };
}

/** How a type issue shows a string sent (Go's sentString): a short printable-ASCII one quoted, else "". */
function sentString(s) {
  if (s.length > 40) return "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return "";
  }
  return ` "${s}"`;
}

/** How a type issue shows a number sent (Go's sentNumber): its literal, when at most 40 bytes long. */
function sentNumber(v) {
  const text = numberText(v);
  return text.length > 40 ? "" : ` ${text}`;
}

/**
 * The message tail of key k that additionalProperties false refuses in object v (Go's
 * unknownKeyText): the nearest declared name v lacks, and the declared names when they are few.
 */
function unknownKeyText(k, declared, v) {
  let msg = " is not allowed: the schema names no such property (additionalProperties is false)";
  let list = "";
  if (declared.length > 0 && declared.length <= 12) {
    const l = `"${declared.join('", "')}"`;
    if (utf8Length(l) <= 200) list = `the properties are ${l}`;
  }
  const near = nearestName(k, declared.filter((d) => !Object.hasOwn(v, d)));
  if (near !== "" && list !== "") msg += `; did you mean "${near}"? (${list})`;
  else if (near !== "") msg += `; did you mean "${near}"?`;
  else if (list !== "") msg += `; ${list}`;
  return msg;
}

/** The UTF-8 length of a string (a lone surrogate counts as U+FFFD, as Go writes it). */
function utf8Length(s) {
  let n = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0);
    n += c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
  }
  return n;
}

/** Go's nearestName: the closest of names by edit distance (code points, ASCII case folded), when close. */
function nearestName(key, names) {
  let best = "", bestD = 3;
  const k = foldRunes(key);
  for (const n of names) {
    const r = foldRunes(n);
    const d = editDistance(k, r);
    if (d < bestD && 2 * d <= r.length) {
      best = n;
      bestD = d;
    }
  }
  return best;
}

function foldRunes(s) {
  const out = [];
  for (const ch of s) {
    let c = ch.codePointAt(0);
    if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate: Go's U+FFFD
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    out.push(c);
  }
  return out;
}

function editDistance(a, b) {
  if (Math.abs(a.length - b.length) > 3) return 4;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Whether v passes a typeOnly check. */
function passesType(t, v) {
  const kind = kindBit(v);
  return (t.bits & kind) !== 0 || (t.integer && kind === NUMBER && isInteger(v));
}

/** Whether two evaluator numbers are equal by value (their literals' decimals). */
function numbersEqual(a, b) {
  if (typeof a === "number" && typeof b === "number") return a === b;
  return cmpDecimal(parseDecimal(numberText(a)), parseDecimal(numberText(b))) === 0;
}

/** JSON equality, as the validator's (numbers by value, objects whatever their key order). @internal */
export function equal(a, b) {
  if (a === b) return true;
  const ka = kindBit(a);
  if (ka !== kindBit(b)) return false;
  switch (ka) {
    case NUMBER:
      return numbersEqual(a, b);
    case ARRAY:
      if (a.length !== b.length) return false;
      for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i])) return false;
      return true;
    case OBJECT: {
      const keys = Object.keys(a);
      if (keys.length !== Object.keys(b).length) return false;
      for (const k of keys) if (!Object.hasOwn(b, k) || !equal(a[k], b[k])) return false;
      return true;
    }
  }
  return false;
}

/** Records an issue at the current path (fastRun.fail). @internal */
export function fail(st, keyword, msg) {
  const p = pointer(st.path);
  st.issues.push({ path: p, keyword, message: describeField(p) + ": " + msg });
}

/** Records an issue about a key (fastRun.failKey). */
function failKey(st, name, keyword, msg) {
  const p = pointer(st.path, name);
  st.issues.push({ path: p, keyword, message: describeField(p) + msg });
}

/** checkCount: min<What>/max<What> on count (undefined is absent). */
function checkCount(st, count, min, max, what, rule) {
  const noun = rule.slice(0, rule.indexOf(" "));
  if (min !== undefined && count < min) fail(st, "min" + what, `minimum ${min} ${rule}, but found ${count} ${noun}`);
  if (max !== undefined && count > max) fail(st, "max" + what, `maximum ${max} ${rule}, but found ${count} ${noun}`);
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

/** A schema value from its exported JSON text. */
function literal(text) {
  return readJSON(text, 1e9, { nums: 0 });
}

/** Whether an evaluator number is an integer by value. */
function isInteger(v) {
  return typeof v === "number" ? Number.isInteger(v) : isIntegerDecimal(parseDecimal(v.text));
}

/** A bound as a check (v, text) → ok: on doubles when the bound's text is its double's, else on decimals. */
function boundCheck(b) {
  const dec = parseDecimal(b.v);
  const x = Number(b.v);
  const exact = Number.isFinite(x) && cmpDecimal(parseDecimal(JSON.stringify(x)), dec) === 0;
  const ok = { minimum: (c) => c >= 0, exclusiveMinimum: (c) => c > 0, maximum: (c) => c <= 0, exclusiveMaximum: (c) => c < 0 }[b.k];
  return (v) => ok(exact && typeof v === "number" ? (v < x ? -1 : v > x ? 1 : 0) : cmpDecimal(parseDecimal(numberText(v)), dec));
}

/** multipleOf as a check (v) → ok. */
function multipleCheck(m) {
  const dec = parseDecimal(m.v);
  const x = Number(m.v);
  const small = Number.isSafeInteger(x) && x > 0 && cmpDecimal(parseDecimal(String(x)), dec) === 0;
  return (v) => {
    if (small && typeof v === "number") {
      if (Number.isSafeInteger(v)) return v % x === 0;
      if (!Number.isInteger(v)) return false;
    }
    return multipleOfDecimal(parseDecimal(numberText(v)), dec);
  };
}

/**
 * The object keywords of node n as a check (v, st), or null when it has none; `nodes` is the
 * program's. A key names its property's entry by a lookup in a Map; the required keys the walk
 * over the members meets are counted, so that they are looked for again only when one is missing.
 */
function objectCheck(n, at, nodes) {
  const props = n.props ? new Map(n.props.map(([name, i]) => [name, { f: at(i), type: typeOnly(nodes[i]), required: false }])) : null;
  const add = n.additional !== undefined ? { f: at(n.additional), type: typeOnly(nodes[n.additional]), required: false } : null;
  const closed = !!n.noAdditional;
  const members = props !== null || add !== null || closed;
  const required = n.required ?? [];
  const requiredMsg = n.requiredMsg ?? [];
  const declared = (n.props ?? []).map(([name]) => name);
  const distinct = new Set(required);
  let named = 0;
  for (const r of distinct) {
    const p = props !== null ? props.get(r) : undefined;
    if (p !== undefined) {
      p.required = true;
      named++;
    }
  }
  const counting = members && named === distinct.size; // every required key has its entry
  const minProps = n.minProperties;
  const maxProps = n.maxProperties;
  const counted = minProps !== undefined || maxProps !== undefined;
  if (!members && !required.length && !counted) return null;
  // The entry last found for the key at each of the first positions: objects checked by one node
  // tend to list the same keys in the same places, and keys are interned strings, so a hit costs
  // a comparison of references instead of a Map lookup.
  const seenKeys = new Array(8).fill(undefined);
  const seenEntries = new Array(8).fill(undefined);
  const entry = (k, i) => {
    if (i < 8 && seenKeys[i] === k) return seenEntries[i];
    const p = (props !== null && props.get(k)) || (closed ? undefined : add);
    if (i < 8) {
      seenKeys[i] = k;
      seenEntries[i] = p;
    }
    return p;
  };
  return (v, st) => {
    const keys = Object.keys(v);
    if (counted) checkCount(st, keys.length, minProps, maxProps, "Properties", "properties allowed");
    let met = 0;
    if (members) {
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i];
        const p = entry(k, i);
        if (p === undefined || p === null) {
          if (closed) failKey(st, k, "additionalProperties", unknownKeyText(k, declared, v));
          continue;
        }
        if (p.required) met++;
        const x = v[k];
        if (p.type !== null && passesType(p.type, x)) continue; // Go's sub: a type-only subschema the value has is passed without a call
        st.path.push(k);
        p.f(x, st, false);
        st.path.pop();
      }
    }
    if (counting && met === named) return; // keys are distinct: each required key was met
    for (let i = 0; i < required.length; i++) if (!Object.hasOwn(v, required[i])) failKey(st, required[i], "required", requiredMsg[i] ?? " is required but missing");
  };
}

/** The array keywords of node n as a check (v, st), or null when it has none. */
function arrayCheck(n, at, limits, nodes) {
  const prefix = (n.prefix ?? []).map(at);
  const items = n.items !== undefined ? at(n.items) : null;
  const itemType = n.items !== undefined ? typeOnly(nodes[n.items]) : null;
  const minItems = n.minItems;
  const maxItems = n.maxItems;
  const unique = !!n.unique;
  if (!prefix.length && items === null && minItems === undefined && maxItems === undefined && !unique) return null;
  return (v, st) => {
    const count = v.length;
    if (minItems !== undefined || maxItems !== undefined) checkCount(st, count, minItems, maxItems, "Items", "items required");
    if (unique && count > 1) checkUnique(v, st, limits);
    for (let i = 0; i < count; i++) {
      const f = i < prefix.length ? prefix[i] : items;
      if (f === null) break;
      if (f === items && itemType !== null && passesType(itemType, v[i])) continue;
      st.path.push(i);
      f(v[i], st, i >= prefix.length);
      st.path.pop();
    }
  };
}

/** uniqueItems: the first pair (by the later index, then the earlier) of equal items is reported. */
function checkUnique(v, st, limits) {
  if (v.length > limits.unique) throw NOPE; // Go's fast path bails: the full path answers
  for (let i = 1; i < v.length; i++) {
    for (let j = 0; j < i; j++) {
      if (equal(v[i], v[j])) {
        fail(st, "uniqueItems", `items at index ${j} and ${i} are equal`);
        return;
      }
    }
  }
}

/** The string keywords of node n as a check (v, st), or null when it has none. */
function stringCheck(n) {
  const minLen = n.minLength;
  const maxLen = n.maxLength;
  if (minLen === undefined && maxLen === undefined) return null;
  return (v, st) => {
    // a string of n UTF-16 units holds n/2 to n code points: count them only when that decides
    const n = v.length;
    if ((minLen === undefined || n >= 2 * minLen) && (maxLen === undefined || n <= maxLen)) return;
    const len = codePoints(v);
    if (minLen !== undefined && len < minLen) fail(st, "minLength", `length must be >= ${minLen}, but got ${len}`);
    if (maxLen !== undefined && len > maxLen) fail(st, "maxLength", `length must be <= ${maxLen}, but got ${len}`);
  };
}

/** The number keywords of node n as a check (v, st), or null when it has none. */
function numberCheck(n) {
  const bounds = (n.bounds ?? []).map((b) => ({ k: b.k, msg: b.msg, ok: boundCheck(b) }));
  const multiple = n.multipleOf ? { msg: n.multipleOf.msg, ok: multipleCheck(n.multipleOf) } : null;
  if (!bounds.length && multiple === null) return null;
  return (v, st) => {
    for (const b of bounds) if (!b.ok(v)) fail(st, b.k, b.msg + numberText(v));
    if (multiple !== null && !multiple.ok(v)) fail(st, "multipleOf", numberText(v) + multiple.msg);
  };
}

/** $ref, allOf, anyOf and oneOf of node n as a check (v, st), or null when it has none. */
function inPlaceCheck(n, at) {
  const ref = n.ref !== undefined ? at(n.ref) : null;
  const allOf = (n.allOf ?? []).map(at);
  const anyOf = (n.anyOf ?? []).map(at);
  const oneOf = (n.oneOf ?? []).map(at);
  if (ref === null && !allOf.length && !anyOf.length && !oneOf.length) return null;
  return (v, st) => {
    if (ref !== null) ref(v, st, false);
    for (const f of allOf) f(v, st, false);
    if (anyOf.length) {
      const mark = st.issues.length;
      for (const f of anyOf) {
        if (f(v, st, false)) {
          st.issues.length = mark; // one branch holds: the others' failures are not reported
          break;
        }
      }
    }
    if (oneOf.length) checkOneOf(oneOf, v, st);
  };
}

/**
 * Makes node n of the program a closure (v, st, items) → whether it found nothing wrong; `at(i)`
 * gives node i's closure, `limits` and `nodes` are the program's. @internal
 */
export function compileNode(n, at, limits, nodes) {
  if (n.never) {
    return (_v, st, items) => {
      fail(st, items ? "items" : "false", "not allowed");
      return false;
    };
  }
  const bits = n.types ? typeBits(n.types) : -1;
  const integer = !!n.types && n.types.includes("integer");
  const typeMsg = n.typeMsg;
  const typeTail = n.typeTail ?? "";
  const hasConst = n.const !== undefined;
  const constant = hasConst ? literal(n.const) : undefined;
  const inEnum = n.enum ? enumTest(n.enum.map(literal)) : null;
  const object = objectCheck(n, at, nodes);
  const array = arrayCheck(n, at, limits, nodes);
  const string = stringCheck(n);
  const number = numberCheck(n);
  const inPlace = inPlaceCheck(n, at);
  const noEnum = !!n.noEnum;
  const constMsg = n.constMsg;
  const enumMsg = n.enumMsg;
  return (v, st) => {
    const kind = kindBit(v);
    if ((bits & kind) === 0 && !(integer && kind === NUMBER && isInteger(v))) {
      fail(st, "type", typeMsg + kindName(kind) + (typeof v === "string" ? sentString(v) : kind === NUMBER ? sentNumber(v) : "") + typeTail);
      return false;
    }
    const before = st.issues.length;
    if (hasConst && !equal(v, constant)) fail(st, "const", constMsg);
    if (inEnum !== null && !inEnum(v)) fail(st, "enum", enumMsg);
    if (kind === OBJECT) {
      if (object !== null) object(v, st);
    } else if (kind === ARRAY) {
      if (array !== null) array(v, st);
    } else if (kind === STRING) {
      if (string !== null) string(v, st);
    } else if (kind === NUMBER && number !== null) number(v, st);
    if (inPlace !== null) inPlace(v, st);
    if (noEnum) fail(st, "enum", "no value is allowed: enum is empty");
    return st.issues.length === before;
  };
}

/** An enum's values as a test (v) → whether v is one of them: strings by a Set, the others by equal. */
function enumTest(list) {
  const strings = new Set(list.filter((e) => typeof e === "string"));
  const others = list.filter((e) => typeof e !== "string");
  return (v) => {
    if (typeof v === "string") return strings.has(v);
    for (let i = 0; i < others.length; i++) if (equal(v, others[i])) return true;
    return false;
  };
}

/** oneOf: exactly one branch must hold. */
function checkOneOf(branches, v, st) {
  const before = st.issues.length;
  let matched = -1;
  for (let i = 0; i < branches.length; i++) {
    const mark = st.issues.length;
    if (!branches[i](v, st, false)) continue;
    st.issues.length = mark;
    if (matched >= 0) {
      st.issues.length = before;
      fail(st, "oneOf", `valid against schemas at indexes ${matched} and ${i}`);
      return;
    }
    matched = i;
  }
  if (matched >= 0) st.issues.length = before;
}
