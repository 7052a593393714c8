// toolgate/langchain: a branch's tools as LangChain.js StructuredTools. The types are LangChain's
// own ("@langchain/core", an optional peer dependency: install it to use this entry point).
import type { StructuredTool, ToolSchemaBase } from "@langchain/core/tools";
import type { Branch, ProviderTarget } from "./types.js";

/** Options of langchainTools. */
export interface LangchainToolsOptions {
  /** Whose name rules and schema form the export follows (default "openai-chat"). */
  target?: ProviderTarget;
}

/**
 * A tool of the branch: its schema is the exported JSON Schema; invoked with a ToolCall it resolves
 * to a ToolMessage answering that call (status "error" with toolgate's text for a call toolgate
 * refused or that failed), invoked with the arguments alone to the text the model would read.
 */
export type ToolgateLangchainTool = StructuredTool<ToolSchemaBase, unknown, Record<string, unknown>, string>;

/**
 * A branch's tools as LangChain.js StructuredTools, for model.bindTools(tools): each call is
 * validated (with lax coercion) and run by branch.invoke alone, never by LangChain's own check, and
 * a refused call is a ToolMessage with status "error" naming the tool, each field and rule, so the
 * model can send it again. Node and browser.
 * @example for (const tc of (await model.bindTools(tools).invoke(messages)).tool_calls ?? []) messages.push(await byName[tc.name]!.invoke(tc))
 */
export declare function langchainTools(branch: Branch, options?: LangchainToolsOptions): ToolgateLangchainTool[];
