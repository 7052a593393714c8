// tg.toolCallStream against the SDKs' own stream types, under strict: each SDK's streamed events
// and chunks are pushed as they are, refusals answered with toolResult.
import { initialize, type StreamRefusal, type ToolCall, type ToolCallStream } from "toolgate";
import type { ChatCompletionChunk, ChatCompletionToolMessageParam } from "openai/resources/chat/completions";
import type { ResponseStreamEvent } from "openai/resources/responses/responses";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages";
import type { GenerateContentResponse } from "@google/genai";

declare const chunks: AsyncIterable<ChatCompletionChunk>;
declare const events: AsyncIterable<ResponseStreamEvent>;
declare const anthropic: AsyncIterable<RawMessageStreamEvent>;
declare const gemini: AsyncIterable<GenerateContentResponse>;

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const acc: ToolCallStream = tg.toolCallStream(b);
  for await (const c of chunks) {
    for (const r of acc.push(c)) {
      const refusal: StreamRefusal = r;
      const answer: ChatCompletionToolMessageParam = tg.toolResult(refusal.error, "openai-chat");
      void answer;
      const early: boolean = !r.complete;
      void early;
    }
  }
  for await (const e of events) tg.toolCallStream(b).push(e);
  for await (const e of anthropic) tg.toolCallStream(b).push(e);
  for await (const e of gemini) tg.toolCallStream(b).push(e);
  const calls: ToolCall[] = acc.calls();
  for (const call of calls) await b.invoke(call);
  const p: "openai-chat" | "openai-responses" | "anthropic" | "gemini" | "ai-sdk" | "langchain" | null = acc.provider;
  const ended: StreamRefusal[] = acc.end();
  void ended;
  void p;
}
void main;
