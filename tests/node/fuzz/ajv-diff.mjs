// The differential against Ajv (draft 2020-12): a generated schema and instances, toolgate's
// verdict (b.validate of a typed tool with coerce "none", every key kept) against Ajv2020's.
// What differs on purpose is skipped with a reason, counted per reason; every other
// disagreement is a finding, grouped by a category signature.
import Ajv2020 from "ajv/dist/2020.js";
import { isDeepStrictEqual } from "node:util";
import { genSchema, ECMA_PATTERNS, RE2_PATTERNS } from "./gen-schema.mjs";
import { argumentsFor } from "./gen-values.mjs";
import { put } from "./tagged.mjs";
import { refLoop, renamed, subschemas } from "./schema-walk.mjs";

/** The issue keywords of toolgate's schema bounds (core/limits.go): a refusal by one is a limit, not a verdict. */
const SCHEMA_LIMITS = ["maxBytes", "maxDepth", "maxObjects", "maxValues", "maxKeyLength", "maxEnum", "maxRefExpansion", "maxRefDepth", "maxExponent"];

/**
 * Ajv as the brief says (strict: false, validateFormats: false), plus ownProperties: without it
 * Ajv reads `required: ["constructor"]` through the prototype and calls {} valid.
 */
const newAjv = () => new Ajv2020({ strict: false, validateFormats: false, ownProperties: true });
let ajv = newAjv();
let compiled = 0;

/** Ajv's validate function for schema, or {error} when Ajv refuses it. */
function ajvCompile(schema) {
  if (++compiled % 500 === 0) ajv = newAjv(); // Ajv keeps every compiled schema
  try {
    return { validate: ajv.compile(schema) };
  } catch (e) {
    return { error: e };
  }
}

/** A schema that keeps every key: additionalProperties at the root unless it says something about keys already. */
function keepingKeys(schema) {
  if (schema === null || typeof schema !== "object" || "additionalProperties" in schema || "unevaluatedProperties" in schema) return schema;
  return put({ ...schema }, "additionalProperties", true);
}

/** s under n levels of allOf (two levels of nesting each: about toolgate's limit of 64), its $defs kept at the root for its $refs. */
function deepened(s, n) {
  const { $defs, ...inner } = s;
  let out = inner;
  for (let i = 0; i < n; i++) out = { allOf: [out] };
  return $defs === undefined ? out : { ...out, $defs };
}

/** One differential case: a schema (diff grammar) and a few object instances near it. */
export function genDiffCase(rng) {
  let s = genSchema(rng, { diff: true, depth: rng.int(1, 4) });
  if (typeof s === "boolean") s = { allOf: [s] }; // tg.tool's parameters is an object
  if (rng.chance(0.01)) s = deepened(s, rng.int(25, 40));
  const schema = keepingKeys(s);
  const instances = rng.times(rng.int(3, 8), () => JSON.parse(JSON.stringify(argumentsFor(rng, schema))));
  return { schema, instances };
}

/** Every value of v (keys included, as strings) for which pred holds. */
function some(v, pred) {
  if (pred(v)) return true;
  if (v === null || typeof v !== "object") return false;
  return Object.keys(v).some((k) => pred(k) || some(v[k], pred));
}

const hasKey = (schema, key, test = () => true) => some(schema, (x) => x !== null && typeof x === "object" && !Array.isArray(x) && key in x && test(x[key]));
const patternsOf = (schema) => {
  const out = [];
  some(schema, (x) => {
    if (x && typeof x === "object" && !Array.isArray(x)) {
      if (typeof x.pattern === "string") out.push(x.pattern);
      if (x.patternProperties && typeof x.patternProperties === "object") out.push(...Object.keys(x.patternProperties));
    }
    return false;
  });
  return out;
};
/** Characters RE2 and ECMAScript classify differently (\s, ., $ and line terminators). */
const DIALECT_CHARS = /[\r\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\u000b]/;

/** A number's exact decimal value as [numerator, denominator] BigInts, from its shortest JSON text. */
function fraction(x) {
  const [, sign, int, frac = "", exp = "0"] = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(JSON.stringify(x));
  const e = Number(exp) - frac.length;
  const n = BigInt(sign + int + frac);
  return e >= 0 ? [n * 10n ** BigInt(e), 1n] : [n, 10n ** BigInt(-e)];
}

/** Whether x is a multiple of m exactly (toolgate) and as Ajv computes it in float64 (div === parseInt(div)). */
function multipleVerdicts(x, m) {
  const [xn, xd] = fraction(x);
  const [mn, md] = fraction(m);
  const div = x / m;
  return { exact: (xn * md) % (mn * xd) === 0n, float: div === parseInt(div) };
}

const numbersOf = (v) => {
  const out = [];
  some(v, (x) => typeof x === "number" && out.push(x) && false);
  return out;
};

/** Why a disagreement on an instance is expected ("Ajv: …" when Ajv computes it wrong), or null. */
function expectedDifference(schema, instance) {
  const ms = [];
  hasKey(schema, "multipleOf", (m) => typeof m === "number" && m > 0 && ms.push(m) && false);
  const xs = numbersOf(instance);
  const pairs = ms.flatMap((m) => xs.map((x) => [x, m])).filter(([x, m]) => { const v = multipleVerdicts(x, m); return v.exact !== v.float; });
  if (pairs.some(([x, m]) => Math.abs(x / m) < 1e21)) return "numbers beyond float64 (multipleOf: toolgate divides exact decimals, Ajv rounds the float64 quotient)";
  if (pairs.length) return "Ajv: multipleOf with a quotient of 1e21 or more is parseInt of its exponent form (parseInt(-4e300) is -4)";
  return null;
}

/** Why toolgate and Ajv disagree on compiling schema, expectedly, or null. */
function expectedCompileDifference(schema, tgError, ajvError) {
  const kws = (tgError?.issues ?? []).map((i) => i.keyword);
  if (kws.some((k) => SCHEMA_LIMITS.includes(k))) return "toolgate's limits (the schema bounds of core/limits.go)";
  const pats = patternsOf(schema);
  if (tgError && pats.some((p) => ECMA_PATTERNS.includes(p))) return "ECMAScript-only regex syntax (toolgate is RE2)";
  if (ajvError && pats.some((p) => RE2_PATTERNS.includes(p))) return "RE2-only regex syntax (Ajv is ECMAScript)";
  if (ajvError && hasKey(schema, "enum", (e) => Array.isArray(e) && e.length === 0)) return "Ajv refuses an empty enum (toolgate refuses every value)";
  if (ajvError instanceof RangeError && refLoop(schema)) return "a $ref loop: Ajv overflows the stack compiling it";
  if (tgError && /infinite loop/.test(tgError.message) && refLoop(schema)) return "a $ref loop: toolgate refuses it, Ajv compiles it (and would recurse for ever on some instance)";
  return null;
}

/** Property names Ajv mishandles, and stand-ins of the same character classes for the rename check. */
const ODD_KEYS = [["__proto__", "__ptoto__"], ["", "\u0000"], ["toString", "toStrinX"], ["constructor", "constructoq"]];

/** A schema (or an instance: keys only) with every odd property name renamed to its stand-in. */
const withoutOddKeys = (v, schema) => ODD_KEYS.reduce((x, [key, stand]) => renamed(x, key, stand, { schema }), v);
const hasOddKey = (v) => ODD_KEYS.some(([key]) => JSON.stringify(v).includes(JSON.stringify(key)));

/** toolgate's and Ajv's verdicts on one instance (or on the schema alone, `compiles`), compiling afresh. */
function verdicts(api, schema, instance) {
  let tool;
  let ajvOk;
  try {
    tool = api.tool({ name: "d", parameters: schema, handler: () => null, coerce: "none" });
  } catch {
    tool = null;
  }
  const { validate } = ajvCompile(schema);
  if (instance === undefined || !tool || !validate) return { compiles: { tg: !!tool, ajv: !!validate } };
  try {
    ajvOk = validate(instance);
  } catch {
    return null;
  }
  return { tg: api.branch({ tools: [tool] }).validate({ function: "d", arguments: instance }).ok, ajv: ajvOk };
}

/**
 * Whether a disagreement is Ajv mishandling a property name ("__proto__", "", "toString",
 * "constructor": Ajv reads some through the prototype, or keys objects by them): when
 * renaming them makes Ajv say what toolgate said, and toolgate keeps its verdict.
 */
function ajvKeyBug(api, schema, instance, tgSays) {
  if (!hasOddKey([schema, instance])) return null;
  const renamedSchema = withoutOddKeys(schema, true);
  const v = verdicts(api, renamedSchema, instance === undefined ? undefined : withoutOddKeys(instance, false));
  // Renamed, Ajv reads the subschema it skipped, and refuses the RE2-only syntax it holds.
  if (instance !== undefined && v?.compiles?.tg && !v.compiles.ajv && patternsOf(renamedSchema).some((p) => RE2_PATTERNS.includes(p))) return AJV_KEYS;
  const after = instance === undefined ? v?.compiles : v;
  if (!after || after.tg !== tgSays || after.ajv !== tgSays) return null;
  return AJV_KEYS;
}
const AJV_KEYS = 'Ajv mishandles the property names "__proto__", "", "toString" or "constructor": renamed, Ajv agrees and toolgate keeps its verdict';

/** v with the characters RE2 and ECMAScript classify differently replaced by "x" (in keys too). */
function withoutDialectChars(v) {
  if (typeof v === "string") return v.replace(new RegExp(DIALECT_CHARS.source, "g"), "x");
  if (Array.isArray(v)) return v.map(withoutDialectChars);
  if (v === null || typeof v !== "object") return v;
  const out = {};
  for (const k of Object.keys(v)) put(out, withoutDialectChars(k), withoutDialectChars(v[k]));
  return out;
}

/**
 * Whether a disagreement is the regex dialect's: with those characters replaced by "x" (which
 * RE2 classifies as it does them: not \s, matched by .), toolgate keeps its verdict and Ajv agrees.
 */
function dialectExplains(api, schema, instance, tgOk) {
  if (!patternsOf(schema).length || !some(instance, (x) => typeof x === "string" && DIALECT_CHARS.test(x))) return false;
  const v = verdicts(api, schema, withoutDialectChars(instance));
  return v !== null && v.tg === tgOk && v.ajv === tgOk;
}

/** schema without its "format" keywords. */
function withoutFormat(v) {
  if (Array.isArray(v)) return v.map(withoutFormat);
  if (v === null || typeof v !== "object") return v;
  const out = {};
  for (const k of Object.keys(v)) if (k !== "format" || typeof v[k] !== "string") put(out, k, withoutFormat(v[k]));
  return out;
}

/** Whether a disagreement is format's: with every "format" removed, the two agree. */
function formatExplains(api, schema, instance) {
  if (!hasKey(schema, "format")) return false;
  const v = verdicts(api, withoutFormat(schema), instance);
  return v !== null && v.tg === v.ajv;
}

/** The nodes of schema (objects), for the patterns below. */
const nodesOf = (schema) => subschemas(schema).map(([, n]) => n).filter((n) => n !== null && typeof n === "object");

/**
 * Ajv mistakes seen by this differential, by the shape that triggers them (each confirmed by hand
 * on a minimal case, fuzz/known.mjs): the tag names the suspect, "" when none fits.
 */
function ajvSuspect(schema, tgOk, ajvOk) {
  const nodes = nodesOf(schema);
  const has = (...ks) => nodes.some((n) => ks.every((k) => k in n));
  const containsBug = (n) => "contains" in n && Array.isArray(n.prefixItems) && n.prefixItems.some((p) => p !== true && !(p && typeof p === "object" && Object.keys(p).length === 0));
  if (nodes.some(containsBug)) return " [Ajv: contains is skipped for an array shorter than a non-trivial prefixItems]";
  if (tgOk && !ajvOk && has("unevaluatedProperties", "dependentSchemas")) return " [Ajv: unevaluatedProperties beside dependentSchemas]";
  if (has("unevaluatedItems", "contains")) return " [Ajv: unevaluatedItems beside contains]";
  if (!tgOk && ajvOk && nodes.some((n) => n.uniqueItems === true && "prefixItems" in n && typeof n.items?.type !== "undefined")) return " [Ajv: uniqueItems compares as items' type, prefixItems' items too]";
  return "";
}

/** BigInts as numbers, to compare validate's arguments with the instance sent. */
const unbig = (v) => JSON.parse(JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x)));

/** validate's error when it is not a verdict on the arguments: a finding's category, or null. */
function validateFault(schema, error) {
  if (error.code === "invalid-arguments") return null;
  if (error.code === "invalid-schema" && /loops while validating/.test(error.message) && refLoop(schema)) return "tg.tool accepted a schema with a $ref loop; validate then refuses it (invalid-schema, loops while validating)";
  return `validate ${error.code}: ${error.message.slice(0, 60)}`;
}

/** Checks one instance against both validators; records the outcome in tally. */
function checkInstance(tally, b, validate, c, instance) {
  const v = b.validate({ function: "d", arguments: instance });
  const fault = !v.ok && validateFault(c.schema, v.error);
  if (fault) return tally.finding(fault, c, instance);
  let ajvOk;
  try {
    ajvOk = validate(instance);
  } catch (e) {
    return tally.ajvBug(`Ajv threw ${e.constructor.name} validating (${String(e.message).slice(0, 40)})`);
  }
  if (v.ok && !isDeepStrictEqual(unbig(v.arguments), instance)) return tally.finding("validate ok but changed the arguments (coerce none, every key kept)", c, instance);
  if ((v.error?.issues ?? []).some((i) => ["maxDepth", "maxExponent", "maxRefDepth", "maxRefExpansion"].includes(i.keyword))) return tally.skip("toolgate's limits (depth 64, exponents, the validator's walk)");
  if (v.ok === ajvOk) return tally.agree(ajvOk ? "both valid" : "both invalid");
  const why = expectedDifference(c.schema, instance);
  if (why) return why.startsWith("Ajv:") ? tally.ajvBug(why) : tally.skip(why);
  const bug = ajvKeyBug(b.api, c.schema, instance, v.ok);
  if (bug) return tally.ajvBug(bug);
  if (dialectExplains(b.api, c.schema, instance, v.ok)) return tally.skip("regex dialect (RE2's \\s and . vs ECMAScript's, on line terminators and Unicode spaces): with those replaced, both agree");
  if (formatExplains(b.api, c.schema, instance)) return tally.skip("format (toolgate never asserts it): without it, both agree");
  const kw = v.ok ? `Ajv ${validate.errors?.[0]?.keyword}` : `toolgate ${[...new Set(v.error.issues?.map((i) => i.keyword))].join(",")}`;
  tally.finding(`toolgate ${v.ok ? "valid" : "invalid"}, Ajv ${ajvOk ? "valid" : "invalid"} (${kw})${ajvSuspect(c.schema, v.ok, ajvOk)}`, c, instance);
}

/** One compiles the schema, the other refuses it: skipped, Ajv's mistake, or a finding. */
function compileDisagreement(api, c, tgError, ajvError, tally) {
  const why = expectedCompileDifference(c.schema, tgError, ajvError);
  if (why) return tally.skip(why);
  const bug = ajvKeyBug(api, c.schema, undefined, !tgError);
  if (bug) return tally.ajvBug(bug);
  if (tgError) return tally.finding(`toolgate refuses a schema Ajv compiles (${tgError.issues?.[0]?.keyword ?? tgError.message.slice(0, 50)})`, c);
  tally.finding(`Ajv refuses a schema toolgate compiles (${String(ajvError.message).slice(0, 50)})`, c);
}

/** The compile verdicts: both compile (then each instance is compared), both refuse, or not. */
export function runDiffCase(api, c, tally) {
  let tool;
  let tgError;
  try {
    tool = api.tool({ name: "d", parameters: c.schema, handler: () => null, coerce: "none" });
  } catch (e) {
    tgError = e;
  }
  const { validate, error: ajvError } = ajvCompile(c.schema);
  if (tgError && tgError.code !== "invalid-schema") return tally.finding(`tg.tool ${tgError.code ?? tgError.constructor.name}`, c);
  if (tgError && ajvError) return tally.agree("both refuse the schema");
  if (tgError || ajvError) return compileDisagreement(api, c, tgError, ajvError, tally);
  const b = api.branch({ tools: [tool] });
  b.api = api;
  for (const instance of c.instances ?? []) checkInstance(tally, b, validate, c, instance);
}

/** Counts of a differential run: agreements, skips per reason, findings per category (with a first example). */
export class DiffTally {
  agreements = new Map();
  skips = new Map();
  ajvBugs = new Map(); // disagreements a check shows to be Ajv's mistake
  findings = new Map(); // category → {count, c, instance}
  agree(what) {
    this.agreements.set(what, (this.agreements.get(what) ?? 0) + 1);
  }
  skip(reason) {
    this.skips.set(reason, (this.skips.get(reason) ?? 0) + 1);
  }
  ajvBug(reason) {
    this.ajvBugs.set(reason, (this.ajvBugs.get(reason) ?? 0) + 1);
  }
  finding(category, c, instance) {
    const f = this.findings.get(category) ?? { count: 0, c, instance };
    f.count++;
    this.findings.set(category, f);
  }
}
