// schemaList is LionAGI-exact (description and parameters may be null): it is no SDK's tool list.
// tg.toProvider(b, "openai-chat").tools is.
import type OpenAI from "openai";
import { initialize } from "toolgate";
const tg = await initialize();
const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = tg.branch().schemaList;
void tools;
