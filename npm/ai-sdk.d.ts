// toolgate/ai-sdk: a branch as an AI SDK ToolSet. The types are the AI SDK's own ("ai", an optional
// peer dependency: install it to use this entry point); the code imports nothing from it.
import type { Tool } from "ai";
import type { Branch, ProviderTarget } from "./types.js";

/** Options of toolSet. */
export interface ToolSetOptions {
  /** Whose name rules and schema form the export follows (default "openai-chat"). */
  target?: ProviderTarget;
  /**
   * OpenAI strict mode where the schema allows it; each tool's `strict` says whether it got it.
   * OpenAI's only: with another target, toolSet throws invalid-request (rule "strict").
   */
  strict?: boolean;
}

/**
 * A tool of the set: its input is what toolgate validated (the arguments object), its output the
 * handler's response (a response holding a BigInt becomes its exact JSON text).
 */
export type ToolgateAiTool = Tool<Record<string, unknown>, unknown>;

/**
 * A branch's tools as an AI SDK ToolSet, keyed by exported name: the AI SDK validates each call
 * through branch.validate (a failure reaches the model as a tool error with toolgate's issues) and
 * runs it through branch.invoke (a failed call throws the handler's error, which the AI SDK hands
 * the model as a tool error). Node and browser.
 * @example const { text } = await generateText({ model, tools: toolSet(b), stopWhen: stepCountIs(5), prompt })
 */
export declare function toolSet(branch: Branch, options?: ToolSetOptions): Record<string, ToolgateAiTool>;
