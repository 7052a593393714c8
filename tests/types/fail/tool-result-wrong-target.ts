// A Chat tool message is not an Anthropic tool_result block: the target decides the type.
import type { ToolgateCore, FunctionCalling } from "toolgate";
import type { ToolResultBlockParam } from "@anthropic-ai/sdk/resources/messages";
declare const tg: ToolgateCore;
declare const fc: FunctionCalling;
const block: ToolResultBlockParam = tg.toolResult(fc, "openai-chat");
void block;
