// One target's tools are not another's: an Anthropic export is no OpenAI Chat tool list.
import { initialize } from "toolgate";
import type { ChatCompletionTool } from "openai/resources/chat/completions";

async function main(): Promise<void> {
  const tg = await initialize();
  const tools: ChatCompletionTool[] = tg.toProvider(function add() { return 1; }, "anthropic").tools;
  void tools;
}
void main;
