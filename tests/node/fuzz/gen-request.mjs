// Requests in every shape the contract lists ({function, arguments}, OpenAI Chat and Responses,
// Anthropic tool_use, Gemini functionCall, JSON text of each), broken ones (malformed text,
// missing members, wrong types), with arguments near the tool's schema and hostile JS values.
import { tag, obj, toText } from "./tagged.mjs";
import { KEYS } from "./gen-schema.mjs";
import { genJSON, argumentsFor, sprinkle, hostile } from "./gen-values.mjs";

/** Arguments for the target tool: from its schema, or its parameter names, then sprinkled. */
function genArgs(rng, target) {
  let base;
  if (target.schema && typeof target.schema === "object" && rng.chance(0.8)) base = argumentsFor(rng, target.schema);
  else base = obj(target.names.filter(() => rng.chance(0.95)).map((n) => [n, rng.chance(0.3) ? rng.pick(["5", "true", "2.5", 5, 1.0]) : genJSON(rng, 1)]));
  if (rng.chance(0.15)) base = obj([...Object.entries(base), [rng.pick(KEYS), genJSON(rng, 1)]]);
  return sprinkle(rng, base, rng.pick([0, 0, 0, 0, 0.05, 0.2]));
}

/** The function name of a request: the tool's, a reference to it, or something else. */
function genName(rng, target) {
  return rng.weighted([
    [40, target.name || "f"],
    [1, tag("tool")],
    [1, tag("toolfn")],
    [0.5, tag("othertool")],
    [1, () => rng.pick(["missing_tool", "", (target.name || "f").toUpperCase(), ` ${target.name}`])],
    [1, () => rng.pick([5, null, tag("undefined"), ["f"], { name: "f" }, tag("bigint", { v: "1" })])],
  ]);
}

/** One well-formed envelope of a provider shape. */
function envelope(rng, name, args) {
  const asText = () => (rng.chance(0.85) ? tag("text", { v: args }) : args);
  const maybeText = () => (rng.chance(0.25) ? tag("text", { v: args }) : args);
  return rng.weighted([
    [6, () => obj([["function", name], ["arguments", maybeText()]])],
    [1, () => ({ action_request: obj([["function", name], ["arguments", maybeText()]]) })],
    [3, () => ({ id: "call_1", type: rng.chance(0.95) ? "function" : "custom", function: obj([["name", name], ["arguments", asText()]]) })],
    [2, () => obj([["type", "function_call"], ["call_id", "fc_1"], ["name", name], ["arguments", asText()]])],
    [2, () => obj([["type", "tool_use"], ["id", "toolu_1"], ["name", name], ["input", maybeText()]])],
    [2, () => ({ functionCall: obj([["name", name], ...(rng.chance(0.9) ? [["args", args]] : []), ...(rng.chance(0.3) ? [["id", "g1"]] : [])]) })],
    [1, () => obj([["name", name], ["args", args]])],
  ]);
}

/** Text with a defect: cut short, a stray character, trailing data, a string of a string. */
function malformed(rng, text) {
  const at = rng.int(0, text.length);
  return rng.weighted([
    [3, () => text.slice(0, at)],
    [2, () => text.slice(0, at) + rng.pick(["{", "}", "]", ",", ":", '"', "\\", "x", "\u0000"]) + text.slice(at)],
    [2, () => text + rng.pick([" x", "{}", "\n1", ","])],
    [1, () => JSON.stringify(JSON.stringify(text))],
    [1, () => rng.pick(["", " ", "null", "[]", "5", '"{}"', "{", "{}", '{"function": "f"}', "\ufeff{}"])],
  ]);
}

/** An envelope with a member removed or replaced. */
function damaged(rng, req) {
  const keys = Object.keys(req);
  if (!keys.length) return req;
  const victim = rng.pick(keys);
  const pairs = Object.entries(req).filter(([k]) => k !== victim);
  if (rng.chance(0.5)) pairs.push([victim, rng.chance(0.5) ? hostile(rng) : rng.pick([null, 5, "x", [], {}])]);
  return obj(pairs);
}

/** A value of a kind no request has. */
function wrongType(rng) {
  return rng.pick([5, null, [], true, "", "null", tag("undefined"), tag("bigint", { v: "5" }), tag("fn", { src: "function f() {}" }), tag("symbol"), tag("map", { e: [] }), tag("date", { v: 0 }), tag("cycle"), tag("deep", { n: 20000, kind: "object" })]);
}

/** One request for target {name, names, schema}: mostly well-formed, sometimes not. */
export function genRequest(rng, target) {
  const req = envelope(rng, genName(rng, target), genArgs(rng, target));
  return rng.weighted([
    [30, req],
    [5, () => tag("text", { v: req })],
    [1, () => damaged(rng, req)],
    [1, () => malformed(rng, toText(req))],
    [0.7, () => wrongType(rng)],
  ]);
}
