// toolgate/ai-sdk: a branch as an AI SDK (package "ai") ToolSet, without importing the AI SDK.
// Validation is toolgate's (the schema's validate runs branch.validate), execution is
// branch.invoke. Node and browser.
import { ToolgateError, checkOptions } from "../errors.js";
import { addRevealed, checkBranch, checkTarget, exportedTools, jsonSafe } from "./common.js";
import { STATUS } from "../contract.js";

/** The mark the AI SDK's jsonSchema() puts on a Schema (Symbol.for, so any copy of "ai" reads it). */
const SCHEMA = Symbol.for("vercel.ai.schema");

/** The AI SDK's Schema of one tool: its JSON Schema, validated by the branch under `name`. */
function inputSchema(b, name, parameters) {
  return {
    [SCHEMA]: true,
    _type: undefined,
    jsonSchema: parameters,
    validate(value) {
      const r = b.validate({ function: name, arguments: value });
      if (!r.ok) return { success: false, error: r.error };
      // What the AI SDK keeps must survive its JSON.stringify: BigInts only come from a number
      // it already parsed inexactly, so its own value is kept then.
      return { success: true, value: jsonSafe(r.arguments) === r.arguments ? r.arguments : value };
    },
  };
}

/**
 * Runs one call through branch.invoke: the response (made JSON-safe: a response holding a BigInt
 * becomes its exact JSON text); a failed call throws the handler's error and a cancelled one the
 * signal's reason or toolgate's timeout error, which the AI SDK hands the model as a tool error.
 */
async function execute(b, name, input, options) {
  const request = { function: name, arguments: input ?? {} };
  if (typeof options?.toolCallId === "string") request.id = options.toolCallId;
  const fc = await b.invoke(request, { signal: options?.abortSignal, context: options?.context }); // the AI SDK's per-tool context
  if (fc.status === STATUS.completed) return jsonSafe(fc.toModelOutput());
  if (fc.error !== undefined && fc.error !== null) throw fc.error;
  throw new ToolgateError(fc.status === STATUS.cancelled ? "timeout" : "internal", `tool ${JSON.stringify(name)} ${fc.status === STATUS.cancelled ? "was cancelled" : "failed"}`, { tool: name });
}

/**
 * A branch's tools as an AI SDK ToolSet: {[name]: {description, inputSchema, strict?, execute}}.
 * `target` picks whose name rules and schema form the export follows (default openai-chat);
 * `strict` asks for OpenAI strict mode where the schema allows it. Node and browser.
 * @example const { text } = await generateText({ model, tools: toolSet(b), stopWhen: stepCountIs(5), prompt })
 */
export function toolSet(branch, opts) {
  const b = checkBranch(branch, "toolSet");
  const { target = "openai-chat", strict = false } = checkOptions(opts, ["target", "strict"], "toolSet");
  checkTarget(target, "toolSet");
  const set = {};
  const add = (t) => {
    const tool = {
      type: "function",
      inputSchema: inputSchema(b, t.name, t.parameters),
      execute: async (input, options) => {
        const out = await execute(b, t.name, input, options);
        addRevealed(b, t.name, target, !!strict, (name) => Object.hasOwn(set, name), add); // deferred tools a search found join the set
        return out;
      },
    };
    if (t.description !== undefined) tool.description = t.description;
    if (strict) tool.strict = t.strict;
    set[t.name] = tool;
  };
  for (const t of exportedTools(b, target, !!strict)) add(t);
  return set;
}
