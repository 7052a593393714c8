// tg.toProvider's tools are assignable to each SDK's own tool type, under strict.
import { initialize, type ExportReport, type Change, type ProviderTarget } from "toolgate";
import type { ChatCompletionTool } from "openai/resources/chat/completions";
import type { FunctionTool, Tool as ResponsesTool } from "openai/resources/responses/responses";
import type Anthropic from "@anthropic-ai/sdk";
import type { Tool as GeminiTool } from "@google/genai";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch({ tools: [tg.tool(function add(a: number, b: number) { return a + b; })] });
  const chat: ChatCompletionTool[] = tg.toProvider(b, "openai-chat", { strict: true }).tools;
  const fns: FunctionTool[] = tg.toProvider(b, "openai-responses").tools;
  const responses: ResponsesTool[] = tg.toProvider([function ping() { return "pong"; }], "openai-responses").tools;
  const claude: Anthropic.Tool[] = tg.toProvider(b, "anthropic").tools;
  const claudeParam: Anthropic.Messages.ToolUnion[] = tg.toProvider(b, "anthropic").tools;
  const withExamples = tg.tool(function add(a: number, b: number) { return a + b; }, { inputExamples: [{ a: 1, b: 2 }] });
  const claudeExamples: Anthropic.Tool[] = tg.toProvider([withExamples], "anthropic").tools; // input_examples is in the SDK's Tool
  const examples: Record<string, unknown>[] | undefined = tg.toProvider([withExamples], "anthropic").tools[0]?.input_examples;
  const gemini: GeminiTool[] = tg.toProvider(b, "gemini").tools;
  const legacy: GeminiTool[] = tg.toProvider(b, "gemini", { geminiLegacy: true }).tools;
  const mcp: McpTool[] = tg.toProvider(b, "mcp").tools;
  const { report } = tg.toProvider(b, "mcp");
  const anyTarget = "anthropic" as ProviderTarget;
  const wide = tg.toProvider(b, anyTarget, { strict: false }).tools; // a target known at run time takes either option
  void wide;
  const r: ExportReport = report;
  const t: ProviderTarget = r.target;
  const c: Change | undefined = r.changes[0];
  const registered: string | undefined = r.names["add"];
  void [chat, fns, responses, claude, claudeParam, claudeExamples, examples, gemini, legacy, mcp, t, c, registered];
}
void main;
