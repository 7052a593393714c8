// The adapters' output is assignable to the SDKs' own types under strict.
import { initialize } from "toolgate";
import { toolSet, type ToolgateAiTool } from "toolgate/ai-sdk";
import { agentTools } from "toolgate/openai-agents";
import { generateText, stepCountIs, type Tool, type ToolSet } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { Agent, run, type FunctionTool, type Tool as AgentTool, type RunContext } from "@openai/agents";
import { langchainTools, type ToolgateLangchainTool } from "toolgate/langchain";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";

const tg = await initialize();
const b = tg.branch({ tools: [tg.tool(function add(a: number, b: number) { return a + b; })] });

// AI SDK
const tools: ToolSet = toolSet(b);
const one: Tool = toolSet(b, { target: "anthropic", strict: false })["add"]!;
const typed: ToolgateAiTool | undefined = toolSet(b)["add"];
void one;
void typed;
await generateText({ model: new MockLanguageModelV4(), tools: toolSet(b, { strict: true }), stopWhen: stepCountIs(3), prompt: "2 + 3?" });
void tools;

// OpenAI Agents JS
const fns: FunctionTool[] = agentTools(b);
const list: AgentTool[] = agentTools(b, { strict: false });
interface Ctx { user: string }
const withCtx: AgentTool<Ctx>[] = agentTools<Ctx>(b, { needsApproval: async (rc: RunContext<Ctx>, input) => rc.context.user !== "" && input !== null });
const agent = new Agent<Ctx>({ name: "calc", tools: agentTools<Ctx>(b, { needsApproval: true }) });
void fns;
void list;
void withCtx;
void run(agent, "2 + 3?", { context: { user: "u" } });

// LangChain.js: bound to a chat model, and each tool call answered with a ToolMessage, no glue
const lcTools: ToolgateLangchainTool[] = langchainTools(b);
const lcInterfaces: StructuredToolInterface[] = langchainTools(b, { target: "anthropic" });
const byName: Record<string, ToolgateLangchainTool> = Object.fromEntries(lcTools.map((t) => [t.name, t]));
const messages: BaseMessage[] = [new HumanMessage("2 + 3?")];
const reply = await new FakeListChatModel({ responses: ["5"] }).bindTools(lcTools).invoke(messages);
messages.push(reply);
for (const tc of reply.tool_calls ?? []) messages.push(await byName[tc.name]!.invoke(tc));
const answer: ToolMessage = await lcTools[0]!.invoke({ id: "c1", name: "add", args: { a: 2, b: 3 }, type: "tool_call" });
const text: string = await lcTools[0]!.invoke({ a: 2, b: 3 });
void lcInterfaces;
void answer;
void text;
