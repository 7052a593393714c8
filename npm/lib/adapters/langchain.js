// toolgate/langchain: a branch's tools as LangChain.js (@langchain/core) StructuredTools. The model
// sees the schema tg.toProvider exports; each call is validated (with lax coercion) and run by
// branch.invoke alone, and a refused or failed call is a ToolMessage with status "error" holding
// toolgate's text, so the model can send it again. Node and browser.
import { StructuredTool } from "@langchain/core/tools";
import { ToolMessage } from "@langchain/core/messages";
import { parseCallbackConfigArg } from "@langchain/core/callbacks/manager";
import { checkOptions } from "../errors.js";
import { checkBranch, checkTarget, exportedTools, failureText, responseText } from "./common.js";
import { STATUS } from "../contract.js";

/**
 * One tool of the branch: `schema` is the exported JSON Schema (what bindTools sends the model).
 * `call` is LangChain's own (callbacks, tracing, the ToolMessage answering a tool call), run on a
 * view of the tool whose schema is the empty one, which every value meets: StructuredTool.call
 * checks the arguments against `schema` (@cfworker/json-schema) before the tool runs, and given
 * the real one would refuse "23" for an integer with its own message, so toolgate's coercion and
 * text would never run. The one validation is branch.invoke's, in `_call`.
 */
class BranchTool extends StructuredTool {
  static lc_name() {
    return "BranchTool";
  }

  constructor(branch, t) {
    super();
    this.name = t.name;
    this.description = t.description ?? "";
    this.schema = t.parameters;
    Object.defineProperty(this, "branch", { value: branch });
  }

  call(arg, configArg, tags) {
    const config = { ...parseCallbackConfigArg(configArg) };
    if (config.runName === undefined) config.runName = this.name;
    // a new {} each time: the validator writes its bookkeeping onto the schema it is given
    const unchecked = Object.create(this, { schema: { value: {} } });
    return StructuredTool.prototype.call.call(unchecked, arg, config, tags);
  }

  /**
   * One call through branch.invoke: the response as text (a string as it is, anything else exact
   * JSON, BigInts as digits); for a refused, failed or timed-out call tg.toolResult's text, as a
   * ToolMessage with status "error" when there is a tool call to answer. A call the caller's own
   * signal cancelled rejects with the signal's reason.
   */
  async _call(args, _runManager, config) {
    const id = config?.toolCall?.id;
    const request = { function: this.name, arguments: args ?? {} };
    if (typeof id === "string" && id !== "") request.id = id;
    const signal = config?.signal;
    let fc;
    try {
      fc = await this.branch.invoke(request, { signal, context: config?.context }); // the tool's runtime context
    } catch (e) {
      return this.refusal(failureText(this.branch, this.name, e, request.id), request.id);
    }
    if (fc.status === STATUS.completed) return responseText(fc.toModelOutput());
    if (fc.status === STATUS.cancelled && signal?.aborted) throw signal.reason;
    return this.refusal(failureText(this.branch, this.name, fc, request.id), request.id);
  }

  /** The text a model reads for a call that did not complete: a ToolMessage with status "error" answering call `id`, or the text when there is no call to answer. */
  refusal(text, id) {
    if (id === undefined) return text;
    return new ToolMessage({ content: text, status: "error", tool_call_id: id, name: this.name });
  }
}

/**
 * A branch's tools as LangChain.js StructuredTools, for model.bindTools(tools) and for answering
 * each tool call with tools[i].invoke(toolCall), which resolves to a ToolMessage. `target` picks
 * whose name rules and schema form the export follows (default openai-chat). Node and browser.
 * @example for (const tc of (await model.bindTools(tools).invoke(messages)).tool_calls) messages.push(await byName[tc.name].invoke(tc))
 */
export function langchainTools(branch, opts) {
  const b = checkBranch(branch, "langchainTools");
  const { target = "openai-chat" } = checkOptions(opts, ["target"], "langchainTools");
  checkTarget(target, "langchainTools");
  return exportedTools(b, target, false).map((t) => new BranchTool(b, t));
}
