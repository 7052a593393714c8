// tg.buildPlans: typed tools compiled through Go into plans, the data toolgate/plan validates
// calls from without WebAssembly (plans.js). Refuses, naming the tool and why, every tool a plan
// cannot hold. Node and browser.
import { ToolgateError, describe } from "./errors.js";
import { Tool, tool } from "./tool.js";
import { PLAN_FORMAT, PLAN_VERSION } from "./plans.js";
import { VERSION } from "./version.js";

/** A handler for a definition given without one: plans never run a tool. */
const noHandler = () => {
  throw new ToolgateError("internal", "a tool built for plans has no handler");
};

/** A build-time refusal: unsupported, naming the tool, one issue with the rule (`keyword`). */
function refusal(name, keyword, why) {
  const message = `tg.buildPlans: ${name === undefined ? "a tool" : `the tool ${name}`} cannot be planned: ${why}`;
  return new ToolgateError("unsupported", message, { tool: name, issues: [{ path: "", keyword, message: why }] });
}

/** The Tool of one definition: a typed Tool as given, or one built from {name, parameters, …}. */
function typedTool(ctx, def) {
  if (typeof def === "function") {
    throw refusal(def.name || undefined, "planRawFunction", "a raw function's parameters come from its source text at run time; give it as {name, parameters} (the typed path)");
  }
  if (def instanceof Tool) {
    if (def._spec.kind === "typed") return def;
    if (def._spec.kind === "function") throw refusal(def.function, "planRawFunction", "it was built from a raw function; build it as {name, parameters, handler} (the typed path)");
    throw refusal(def.function, "planMcpTool", "an MCP tool's schema is its server's, discovered at run time");
  }
  if (def === null || typeof def !== "object" || Array.isArray(def)) {
    throw new ToolgateError("unsupported-type", `tg.buildPlans: each tool must be {name, parameters, …} or a typed Tool, got ${describe(def)}`);
  }
  return tool(ctx, def.handler === undefined ? { ...def, handler: noHandler } : def);
}

/** Why a typed tool has no program, as far as JS can tell (Go exports none and says no more). */
function whyNoProgram(t) {
  const text = JSON.stringify(t.toolSchema);
  if (t.strictFuncCall) return "strictFuncCall's key check is not modelled by the JS evaluator; validate its calls with a live branch";
  if (/"pattern(Properties)?"\s*:/.test(text)) return "its schema uses a regular expression (pattern or patternProperties), which only the Go validator checks; validate its calls with a live branch";
  return "Go exported no program the JS evaluator runs for it (its schema uses something outside the fast path, such as a format or a number a double cannot hold, or its options ask for what this build's evaluator does not do); validate its calls with a live branch";
}

/**
 * Compiles typed tools (`{name, parameters, description?, coerce?, …}`, the options tg.tool takes,
 * handler optional; or Tools made by tg.tool's typed path) into a plans document: JSON data that
 * toolgate/plan's loadPlans validates calls from with the same results as a live branch. Refuses
 * with unsupported, naming the tool, a raw function (keyword planRawFunction), an MCP tool
 * (planMcpTool) and a tool whose schema the JS evaluator does not model (planNotModelled); a name
 * given twice is duplicate-tool. Node and browser.
 * @example const plans = tg.buildPlans([{ name: "add", parameters: { type: "object", properties: { a: { type: "number" } } } }])
 */
export function buildPlans(ctx, tools) {
  if (!Array.isArray(tools)) throw new ToolgateError("unsupported-type", `tg.buildPlans: tools must be an array, got ${describe(tools)}`);
  const out = [];
  const seen = new Set();
  for (const def of tools) {
    const t = typedTool(ctx, def);
    const name = t.function;
    if (seen.has(name)) throw new ToolgateError("duplicate-tool", `tg.buildPlans: the tool ${name} is given twice`, { tool: name });
    seen.add(name);
    const program = t._program;
    if (!program) throw refusal(name, "planNotModelled", whyNoProgram(t));
    out.push({ name, toolSchema: t.toolSchema, program });
  }
  return { format: PLAN_FORMAT, version: PLAN_VERSION, toolgate: VERSION, tools: out };
}
