// toolgate/openai-agents: a branch's tools as OpenAI Agents JS (@openai/agents) function tools.
// The SDK's own tool() builds each one (the runner trusts only the approval policies it made), and
// toolgate's invoke, schema and strict flag replace its own: each call is validated and run through
// branch.invoke. Node and browser.
import { tool as sdkTool } from "@openai/agents";
import { ToolgateError, checkOptions, describe } from "../errors.js";
import { addRevealed, checkBranch, exportedTools, failureText, responseText } from "./common.js";
import { STATUS } from "../contract.js";

/**
 * The parameters as the SDK's JsonObjectSchema types them: an object schema without `required`
 * or `additionalProperties` gets their JSON Schema defaults written out ([] and true), which
 * changes nothing a validator or a model reads.
 */
function objectParams(p) {
  if (p === null || typeof p !== "object" || p.type !== "object") return p;
  const out = { ...p };
  if (!Array.isArray(out.required)) out.required = [];
  if (out.additionalProperties === undefined) out.additionalProperties = true;
  if (out.properties === undefined) out.properties = {};
  return out;
}

/**
 * The needsApproval option as the SDK's tool() takes it: a boolean as it is (the runner knows the
 * policy tool() makes of it is fixed, so argument text it cannot parse is an error the model reads,
 * not a call to approve), or the caller's per-call policy.
 */
function approvalOption(opt) {
  if (typeof opt === "boolean") return opt;
  if (typeof opt === "function") return async (runContext, input, callId) => Boolean(await opt(runContext, input, callId));
  throw new ToolgateError("unsupported-type", `agentTools: option needsApproval must be a boolean or a function, got ${describe(opt)}`);
}

/**
 * One call through branch.invoke. The model reads what it returns: the response as text (a
 * string as it is, anything else exact JSON, BigInts as digits), or for a call toolgate refused
 * or a failed one, text naming the tool, each field and rule. A call the run's own signal
 * cancelled rejects with the signal's reason, as the SDK's own tools do.
 */
async function invoke(b, name, input, details, runContext) {
  // provider: OpenAI's rules for the argument text ("" is {}, malformed JSON names its position)
  const request = { function: name, arguments: input, provider: "openai-responses" };
  const id = details?.toolCall?.callId;
  if (typeof id === "string") request.id = id;
  const signal = details?.signal;
  let fc;
  try {
    fc = await b.invoke(request, { signal, context: runContext?.context }); // run(agent, input, {context})
  } catch (e) {
    return failureText(b, name, e, id);
  }
  if (fc.status === STATUS.completed) return responseText(fc.toModelOutput());
  if (fc.status === STATUS.cancelled && signal?.aborted) throw signal.reason;
  return failureText(b, name, fc, id);
}

/**
 * One exported tool as the SDK's tool() builds it (its approval policy, isEnabled, guardrails and
 * the fields a later SDK adds), with toolgate's name, schema, strict flag and invoke in place of
 * the SDK's: tool() is given strict: false so it leaves the schema as toolgate exported it, and its
 * invoke, which would parse the arguments with JSON.parse, is never called.
 */
function agentTool(b, t, needsApproval, after) {
  const parameters = objectParams(t.parameters);
  const description = t.description ?? "";
  const base = sdkTool({ name: t.name, description, parameters, strict: false, needsApproval, execute: () => "" });
  return {
    ...base,
    type: "function",
    name: t.name,
    description,
    parameters,
    strict: t.strict,
    invoke: async (runContext, input, details) => {
      const out = await invoke(b, t.name, input, details, runContext);
      after();
      return out;
    },
  };
}

/**
 * A branch's tools as Agents JS FunctionTools: {type: "function", name, description, parameters,
 * strict, invoke, needsApproval, isEnabled, …}, built by the SDK's tool(). `strict` (default
 * true, as the SDK's tool()) exports OpenAI strict schemas where they can express the tool, else
 * that tool is strict: false; `needsApproval` is a boolean or (runContext, input, callId) =>
 * boolean | Promise<boolean>.
 * @example const result = await run(new Agent({ name: "a", tools: agentTools(b) }), "What is 2 + 3?")
 */
export function agentTools(branch, opts) {
  const b = checkBranch(branch, "agentTools");
  const { strict = true, needsApproval = false } = checkOptions(opts, ["strict", "needsApproval"], "agentTools");
  const approval = approvalOption(needsApproval);
  const tools = [];
  const add = (t) => tools.push(agentTool(b, t, approval, () => addRevealed(b, t.name, "openai-responses", !!strict, (name) => tools.some((x) => x.name === name), add)));
  for (const t of exportedTools(b, "openai-responses", !!strict)) add(t);
  return tools; // deferred tools a search finds are pushed here: the runner reads the agent's tools at each turn
}
