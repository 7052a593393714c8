// Schemas and values for the lax-coercion differential (evaluator-lax.test.mjs): schemas made of
// what the coercion plan follows (types and type unions, Optional anyOf, oneOf, allOf, local $ref
// with recursion, properties, additionalProperties, patternProperties, prefixItems, draft-7 item
// arrays, a nested $id), and values guided by them, full of strings and numbers a lax conversion
// may take ("42", "4_2", "-0", "1e3", "YES", 5, 1e21, "5.0" spelled as written …).
import { put, obj } from "./tagged.mjs";

/** Keys, some needing ~0 / ~1 in a pointer, some escaped in JSON text, some special to JS. */
export const LAX_KEYS = ["a", "b", "n", "0", "10", "a/b", "~0", "~1/", "ü", "😀", "\uff61", "__proto__", "constructor", "q\"uote", "new\nline", ""];
/** Keys whose UTF-8 order is not their UTF-16 order (a surrogate pair against U+FF61), and others. */
const ORDER_KEYS = ["😀", "\uff61", "\u00e9", "~0", "x1", "zz"];
const TYPES = ["integer", "number", "boolean", "string", "null"];
const DRAFT7 = "http://json-schema.org/draft-07/schema#";

/** A number literal spelled as written (a Num once the test knows the class). */
export const lit = (text) => ({ $lit: text });

/** The values offered for each type: mostly ones the conversion takes, some it refuses. */
const POOLS = {
  integer: ["42", "42.0", "42.", "4_2", "1_000", "-0", "+7", "00012", "-0012.000", "9007199254740993", "1" + "0".repeat(30), 5, 0, 1, -1, 2 ** 53 + 2, 1e21, lit("5.0"), lit("1e2"), lit("2.50e1"), lit("-0.0"), lit("-0"), lit("12345678901234567890123"), lit("1E+3"), lit("100e-2")],
  number: ["2.5", "1e3", "5", "-0", ".5", "5.", "1_000.5", "1_0e1_0", "0.1000000000000000000001", "1E+02", "+.5e+01", "00.50", "1e1000", "9007199254740993", 5, 5.5, 0, 1e21, -0, lit("1.50"), lit("1e2"), lit("12345678901234567890123")],
  boolean: ["true", "YES", "off", "t", "N", "0", "1", "False", "On", "nO", 0, 1, true, false, lit("1.0"), lit("0e5"), lit("-0"), lit("1e0"), lit("-0.0")],
  string: ["42", "x", "true", "", "5.0"],
  null: [null],
};
const BAD = ["null", " 1", "1 ", "inf", "-inf", "nan", "NaN", "infinity", "abc", "1__0", "_1", "1_", "1e1001", "١", "９", "1_000.0", "0x10", "1e", "e1", ".", "-", "+", "--1", "1.5", "2.5e-1", "yes!", "truee", "tRuE", 2.5, 7, -1e300, 1e-7, lit("1e1001"), lit("0.5"), lit("1" + "0".repeat(4301)), "1".repeat(4301), "1".repeat(4300), true, null, [], {}];

/** A parameters schema for the plan builder: an object at the root, $defs for $ref. */
export function genLaxSchema(rng) {
  const g = { rng, draft7: rng.chance(0.15) };
  const root = objectSchema(g, 3);
  if (rng.chance(0.4)) put(root.properties, "m", { type: "object", additionalProperties: { type: rng.pick(["integer", "number", "boolean"]) } });
  root.$defs = {
    item: sub(g, 1),
    node: { type: "object", properties: { v: leaf(g), kids: { type: "array", items: { $ref: "#/$defs/node" } }, next: { anyOf: [{ $ref: "#/$defs/node" }, { type: "null" }] } } },
  };
  if (g.draft7) root.$schema = DRAFT7;
  return root;
}

function leaf(g) {
  const { rng } = g;
  return rng.weighted([
    [6, () => ({ type: rng.pick(TYPES) })],
    [3, () => ({ type: rng.subset(TYPES, 2).concat(rng.pick(["integer", "number", "boolean"])).filter((t, i, a) => a.indexOf(t) === i) })],
    [1, () => ({ type: ["number", "integer"] })],
    [1, () => ({ type: ["integer", "boolean"] })],
    [0.5, () => ({})],
    [0.1, () => ({ not: { type: "string" } })],
  ]);
}

function sub(g, d) {
  const { rng } = g;
  return rng.weighted([
    [5, () => leaf(g)],
    [d > 0 ? 2 : 0, () => objectSchema(g, d - 1)],
    [d > 0 ? 2 : 0, () => arraySchema(g, d - 1)],
    [1.5, () => ({ anyOf: [sub(g, d - 1), { type: "null" }] })],
    [0.3, () => ({ oneOf: [sub(g, d - 1), sub(g, d - 1)] })],
    [0.7, () => ({ anyOf: [leaf(g), leaf(g)] })],
    [0.7, () => ({ allOf: [{ type: rng.pick(["number", "integer", ["number", "integer"], ["integer", "string"]]) }, { type: rng.pick(["number", "integer", ["number", "boolean"]]) }] })],
    [1, () => ({ $ref: rng.pick(["#/$defs/item", "#/$defs/node", "#/$defs/node/properties/v"]) })],
    [0.1, () => ({ $id: "https://example.com/nested", type: "integer" })],
  ]);
}

function objectSchema(g, d) {
  const { rng } = g;
  const s = { type: "object", properties: obj(rng.subset(LAX_KEYS, 5).map((k) => [k, sub(g, d)])) };
  const add = rng.weighted([[4, undefined], [1, false], [1, true], [2, () => sub(g, Math.max(d - 1, 0))]]);
  if (add !== undefined) s.additionalProperties = add;
  if (rng.chance(0.1)) s.patternProperties = { "^x": { type: "integer" } };
  return s;
}

function arraySchema(g, d) {
  const { rng } = g;
  if (g.draft7 && rng.chance(0.5)) {
    const s = { type: "array", items: [sub(g, d), sub(g, d)] };
    if (rng.chance(0.6)) s.additionalItems = sub(g, d);
    return s;
  }
  if (rng.chance(0.35)) {
    const s = { type: "array", prefixItems: [sub(g, d), sub(g, d)] };
    if (rng.chance(0.6)) s.items = sub(g, d);
    return s;
  }
  return { type: "array", items: sub(g, d) };
}

const isSchema = (s) => s !== null && typeof s === "object";

/** The subschema a local $ref points at, or undefined. */
function resolve(root, ref) {
  let v = root;
  for (const part of ref.slice(2).split("/")) v = v?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  return v;
}

/** A value guided by schema s: what it accepts or what a lax conversion turns into it, mostly. */
export function laxValue(rng, s, root, d = 6) {
  if (d <= 0 || rng.chance(0.02)) return rng.pick(BAD);
  if (s === true || s === false || s === undefined) return rng.pick([...POOLS.integer, ...POOLS.number, ...POOLS.boolean]);
  if (s.$ref) return laxValue(rng, resolve(root, s.$ref), root, d - 1);
  if (s.anyOf || s.oneOf) return laxValue(rng, rng.pick(s.anyOf || s.oneOf), root, d - 1);
  if (s.allOf) return laxValue(rng, rng.pick(s.allOf), root, d - 1);
  const type = Array.isArray(s.type) ? rng.pick(s.type) : (s.type ?? rng.pick(TYPES));
  switch (type) {
    case "array": {
      const items = Array.isArray(s.items) ? s.items : s.prefixItems;
      const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
      return rng.times(rng.int(0, 3), (r, i) => laxValue(rng, items?.[i] ?? rest, root, d - 1));
    }
    case "object": {
      const out = {};
      for (const [k, sub] of Object.entries(s.properties ?? {})) if (rng.chance(0.6)) put(out, k, laxValue(rng, sub, root, d - 1));
      const extra = isSchema(s.additionalProperties) ? rng.int(0, 4) : Number(rng.chance(0.15));
      for (let i = 0; i < extra; i++) put(out, rng.pick(rng.chance(0.3) ? LAX_KEYS : ORDER_KEYS), laxValue(rng, s.additionalProperties, root, d - 1));
      return out;
    }
  }
  return rng.pick(POOLS[type]);
}
