// toolgate/ai-sdk: a branch as an AI SDK ToolSet. The types are the AI SDK's own ("ai", an optional
// peer dependency: install it to use this entry point); the code imports nothing from it.
import type { Tool } from "ai";
import type { Branch } from "./types.js";

/** The export formats whose name rules and schema form an adapter can follow. */
export type AdapterTarget = "openai-chat" | "openai-responses" | "anthropic" | "gemini" | "mcp";

/** Options of toolSet. */
export interface ToolSetOptions {
  /** Whose name rules and schema form the export follows (default "openai-chat"). */
  target?: AdapterTarget;
  /** OpenAI strict mode where the schema allows it; each tool's `strict` says whether it got it. */
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
