// toolgate/openai-agents: a branch's tools as OpenAI Agents JS function tools. The types are the
// SDK's own ("@openai/agents", an optional peer dependency: install it to use this entry point);
// the code imports the SDK's tool(), which builds each tool.
import type { FunctionTool, RunContext } from "@openai/agents";
import type { Branch } from "./types.js";

/** Options of agentTools. */
export interface AgentToolsOptions<Context = unknown> {
  /**
   * OpenAI strict mode where the schema allows it (default true, as the SDK's tool()); a tool
   * strict mode cannot express is exported with strict: false.
   */
  strict?: boolean;
  /** Whether a call needs human approval first: for every call, or decided per call. */
  needsApproval?: boolean | ((runContext: RunContext<Context>, input: unknown, callId?: string) => boolean | Promise<boolean>);
}

/**
 * A branch's tools as Agents JS FunctionTools: each invoke validates and runs the call through
 * branch.invoke and resolves to the text the model reads (the response, or toolgate's text naming
 * the tool, each field and rule for a refused or failed call). Node and browser.
 * @example const result = await run(new Agent({ name: "calc", tools: agentTools(b) }), "What is 2 + 3?")
 */
export declare function agentTools<Context = unknown>(branch: Branch, options?: AgentToolsOptions<Context>): FunctionTool<Context, any, string>[];
