// An AI SDK ToolSet is no list of Agents JS tools.
import { initialize } from "toolgate";
import { toolSet } from "toolgate/ai-sdk";
import type { FunctionTool } from "@openai/agents";
const tg = await initialize();
const tools: FunctionTool[] = toolSet(tg.branch());
void tools;
