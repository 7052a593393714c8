// The calls each provider's SDK hands over are requests as they come, under `strict`: no narrowing beyond
// the SDK's own discriminant, no copying, no cast. The SDK types are the real packages' (dev dependencies).
import type OpenAI from "openai";
import type Anthropic from "@anthropic-ai/sdk";
import type { Content, FunctionCall, GenerateContentResponse, GoogleGenAI, Part } from "@google/genai";
import { initialize, type Branch, type FunctionCalling, type ToolgateError, type ToolRequest, type ToolSchema, type Toolgate, type ValidationResult } from "toolgate";

type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;
type ChatToolCall = OpenAI.Chat.Completions.ChatCompletionMessageToolCall;

/** OpenAI Chat: each entry of message.tool_calls, the union with custom tool calls included. */
async function openaiChat(b: Branch, completion: ChatCompletion): Promise<FunctionCalling[]> {
  const calls: ChatToolCall[] = completion.choices[0]?.message.tool_calls ?? [];
  const out: FunctionCalling[] = [];
  for (const call of calls) {
    const v: ValidationResult = b.validate(call);
    void v;
    out.push(await b.invoke(call));
  }
  const one: ToolRequest = calls[0]!;
  const fn: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall = { id: "call_1", type: "function", function: { name: "add", arguments: "" } };
  const custom: OpenAI.Chat.Completions.ChatCompletionMessageCustomToolCall = { id: "call_2", type: "custom", custom: { name: "sql", input: "SELECT 1" } };
  b.match(fn);
  b.validate(custom); // typed as the SDK delivers it; refused at runtime with invalid-request
  void one;
  return out;
}

/** OpenAI Responses: the function_call items of response.output. */
async function openaiResponses(b: Branch, response: OpenAI.Responses.Response): Promise<FunctionCalling[]> {
  const out: FunctionCalling[] = [];
  for (const item of response.output) {
    if (item.type === "function_call") out.push(await b.invoke(item));
  }
  const item: OpenAI.Responses.ResponseFunctionToolCall = { type: "function_call", id: "fc_1", call_id: "call_1", name: "add", arguments: "{}" };
  b.match(item);
  return out;
}

/** Anthropic: the tool_use blocks of message.content (input: unknown). */
async function anthropic(b: Branch, message: Anthropic.Message): Promise<FunctionCalling[]> {
  const out: FunctionCalling[] = [];
  for (const block of message.content) {
    if (block.type === "tool_use") out.push(await b.invoke(block));
  }
  const block: Anthropic.ToolUseBlock = { type: "tool_use", id: "toolu_1", name: "add", input: { a: 1 }, caller: { type: "direct" } };
  b.match(block);
  return out;
}

/** Gemini: response.functionCalls (FunctionCall: name?, args?), and the parts that hold a functionCall. */
async function gemini(b: Branch, response: GenerateContentResponse): Promise<FunctionCalling[]> {
  const out: FunctionCalling[] = [];
  for (const call of response.functionCalls ?? []) out.push(await b.invoke(call));
  const parts: Part[] = response.candidates?.[0]?.content?.parts ?? [];
  for (const part of parts) {
    if (part.functionCall) b.match(part.functionCall);
  }
  const withCall = parts.filter((p): p is Part & { functionCall: FunctionCall } => p.functionCall !== undefined);
  for (const part of withCall) b.validate(part);
  const bare: FunctionCall = { name: "now" };
  const signed: Part & { functionCall: FunctionCall } = { functionCall: { name: "add", args: { a: 1 } }, thoughtSignature: "CtwB" };
  b.match(bare);
  b.match(signed);
  return out;
}

/** The SDKs' variants of the same calls: openai's parse() helpers and Anthropic's beta messages. */
function variants(
  b: Branch,
  parsed: OpenAI.Chat.Completions.ParsedFunctionToolCall,
  parsedItem: OpenAI.Responses.ParsedResponseFunctionToolCall,
  beta: Anthropic.Beta.BetaToolUseBlock,
): ValidationResult[] {
  return [b.validate(parsed), b.validate(parsedItem), b.validate(beta)];
}

/**
 * ToolSchema is LionAGI's declaration (nulls included), so it is read as such; as an input, the SDK's
 * own function tool declaration is accepted as it is.
 */
async function schemas(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const chatTool: OpenAI.Chat.Completions.ChatCompletionFunctionTool = {
    type: "function",
    function: { name: "add", description: "Adds.", parameters: { type: "object", properties: {} }, strict: null },
  };
  const t = tg.tool(function add(a: number, b: number) { return a + b; }, { schema: chatTool });
  b.register(t);
  b.getToolSchema(chatTool);
  const s: ToolSchema = b.schemaList[0]!;
  const description: string | null | undefined = s.function.description;
  void description;
}

/**
 * The agent loops of docs/provider-sdks.md, typed: the export is each SDK's tools parameter, the
 * results its message types, with nothing cast or converted.
 */
async function loops(tg: Toolgate, b: Branch, openai: OpenAI, claude: Anthropic, ai: GoogleGenAI): Promise<void> {
  const chatTools: OpenAI.Chat.Completions.ChatCompletionTool[] = tg.toProvider(b, "openai-chat", { strict: true }).tools;
  const messages: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
  let completion = await openai.chat.completions.create({ model: "gpt-4o", messages, tools: chatTools });
  while (completion.choices[0]?.finish_reason === "tool_calls") {
    const done = await Promise.all(tg.parseToolCalls(completion).map((call) => b.invoke(call).catch((e: ToolgateError) => e)));
    messages.push(completion.choices[0].message, ...tg.toolResult(done, "openai-chat"));
    completion = await openai.chat.completions.create({ model: "gpt-4o", messages, tools: chatTools });
  }

  // (openai's own types refuse response.output back in input: a computer call output's status
  // "failed" is no input status; previous_response_id carries the turn instead.)
  const tools = tg.toProvider(b, "openai-responses").tools;
  let response = await openai.responses.create({ model: "o4-mini", input: "Weather in Paris?", tools });
  for (let calls; (calls = tg.parseToolCalls(response)).length > 0; ) {
    const done = await Promise.all(calls.map((call) => b.invoke(call).catch((e: ToolgateError) => e)));
    const input: OpenAI.Responses.ResponseInputItem[] = tg.toolResult(done, "openai-responses");
    response = await openai.responses.create({ model: "o4-mini", previous_response_id: response.id, input, tools });
  }

  const claudeTools = tg.toProvider(b, "anthropic").tools;
  const history: Anthropic.MessageParam[] = [{ role: "user", content: "Weather in Paris?" }];
  let message = await claude.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: history, tools: claudeTools });
  while (message.stop_reason === "tool_use") {
    const done = await Promise.all(tg.parseToolCalls(message).map((call) => b.invoke(call).catch((e: ToolgateError) => e)));
    history.push({ role: "assistant", content: message.content }, tg.toolResult(done, "anthropic"));
    message = await claude.messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages: history, tools: claudeTools });
  }

  const config = { tools: tg.toProvider(b, "gemini").tools };
  const contents: Content[] = [{ role: "user", parts: [{ text: "Weather in Paris?" }] }];
  let g = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
  for (let calls; (calls = tg.parseToolCalls(g)).length > 0; ) {
    const done = await Promise.all(calls.map((call) => b.invoke(call).catch((e: ToolgateError) => e)));
    contents.push(g.candidates![0]!.content!, tg.toolResult(done, "gemini"));
    g = await ai.models.generateContent({ model: "gemini-2.5-flash", contents, config });
  }
}

export { openaiChat, openaiResponses, anthropic, gemini, variants, schemas, loops };
