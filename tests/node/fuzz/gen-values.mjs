// Values: plain JSON values, instances guided by a schema (near the edges of what it accepts,
// mutated now and then), and the JS values JSON cannot carry, in the tagged language.
import { tag, obj } from "./tagged.mjs";
import { KEYS, smallValue } from "./gen-schema.mjs";

export const STRINGS = ["", "a", "abc", "A", "ab", "aa", "b", "5", "5.0", "1_000", "-3", "true", "false", "yes", "null", "ü", "é", "😀", "a b", "x-y", "\n", "a\r", "\u00a0", "\u2028", "2024-01-01", "foo@bar", "x".repeat(70), "ß", "ΣΑ"];
export const NUMBERS = [0, 1, -1, 2, 2.5, 3, 0.1, 0.3, 10, 1000, 1.5, 7, 2 ** 53, 2 ** 53 + 2, -1e300, 1e21, 0.5, 4, 6, 1e-7];

/** A random JSON value (no hostile values), `d` levels of nesting left. */
export function genJSON(rng, d = 2) {
  return rng.weighted([
    [3, () => rng.pick(NUMBERS)],
    [3, () => rng.pick(STRINGS)],
    [2, () => rng.pick([true, false, null])],
    [d > 0 ? 2 : 0, () => rng.times(rng.int(0, 3), () => genJSON(rng, d - 1))],
    [d > 0 ? 2 : 0, () => obj(rng.times(rng.int(0, 3), () => [rng.pick(KEYS), genJSON(rng, d - 1)]))],
  ]);
}

/** The subschema a local $ref points at, or undefined. */
function resolveRef(root, ref) {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let v = root;
  for (const part of ref.slice(2).split("/")) {
    const k = part.replace(/~1/g, "/").replace(/~0/g, "~");
    v = v !== null && typeof v === "object" && Object.hasOwn(v, k) ? v[k] : undefined;
  }
  return v;
}

/** A number near the bounds of a number schema. */
function numberFor(rng, s) {
  const edges = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"].filter((k) => typeof s[k] === "number").map((k) => s[k]);
  const base = edges.length && rng.chance(0.7) ? rng.pick(edges) + rng.pick([-1, -0.5, 0, 0, 0.5, 1]) : rng.pick(NUMBERS);
  if (typeof s.multipleOf === "number" && rng.chance(0.5)) return s.multipleOf * rng.int(-3, 5);
  return s.type === "integer" && rng.chance(0.8) ? Math.round(base) : base;
}

/** A string near the bounds of a string schema. */
function stringFor(rng, s) {
  const n = rng.pick([s.minLength, s.maxLength, (s.maxLength ?? 0) + 1, (s.minLength ?? 1) - 1].filter((x) => x >= 0 && x < 100));
  if (n !== undefined && rng.chance(0.5)) return rng.pick(["a", "b", "é", "😀", "1", " "]).repeat(n);
  return rng.pick(STRINGS);
}

/** An object for an object schema: required keys, some properties and pattern keys, extras. */
function objectFor(rng, s, root, d) {
  const keys = new Set(Array.isArray(s.required) ? s.required : []);
  for (const k of Object.keys(s.properties ?? {})) if (rng.chance(0.6)) keys.add(k);
  if (s.dependentRequired && rng.chance(0.5)) for (const k of Object.keys(s.dependentRequired)) keys.add(k);
  if (rng.chance(0.3)) keys.add(rng.pick(KEYS));
  const pairs = [...keys].filter((k) => typeof k === "string" && rng.chance(0.95)).map((k) => {
    const sub = s.properties && Object.hasOwn(s.properties, k) ? s.properties[k] : s.additionalProperties;
    return [k, sub === undefined ? genJSON(rng, 1) : instanceFor(rng, sub, root, d - 1)];
  });
  return obj(pairs);
}

/** An array for an array schema: prefix items, then items. */
function arrayFor(rng, s, root, d) {
  const out = (Array.isArray(s.prefixItems) ? s.prefixItems : []).filter(() => rng.chance(0.8)).map((p) => instanceFor(rng, p, root, d - 1));
  const n = rng.int(0, Math.max(1, (s.maxItems ?? 3) + (rng.chance(0.2) ? 1 : 0)));
  for (let i = out.length; i < n; i++) out.push(s.items !== undefined ? instanceFor(rng, s.items, root, d - 1) : genJSON(rng, 1));
  if (s.uniqueItems && out.length && rng.chance(0.3)) out.push(out[0]);
  return out;
}

/** A value for a schema of one (listed or guessed) type. */
function typedFor(rng, s, root, d) {
  let t = Array.isArray(s.type) ? rng.pick(s.type) : s.type;
  if (t === undefined) t = s.properties || s.required ? "object" : s.items || s.prefixItems ? "array" : s.pattern || s.minLength !== undefined ? "string" : "number";
  switch (t) {
    case "object": return objectFor(rng, s, root, d);
    case "array": return arrayFor(rng, s, root, d);
    case "string": return stringFor(rng, s);
    case "number": case "integer": return numberFor(rng, s);
    case "boolean": return rng.chance(0.5);
    case "null": return null;
    default: return genJSON(rng, 1);
  }
}

/**
 * A value for schema s (root resolves $ref): mostly near what s accepts, sometimes a random value
 * in its place, so a run sees both verdicts.
 */
export function instanceFor(rng, s, root, d = 4) {
  if (d <= 0 || rng.chance(0.12)) return genJSON(rng, Math.max(0, Math.min(d, 2)));
  if (s === true || s === false || s === null || typeof s !== "object") return genJSON(rng, 1);
  if (typeof s.$ref === "string") {
    const target = resolveRef(root, s.$ref);
    return target === undefined || target === s ? genJSON(rng, 1) : instanceFor(rng, target, root, d - 1);
  }
  if (Object.hasOwn(s, "const") && rng.chance(0.7)) return s.const;
  if (Array.isArray(s.enum) && s.enum.length && rng.chance(0.7)) return rng.pick(s.enum);
  for (const k of ["anyOf", "oneOf", "allOf"]) {
    if (Array.isArray(s[k]) && s[k].length && rng.chance(0.7)) return instanceFor(rng, rng.pick(s[k]), root, d - 1);
  }
  if (s.if !== undefined && rng.chance(0.5)) return instanceFor(rng, rng.pick([s.if, s.then, s.else].filter((x) => x !== undefined)), root, d - 1);
  return typedFor(rng, s, root, d);
}

/** Arguments for a schema: an object, as a tool's arguments are. */
export function argumentsFor(rng, schema) {
  const v = instanceFor(rng, schema, schema, 4);
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : obj([[rng.pick(KEYS), v]]);
}

/** One JS value JSON cannot carry (or carries oddly), in the tagged language. */
export function hostile(rng) {
  return rng.weighted([
    [3, () => tag("bigint", { v: rng.pick(["9007199254740993", "-9007199254740993", "12345678901234567890123", "0", "5"]) })],
    [3, () => tag("num", { v: rng.pick(["NaN", "Infinity", "-Infinity", "-0"]) })],
    [2, () => tag("undefined")],
    [2, () => tag("cycle")],
    [2, () => tag("deep", { n: rng.pick([62, 63, 64, 65, 200, 20000]), kind: rng.pick(["array", "object"]) })],
    [1, () => tag("longstr", { n: rng.pick([1000, 100000, 1 << 20]), ch: rng.pick(["x", "é", "😀"]) })],
    [0.05, () => tag("longstr", { n: 17 << 20 })], // past the 16 MiB arguments limit
    [1, () => tag("fn", { src: "function f() {}" })],
    [1, () => tag("symbol")],
    [1, () => tag("date", { v: rng.pick([0, 1700000000000, "invalid"]) })],
    [1, () => tag("map", { e: [["k", tag("bigint", { v: "1" })]] })],
    [1, () => tag("set", { e: [1, 2] })],
    [2, () => tag("nullproto", { o: obj([["a", rng.pick([1, tag("bigint", { v: "9007199254740993" })])]]) })],
    [1, () => tag(rng.pick(["throwget", "throwjson", "instance", "typed", "revoked", "regexp", "error"]))],
    [1, () => obj([["__proto__", rng.pick([1, { polluted: true }, null])], ["constructor", rng.pick([{ prototype: { x: 1 } }, "c"])]])],
    [1, () => rng.pick(["\ud800", "a\udc00b", "\u0000", "\uffff", "\u{10ffff}"])],
    [1, () => smallValue(rng)],
  ]);
}

/** v with some nested positions replaced by hostile values (v itself when rng says so). */
export function sprinkle(rng, v, p = 0.15, d = 0) {
  if (rng.chance(p) && d > 0) return hostile(rng);
  if (Array.isArray(v)) return v.map((e) => sprinkle(rng, e, p, d + 1));
  if (v !== null && typeof v === "object" && v.$fz === undefined) {
    const pairs = Object.keys(v).map((k) => [k, sprinkle(rng, v[k], p, d + 1)]);
    if (rng.chance(p)) pairs.push([rng.pick(KEYS), hostile(rng)]);
    return obj(pairs);
  }
  return v;
}
