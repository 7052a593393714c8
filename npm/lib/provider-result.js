// tg.toolResult: a call's outcome (or a refusal) as a provider's tool-result message. The response
// is serialised here, BigInt-safe; Go writes the message (core.FormatToolResult), so the failure
// text is the same from Go and JS. Node and browser.
import { ToolgateError, describe, readInput, safeText, thrownValue } from "./errors.js";
import { toJSON } from "./json.js";
import { FunctionCalling } from "./function-calling.js";
import { OP, PROVIDER_TARGETS, FINISHED_STATUSES, STATUS } from "./contract.js";

/**
 * One call's outcome as `target`'s tool-result message, or for a list the whole next message (an
 * array of messages for OpenAI, {role: "user", content | parts} for Anthropic and Gemini). Each
 * entry is a FunctionCalling that has run, or a ToolgateError match/validate/invoke threw. Node and
 * browser.
 * @example messages.push(tg.toolResult(await b.invoke(call), "openai-chat"))
 */
export function toolResult(ctx, callOrError, target) {
  if (typeof target !== "string") {
    throw new ToolgateError("invalid-request", `toolResult: the target must be a string, one of ${PROVIDER_TARGETS.join(", ")}; got ${describe(target)}`);
  }
  const list = Array.isArray(callOrError);
  const items = list ? callOrError : [callOrError];
  const results = items.map((x, i) => readInput("toolResult", list ? `result ${i}` : "result", "invalid-request", () => resultText(x, list ? i : -1)));
  const payload = `{"target":${JSON.stringify(target)},"list":${list},"results":[${results.join(",")}]}`;
  return JSON.parse(ctx.inst.call(OP.providerToolResult, 0, payload));
}

/** One entry as the JSON of a core.ToolResult. */
function resultText(x, index) {
  const at = index < 0 ? "" : ` (result ${index})`;
  if (ToolgateError.isInstance(x)) {
    return JSON.stringify({ callId: str(x.callId), function: str(x.tool), error: errorData(x) });
  }
  if (!(x instanceof FunctionCalling)) {
    throw new ToolgateError("invalid-request", `toolResult${at}: want a FunctionCalling or a ToolgateError, got ${describe(x)}`);
  }
  const head = { callId: str(x.callId), function: str(x.function), status: String(x.status) };
  if (!FINISHED_STATUSES.includes(x.status)) {
    throw new ToolgateError("invalid-request", `toolResult${at}: the call of ${x.function} has not finished (status "${x.status}"): invoke it first`,
      { tool: x.function, callId: x.callId });
  }
  if (x.status !== STATUS.completed) return JSON.stringify({ ...head, error: errorData(x.error) });
  const output = toJSON(x.toModelOutput() ?? null, { code: "unsupported-type", what: `the response of ${x.function}` });
  return `${JSON.stringify(head).slice(0, -1)},"output":${output}}`;
}

/** A string, or undefined for anything else (left out of the JSON). */
function str(v) {
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** What a call failed with, as core.ToolResultError: a ToolgateError's code, message and issues; any other value's text. */
function errorData(fcError) {
  const err = thrownValue(fcError);
  if (ToolgateError.isInstance(err)) {
    const out = { code: String(err.code), message: String(err.message) };
    if (Array.isArray(err.issues) && err.issues.length > 0) {
      out.issues = err.issues.map((is) => ({ path: String(is?.path ?? ""), keyword: String(is?.keyword ?? ""), message: String(is?.message ?? "") }));
    }
    const result = toolErrorResult(err);
    if (result !== undefined) out.result = result;
    return out;
  }
  if (err instanceof Error) {
    const name = safeText(err.name);
    return { message: name && name !== "Error" ? `${name}: ${safeText(err)}` : safeText(err) };
  }
  return { message: err === undefined ? "the call did not complete" : safeText(err) };
}

/**
 * A tool-error's own content items ({content} of the MCP CallToolResult) when they are plain JSON, for
 * the mcp target; else undefined (the failure text is sent). The rest of the result stays out: Go reads
 * only its content, and a BigInt elsewhere (in _meta) must not cost the items.
 */
function toolErrorResult(err) {
  const content = err.code === "tool-error" ? err.result?.content : undefined;
  if (!Array.isArray(content)) return undefined;
  try {
    return { content: JSON.parse(JSON.stringify(content)) };
  } catch {
    return undefined; // a BigInt or a cycle inside an item: the text is sent instead
  }
}
