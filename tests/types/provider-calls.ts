// Calls in and results out against the SDKs' own types, under strict: parseToolCalls takes their
// response objects, toolResult's messages are assignable to their message types.
import { initialize, type ToolCall, type FunctionCalling, type ToolgateError, type ProviderTarget } from "toolgate";
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionToolMessageParam } from "openai/resources/chat/completions";
import type { Response, ResponseInputItem } from "openai/resources/responses/responses";
import type { Message, MessageParam, ToolResultBlockParam, ToolUseBlock } from "@anthropic-ai/sdk/resources/messages";
import type { Content, FunctionCall, GenerateContentResponse, Part } from "@google/genai";
import type { ResponseFunctionToolCall } from "openai/resources/responses/responses";
import type { ChatCompletionMessageFunctionToolCall } from "openai/resources/chat/completions";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

declare const completion: ChatCompletion;
declare const response: Response;
declare const message: Message;
declare const gemini: GenerateContentResponse;
declare const toolUse: ToolUseBlock;
declare const functionCall: FunctionCall;
declare const item: ResponseFunctionToolCall;
declare const chatCall: ChatCompletionMessageFunctionToolCall;

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();

  // Calls in: each SDK's response object, and the calls match/validate/invoke take as they are.
  const calls: ToolCall[] = [
    ...tg.parseToolCalls(completion),
    ...tg.parseToolCalls(completion.choices[0]!.message),
    ...tg.parseToolCalls(response),
    ...tg.parseToolCalls(response.output),
    ...tg.parseToolCalls(message),
    ...tg.parseToolCalls(message.content),
    ...tg.parseToolCalls(gemini),
    ...tg.parseToolCalls(gemini.candidates?.[0]?.content ?? []),
    ...tg.parseToolCalls(JSON.stringify(message)),
  ];
  const first = calls[0]!;
  const id: string | null = first.id;
  const args: Record<string, unknown> | string = first.arguments;
  const provider: ProviderTarget = first.provider;
  void id, args, provider;
  b.match(first);
  b.validate(first);
  const fc: FunctionCalling = await b.invoke(first);
  const callId: string | undefined = fc.callId;
  void callId;
  let err: ToolgateError | undefined;
  try {
    b.match({ id: "call_1", function: "add", arguments: "", provider: "openai-chat" });
  } catch (e) {
    if (tg.ToolgateError.isInstance(e)) err = e;
  }
  // Single calls as the SDKs type them (a Gemini FunctionCall's name and args are optional there).
  b.validate(toolUse);
  b.validate({ functionCall });
  b.validate(item);
  b.validate(chatCall);
  const errCallId: string | undefined = err?.callId;
  void errCallId;

  // Results out: one call, into each SDK's own message types.
  const chat: ChatCompletionToolMessageParam = tg.toolResult(fc, "openai-chat");
  const history: ChatCompletionMessageParam[] = [completion.choices[0]!.message, chat, ...tg.toolResult([fc, err!], "openai-chat")];
  const output: ResponseInputItem.FunctionCallOutput = tg.toolResult(fc, "openai-responses");
  const input: ResponseInputItem[] = [output, ...tg.toolResult([fc], "openai-responses")];
  const block: ToolResultBlockParam = tg.toolResult(err!, "anthropic");
  const user: MessageParam = tg.toolResult([fc, err!], "anthropic");
  const messages: MessageParam[] = [{ role: "assistant", content: message.content }, user, { role: "user", content: [block] }];
  const part: Part = tg.toolResult(fc, "gemini");
  const content: Content = tg.toolResult([fc], "gemini");
  const contents: Content[] = [gemini.candidates![0]!.content!, content, { role: "user", parts: [part] }];
  const mcp = tg.toolResult(fc, "mcp");
  const text: string = mcp.content[0]!.text;
  const flagged: true | undefined = mcp.isError;
  // An MCP server's tool handler returns them as the SDK types its result.
  const toServer: CallToolResult = tg.toolResult(fc, "mcp");
  const fromError: CallToolResult = tg.toolResult(err!, "mcp");
  const many: CallToolResult[] = tg.toolResult([fc, err!], "mcp");
  // A refusal serialises with its name, code and message (JSON.stringify(b.validate(bad)) says why).
  const verdict = b.validate(first);
  const json: { name: "ToolgateError"; code: string; message: string } | undefined = verdict.ok ? undefined : verdict.error.toJSON();
  void history, input, messages, contents, text, flagged, toServer, fromError, many, json;
}
void main;
