// tg.toProvider(): tools in a provider's format (OpenAI Chat and Responses, Anthropic, Gemini,
// MCP) with a report of every change made so they fit it. Node and browser.
import { ToolgateError, checkOptions, describe } from "./errors.js";
import { tool, isToolOf } from "./tool.js";
import { Branch } from "./branch.js";
import { OP, PROVIDER_TARGETS } from "./contract.js";

/** The ref Go reads for one Tool or function of a tool list. */
function toolRef(ctx, x, i) {
  if (isToolOf(ctx, x)) return { $tool: x._handle() };
  if (typeof x === "function") return { $callable: tool(ctx, x)._handle() };
  throw new ToolgateError("unsupported-type", `toProvider: item ${i} must be a Tool or a function, got ${describe(x)}`);
}

/**
 * Exports a branch, one Tool, a function, or a list of Tools and functions to a provider's tool
 * format: `{tools, report}`. A branch remembers the names it rewrote and the strict restores, so
 * the calls that come back resolve and lose the nulls strict mode introduced before validation.
 * Node and browser.
 * @example const { tools, report } = tg.toProvider(b, "openai-chat", { strict: true });
 */
export function toProvider(ctx, branchOrTools, target, opts) {
  const { strict = false, geminiLegacy = false, toolSearch } = checkOptions(opts, ["strict", "geminiLegacy", "toolSearch"], "toProvider");
  if (typeof target !== "string" || !PROVIDER_TARGETS.includes(target)) {
    const message = `toProvider: target must be one of ${PROVIDER_TARGETS.join(", ")}, got ${describe(target)}`;
    throw new ToolgateError("invalid-request", message, { issues: [{ path: "", keyword: "target", message }] });
  }
  const payload = { target, strict: !!strict, geminiLegacy: !!geminiLegacy };
  if (toolSearch !== undefined && toolSearch !== null) payload.toolSearch = toolSearch; // "native": Go refuses other values and targets
  let handle = 0;
  const isBranch = branchOrTools instanceof Branch && branchOrTools._of(ctx);
  if (isBranch) handle = branchOrTools._handle();
  else if (Array.isArray(branchOrTools)) payload.tools = branchOrTools.map((x, i) => toolRef(ctx, x, i));
  else if (isToolOf(ctx, branchOrTools) || typeof branchOrTools === "function") payload.tools = [toolRef(ctx, branchOrTools, 0)];
  else throw new ToolgateError("unsupported-type", `toProvider: want a Branch, a Tool, a function or a list of them, got ${describe(branchOrTools)}`);
  const text = JSON.stringify(payload);
  const res = ctx.inst.callJSON(OP.toProvider, handle, text);
  if (isBranch) branchOrTools._exported(text);
  return { tools: res.tools, report: res.report };
}
