// Behaviours (what a handler, preprocessor or postprocessor does) and tg.tool options, valid and
// not: every option with good and bad values, unknown keys, and provider schemas.
import { tag, obj } from "./tagged.mjs";
import { genSchema } from "./gen-schema.mjs";
import { genJSON, hostile } from "./gen-values.mjs";

const THROWN = ["Error", "TypeError", "RangeError", "ToolgateError", "ToolgateErrorInternal", "ToolgateErrorBogus", "nullproto", "object", "revoked", "badgetter", "string", "number", "bigint", "symbol", "null", "undefined"];

/** What one handler (or processor) does when called; `role` "pre" mostly hands the arguments on. */
export function genBehaviour(rng, role = "handler", d = 2) {
  const then = () => (d > 0 ? genBehaviour(rng, role, d - 1) : { k: "echo" });
  return rng.weighted([
    [role === "handler" ? 5 : 12, { k: "echo" }],
    [4, () => ({ k: "return", v: rng.chance(0.6) ? genJSON(rng, 2) : hostile(rng) })],
    [3, () => ({ k: "throw", e: rng.pick(THROWN) })],
    [0.7, { k: "hang" }],
    [1.5, () => ({ k: "delay", ms: rng.int(0, 12), then: then() })],
    [1.5, () => ({ k: "async", then: then() })],
    [0.7, () => ({ k: "thenable", kind: rng.pick(["resolves", "rejects", "throws", "never"]) })],
    [0.7, () => ({ k: "mutate", key: rng.pick(["a", "__proto__", "extra"]), v: hostile(rng) })],
    [role === "handler" ? 0.5 : 0, { k: "echoAll" }],
  ]);
}

/** An OpenAI-style provider schema for the `schema` option, or something that is not one. */
export function providerSchema(rng) {
  return rng.weighted([
    [8, () => ({ type: "function", function: { name: rng.pick(["given", "x"]), description: "d", parameters: genSchema(rng, { depth: 2, object: true }) } })],
    [0.5, () => ({ type: "function", function: { name: "" } })],
    [1, () => ({ type: "function", function: { name: "nop" } })],
    [1, () => ({ function: { name: 5 } })],
    [1, () => rng.pick(["schema", 5, [], null])],
    [1, () => ({ type: "function", function: tag("cycle") })],
  ]);
}

/** A `timeoutMs`: a short valid one, 0, or a bad one. */
function timeoutValue(rng) {
  return rng.weighted([
    [6, () => rng.pick([1, 3, 8, 20])],
    [3, () => rng.pick([0, -1, 1.5, "5", null, 2 ** 31, 1e12, tag("num", { v: "NaN" }), tag("num", { v: "Infinity" }), tag("bigint", { v: "5" }), true])],
  ]);
}

/** Each option's good values and bad ones (a wrong type, an unknown mode, a value Go refuses). */
const OPTION_VALUES = {
  name: [(rng) => rng.pick(["renamed", "ünï", "x".repeat(100)]), (rng) => rng.pick(["", 5, null, "a b"])],
  description: [(rng) => rng.pick(["A description.", ""]), (rng) => rng.pick([5, null, ["x"]])],
  parameterDescriptions: [(rng) => rng.pick([{ a: "the a" }, {}, obj([["__proto__", "p"]])]), (rng) => rng.pick(["x", { a: 5 }, null])],
  parameters: [(rng) => genSchema(rng, { depth: 3, object: true }), (rng) => rng.pick(["x", 5, [], null, tag("cycle"), tag("deep", { n: 70, kind: "object" })])],
  schema: [(rng) => providerSchema(rng), (rng) => rng.pick(["schema", 5, []])],
  strict: [(rng) => rng.pick([true, false]), (rng) => rng.pick(["yes", 1, null])],
  strictFuncCall: [(rng) => rng.pick([true, false]), () => 1],
  schemaMode: [(rng) => rng.pick(["lionagi", "accurate"]), (rng) => rng.pick(["banana", 1, null])],
  docstringStyle: [(rng) => rng.pick(["google", "rest"]), (rng) => rng.pick(["numpy", null, 5])],
  coerce: [(rng) => rng.pick(["lax", "none"]), (rng) => rng.pick(["strict", null, true])],
  timeoutMs: [(rng) => rng.pick([1, 3, 8, 20, 0]), (rng) => rng.pick([-1, 1.5, "5", null, 2 ** 31, 1e12, tag("num", { v: "NaN" }), tag("num", { v: "Infinity" }), tag("bigint", { v: "5" }), true])],
  metadata: [(rng) => rng.pick([{ k: 1 }, obj([["k", hostile(rng)]]), { lion_class: "x" }, { $bigint: "5" }, {}]), (rng) => rng.pick(["x", null, [], tag("cycle")])],
  preprocessor: [(rng) => tag("handler", { b: genBehaviour(rng, "pre") }), (rng) => rng.pick(["notfn", 5, null])],
  preprocessorKwargs: [(rng) => rng.pick([{ k: 1 }, {}, obj([["k", hostile(rng)]])]), () => 5],
  postprocessor: [(rng) => tag("handler", { b: genBehaviour(rng, "post") }), (rng) => rng.pick(["notfn", 5])],
  postprocessorKwargs: [(rng) => rng.pick([{ k: 1 }, {}]), () => 5],
};
const UNKNOWN_KEYS = ["nmae", "handler", "__proto__", "constructor", "toString", "Name", "timeout", "request_options"];

/** The [key, value] pairs of a tool's options: a few options, now and then an unknown key. */
export function optionPairs(rng, { typed = false } = {}) {
  const pairs = [];
  for (const [k, gen] of Object.entries(OPTION_VALUES)) {
    if (typed && k === "name") continue;
    if (rng.chance(k === "timeoutMs" || k === "coerce" ? 0.2 : 0.1)) pairs.push([k, rng.chance(0.85) ? gen[0](rng) : gen[1](rng)]);
  }
  if (rng.chance(0.02)) pairs.push([rng.pick(UNKNOWN_KEYS), rng.pick([1, "x", null])]);
  return pairs;
}

/** Whether a timeoutMs value surely ends a pending call (positive, finite, small). */
export function reliableTimeout(v) {
  return typeof v === "number" && Number.isFinite(v) && v > 0 && v <= 1000;
}
