// One fuzz case: a build, a tool (typed, raw, or not a tool at all), a branch, and a few
// operations on it. A case is pure JSON in the tagged language: seed files hold it as it is.
import { tag, obj } from "./tagged.mjs";
import { genSchema } from "./gen-schema.mjs";
import { genJSON, hostile } from "./gen-values.mjs";
import { genFunction } from "./gen-function.mjs";
import { genBehaviour, optionPairs, providerSchema, reliableTimeout } from "./gen-options.mjs";
import { genRequest } from "./gen-request.mjs";
import { canHang } from "./runtime.mjs";

const TOOL_NAMES = ["t", "search", "get_weather", "Tool-1", "ünï", "a.b", "x".repeat(80)];

/** The typed path: {name, parameters, handler, …options}; now and then without a good name or handler. */
function typedTool(rng) {
  const name = rng.weighted([[40, () => rng.pick(TOOL_NAMES)], [1, () => rng.pick(["", 5, null])]]);
  const parameters = rng.weighted([
    [12, () => genSchema(rng, { depth: rng.int(1, 4), object: rng.chance(0.8) })],
    [1, () => tag(rng.pick(["stdschema", "tojsonschema"]), { json: genSchema(rng, { depth: 2, object: true }), mode: rng.pick(["ok", "ok", "throws", "noexport"]) })],
    [1, () => rng.pick([tag("undefined"), null, "x", 5, [], tag("cycle"), tag("deep", { n: 70, kind: "object" }), true])],
  ]);
  const handler = rng.weighted([[60, () => tag("handler", { b: genBehaviour(rng) })], [1, () => rng.pick([5, "h", null])]]);
  const pairs = [["name", name], ["parameters", parameters], ["handler", handler], ...optionPairs(rng, { typed: true })];
  const spec = obj(pairs.filter(([k, v]) => !(k === "handler" && rng.chance(0.01)) && v !== undefined));
  return { tool: { path: "typed", spec, ...(rng.chance(0.01) ? { extra: { name: "x" } } : {}) }, name, parameters, behaviour: handler?.b };
}

/** The raw path: a function from source text, with options or none. */
function rawTool(rng) {
  const behaviour = genBehaviour(rng);
  const f = genFunction(rng, behaviour);
  const pairs = rng.chance(0.6) ? optionPairs(rng) : null;
  const tool = { path: "raw", fn: f.fn, ...(pairs ? { options: obj(pairs) } : {}) };
  return { tool, name: f.name, names: f.names, behaviour, options: pairs ? Object.fromEntries(pairs) : {} };
}

/** Something that is neither a function nor a typed spec. */
function junkTool(rng) {
  const value = rng.pick([5, null, "str", [], tag("undefined"), tag("symbol"), tag("bigint", { v: "1" }), {}, { name: "x" }, { handler: tag("handler", { b: { k: "echo" } }) }, tag("map", { e: [] })]);
  return { tool: { path: "junk", value }, name: "x", names: [] };
}

/** What the request generator needs to aim at the tool: its name, argument names, schema. */
function targetOf(t) {
  const o = t.options ?? Object.fromEntries(Object.entries(t.tool.spec ?? {}));
  const given = o.schema?.function?.name; // a whole provider schema names the tool
  const name = typeof o.name === "string" && o.name ? o.name : typeof given === "string" && given ? given : typeof t.name === "string" ? t.name : "x";
  const schema = [o.parameters, t.parameters].find((s) => s && typeof s === "object" && !s.$fz);
  const names = t.names ?? (schema && typeof schema.properties === "object" ? Object.keys(schema.properties) : []);
  return { name, names, schema };
}

/** Whether a run of the tool may never settle by itself, and whether its timeout surely ends it. */
function hangInfo(t) {
  const o = t.tool.path === "typed" ? t.tool.spec : t.options ?? {};
  const behaviours = [t.behaviour, o.preprocessor?.b, o.postprocessor?.b];
  return { mayHang: behaviours.some(canHang), ends: reliableTimeout(o.timeoutMs) };
}

/** invoke's options: none, a signal (aborted, later, never, not a signal), or bad options. */
function invokeOptions(rng, hang) {
  if (hang.mayHang && !hang.ends) return { signal: tag("signal", rng.chance(0.8) ? { kind: "later", ms: rng.int(1, 5) } : { kind: "aborted" }) };
  return rng.weighted([
    [8, undefined],
    [1, () => ({ signal: tag("signal", { kind: "aborted", ...(rng.chance(0.3) ? { reason: "none" } : {}) }) })],
    [1, () => ({ signal: tag("signal", { kind: "later", ms: rng.int(0, 5) }) })],
    [0.5, () => ({ signal: tag("signal", { kind: "never" }) })],
    [1, () => ({ signal: tag("fakesignal", { kind: rng.pick(["plain", "eventtarget", "aborted-only", "duck"]) }) })],
    [0.5, () => rng.pick([{ signal: null }, { bogus: 1 }, "str", [], { signal: "s" }])],
  ]);
}

/** What register, has and getToolSchema are handed. */
function registrable(rng, target) {
  return rng.pick([tag("tool"), tag("toolfn"), tag("othertool"), target.name, "unregistered", 5, null, tag("undefined"), [tag("tool"), tag("tool")], [],
    { srv: { url: "https://mcp.example.invalid/mcp" } }, { srv: { command: "ls" } }, { srv: { url: 5 } }, { srv: tag("cycle") }, { a: { url: "x" }, b: { url: "y" } },
    tag("symbol"), tag("fn", { src: "function other(z) { return z; }" }), tag("fn", { src: "() => 1" }), true, tag("map", { e: [] })]);
}

/** One operation of the case. */
function genOp(rng, target, hang) {
  return rng.weighted([
    [10, () => ({ op: "check", request: genRequest(rng, target) })],
    [8, () => ({ op: "invoke", request: genRequest(rng, target), opts: invokeOptions(rng, hang) })],
    [1, () => ({ op: "register", value: registrable(rng, target), opts: rng.pick([undefined, { update: true }, { update: "yes" }, { bogus: 1 }, "x"]) })],
    [1, () => ({ op: "has", value: registrable(rng, target) })],
    [1, () => ({ op: "getToolSchema", value: rng.pick([true, false, target.name, tag("tool"), tag("toolfn"), [target.name], [], providerSchema(rng), null, 5, "nope", tag("undefined")]), opts: rng.pick([undefined, { autoRegister: false }, { update: true }, { bogus: 1 }]) })],
    [0.5, { op: "clone" }],
    [0.5, () => ({ op: "fromDict", which: rng.pick(["Tool", "FunctionCalling"]), value: rng.pick([{}, null, 5, { id: "x" }]) })],
    [0.5, () => ({ op: "revive", value: rng.pick([{ $bigint: "5" }, { $bigint: "x" }, { $bigint: 5 }, { $bigint: "5", k: 1 }, [{ $bigint: "-12345678901234567890" }], genJSON(rng, 2)]) })],
    [0.2, () => ({ op: "initialize", which: rng.pick(["full", "core"]), opts: rng.pick([undefined, { foo: 1 }, { wasmModule: "x" }, { wasmModule: tag("instance") }, null, "s", [], { wasmModule: null }]) })],
  ]);
}

/** tg.branch's options: the tool, or lists and values it must refuse. */
function branchOptions(rng) {
  return rng.weighted([
    [10, { tools: [tag("tool")] }],
    [1, undefined],
    [1, { tools: [tag("tool"), null, tag("undefined")] }],
    [0.5, { tools: tag("tool") }],
    [0.5, { tools: [tag("tool"), tag("tool")] }],
    [0.3, () => rng.pick([{ bogus: 1 }, "x", { tools: [5] }, { tools: [tag("othertool")] }, { tools: [hostile(rng)] }])],
  ]);
}

/** One whole case from rng. */
export function genCase(rng) {
  const t = rng.weighted([[6, () => typedTool(rng)], [5, () => rawTool(rng)], [0.3, () => junkTool(rng)]]);
  const target = targetOf(t);
  const hang = hangInfo(t);
  const tool = t.tool;
  if (rng.chance(0.05)) tool.dictMode = rng.pick(["python", "json", "db", "bogus", 5, null]);
  const branch = branchOptions(rng);
  const ops = rng.times(rng.int(1, 4), () => genOp(rng, target, hang));
  return { build: rng.pick(["full", "core"]), tool, ...(branch !== undefined ? { branch } : {}), ops };
}
