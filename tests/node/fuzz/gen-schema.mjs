// A grammar of JSON Schemas (2020-12): types and their keywords, applicators, conditionals,
// local $ref to $defs (recursion included), patternProperties, propertyNames, dependent keywords,
// bounds and format. `diff: true` keeps to what toolgate and Ajv should agree on (the Ajv
// differential); otherwise it also writes schemas that are invalid, refer outside themselves,
// use ECMAScript-only or RE2-only regular expressions, or name other drafts (the API fuzzer).
import { obj, put } from "./tagged.mjs";

export const KEYS = ["a", "b", "c", "id", "name", "x-y", "PATH", "path", "n1", "ü", "a/b", "~0", "", "0", "__proto__", "constructor", "toString", "with space"];
/** Patterns RE2 and ECMAScript (with the u flag) both read, mostly alike. */
export const PATTERNS = ["^a", "^[a-z]+$", "b", "^\\d+$", "^$", ".*", "^[^0-9]*$", "^x-", "a|b", "^.{2,3}$", "[A-Z]", "\\s", "^\\p{L}+$", "é", "^(ab)+$", "^a{2}", "\\w+", "^.$", "y$"];
/** ECMAScript-only syntax: toolgate (RE2) refuses it. */
export const ECMA_PATTERNS = ["(?=a)", "(?!b)x", "(?<=a)b", "(a)\\1", "(?<n>a)\\k<n>"];
/** RE2-only syntax: Ajv (ECMAScript, u flag) refuses it. */
export const RE2_PATTERNS = ["(?i)^a", "\\A", "(?s).", "\\z", "[[:alpha:]]", "\\Qa.b\\E"];
export const FORMATS = ["date-time", "email", "uri", "uuid", "ipv4", "date", "regex", "banana", "hostname", "duration"];
const NUMBERS = [-1, 0, 1, 2, 2.5, 3, 10, 1000, -0.5, 0.1, 1e21];
const MULTIPLES = [1, 2, 3, 0.5, 0.25, 0.1, 7, 0.01];
const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];
const DEF_NAMES = ["node", "leaf", "item", "t"];
const DRAFTS = ["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema#", "https://json-schema.org/draft/2019-09/schema", "https://example.com/unknown-draft"];

/** A small JSON value for const and enum. */
export function smallValue(rng) {
  return rng.weighted([
    [3, () => rng.pick(NUMBERS)],
    [3, () => rng.pick(["a", "b", "", "5", "true", "ü", "x-y"])],
    [1, () => rng.pick([true, false, null])],
    [1, () => [rng.pick([1, "a", null])]],
    [1, () => obj([[rng.pick(KEYS), rng.pick([1, "a"])]])],
  ]);
}

/** A regular expression: mostly one both dialects read; now and then ECMAScript-only or RE2-only syntax. */
function pattern(g) {
  return g.rng.weighted([[60, () => g.rng.pick(PATTERNS)], [1, () => g.rng.pick(ECMA_PATTERNS)], [1, () => g.rng.pick(RE2_PATTERNS)], [g.diff ? 0 : 0.5, "(unclosed"]]);
}

/** A keyword that only makes the schema invalid (API fuzzer only). */
function invalidKeyword(g, s) {
  const [k, v] = g.rng.pick([["type", "banana"], ["minimum", "x"], ["required", "a"], ["properties", []], ["minLength", -1], ["multipleOf", 0], ["enum", "a"], ["items", 5], ["$defs", 1], ["allOf", []], ["format", 5]]);
  return put(s, k, v);
}

/** `type`, sometimes left out (the keywords then apply only to values of that type), or a list. */
function typeOf(g, t) {
  const { rng } = g;
  if (rng.chance(0.15)) return {};
  if (rng.chance(0.1)) return { type: [t, rng.pick(TYPES.filter((x) => x !== t || (!g.diff && rng.chance(0.05))))] };
  return { type: t };
}

function objectSchema(g, d) {
  const { rng } = g;
  const s = typeOf(g, "object");
  const props = rng.subset(KEYS, 4);
  if (props.length || rng.chance(0.3)) s.properties = obj(props.map((k) => [k, node(g, d - 1)]));
  if (rng.chance(0.5)) {
    const extra = rng.chance(0.2) ? [rng.pick(KEYS)] : [];
    s.required = [...new Set([...rng.subset(props), ...extra])];
    if (!g.diff && rng.chance(0.02) && s.required.length) s.required.push(s.required[0]); // a repeated name: invalid
  }
  if (rng.chance(0.3)) s.additionalProperties = rng.chance(0.5) ? rng.chance(0.5) : node(g, d - 1);
  if (rng.chance(0.15)) s.patternProperties = obj([[pattern(g), node(g, d - 1)]]);
  if (rng.chance(0.1)) s.propertyNames = rng.pick([{ pattern: pattern(g) }, { maxLength: rng.int(0, 3) }, { enum: rng.subset(KEYS, 3) }, { minLength: 1 }]);
  if (rng.chance(0.1)) s.dependentRequired = obj([[rng.pick(KEYS), rng.subset(KEYS, 2)]]);
  if (rng.chance(0.08)) s.dependentSchemas = obj([[rng.pick(KEYS), node(g, d - 1)]]);
  if (rng.chance(0.1)) s.minProperties = rng.int(0, 3);
  if (rng.chance(0.1)) s.maxProperties = rng.int(0, 3);
  if (rng.chance(0.05)) s.unevaluatedProperties = rng.chance(0.5) ? false : node(g, d - 1);
  return s;
}

function arraySchema(g, d) {
  const { rng } = g;
  const s = typeOf(g, "array");
  if (rng.chance(0.6)) s.items = rng.chance(0.1) ? false : node(g, d - 1);
  if (rng.chance(0.25)) s.prefixItems = rng.times(rng.int(1, 3), () => node(g, d - 1));
  if (rng.chance(0.2)) s.minItems = rng.int(0, 3);
  if (rng.chance(0.2)) s.maxItems = rng.int(0, 3);
  if (rng.chance(0.15)) s.uniqueItems = rng.chance(0.7);
  if (rng.chance(0.15)) {
    s.contains = node(g, d - 1);
    if (rng.chance(0.4)) s.minContains = rng.int(0, 2);
    if (rng.chance(0.4)) s.maxContains = rng.int(0, 2);
  }
  if (rng.chance(0.05)) s.unevaluatedItems = rng.chance(0.5) ? false : node(g, d - 1);
  return s;
}

function stringSchema(g) {
  const { rng } = g;
  const s = typeOf(g, "string");
  if (rng.chance(0.3)) s.minLength = rng.int(0, 4);
  if (rng.chance(0.3)) s.maxLength = rng.int(0, 6);
  if (rng.chance(0.3)) s.pattern = pattern(g);
  if (rng.chance(0.2)) s.format = rng.pick(FORMATS);
  return s;
}

function numberSchema(g, t) {
  const { rng } = g;
  const s = typeOf(g, t);
  for (const k of ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"]) {
    if (rng.chance(0.2)) s[k] = rng.pick(NUMBERS);
  }
  if (rng.chance(0.2)) s.multipleOf = rng.pick(MULTIPLES);
  return s;
}

/** A schema of one type with that type's keywords. */
function typed(g, d) {
  switch (g.rng.pick(TYPES)) {
    case "object": return objectSchema(g, d);
    case "array": return arraySchema(g, d);
    case "string": return stringSchema(g);
    case "number": return numberSchema(g, "number");
    case "integer": return numberSchema(g, "integer");
    case "boolean": return typeOf(g, "boolean");
    default: return typeOf(g, "null");
  }
}

/** A $ref: to a $def (maybe the one being written: recursion), the root, or (API fuzzer) a bad target. */
function ref(g) {
  const { rng } = g;
  const local = g.defs.length ? [() => `#/$defs/${rng.pick(g.defs)}`, () => "#"] : [() => "#"];
  const bad = g.diff ? [] : [() => "#/$defs/missing", () => "https://example.com/other.json", () => "other.json#/x", () => "#/properties/a", () => "#foo"];
  return { $ref: (bad.length && rng.chance(0.04) ? rng.pick(bad) : rng.pick(local))() };
}

/** One subschema, `d` levels of nesting left. */
export function node(g, d) {
  const { rng } = g;
  g.budget--;
  if (d <= 0 || g.budget <= 0) return leaf(g);
  const s = rng.weighted([
    [30, () => typed(g, d)],
    [5, () => ({ anyOf: rng.times(rng.int(1, 3), () => node(g, d - 1)) })],
    [4, () => ({ oneOf: rng.times(rng.int(1, 3), () => node(g, d - 1)) })],
    [4, () => ({ allOf: rng.times(rng.int(1, 2), () => node(g, d - 1)) })],
    [2, () => ({ not: node(g, d - 1) })],
    [3, () => conditional(g, d)],
    [5, () => ref(g)],
    [3, () => ({ const: smallValue(rng) })],
    [3, () => ({ enum: rng.times(rng.int(g.diff ? 1 : 0, 3), () => smallValue(rng)) })],
    [2, () => rng.chance(0.5)],
    [1, () => ({})],
  ]);
  if (!g.diff && typeof s === "object" && rng.chance(0.005)) invalidKeyword(g, s);
  return s;
}

function conditional(g, d) {
  const s = { if: node(g, d - 1) };
  if (g.rng.chance(0.7)) s.then = node(g, d - 1);
  if (g.rng.chance(0.6)) s.else = node(g, d - 1);
  return s;
}

/** A subschema with no nesting. */
function leaf(g) {
  const { rng } = g;
  return rng.weighted([
    [3, () => ({ type: rng.pick(TYPES) })],
    [1, () => ({})],
    [1, () => rng.chance(0.5)],
    [1, () => ({ const: smallValue(rng) })],
    [1, () => stringSchema(g)],
    [1, () => numberSchema(g, "number")],
    [g.defs.length ? 2 : 0, () => ref(g)],
  ]);
}

/**
 * A whole schema. Options: depth (nesting, default 4), diff (only what both validators should
 * agree on), object (the root is an object schema, as tool parameters usually are).
 */
export function genSchema(rng, { depth = 4, diff = false, object = false } = {}) {
  const g = { rng, diff, defs: rng.subset(DEF_NAMES, 3), budget: 40 };
  const root = object || rng.chance(0.6) ? objectSchema(g, depth) : node(g, depth);
  if (typeof root !== "object") return root;
  if (g.defs.length) root.$defs = obj(g.defs.map((n) => [n, node(g, depth - 1)]));
  if (!diff && rng.chance(0.03)) root.$schema = rng.pick(DRAFTS);
  return root;
}
