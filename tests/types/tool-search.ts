// Deferred tools and tool search: the options, the hits, and a native export assignable to the
// Anthropic SDK's tool list, under strict.
import { initialize, type ToolSearchHit } from "toolgate";
import type Anthropic from "@anthropic-ai/sdk";
import type { Tool as ResponsesTool } from "openai/resources/responses/responses";

async function main(): Promise<void> {
  const tg = await initialize();
  const weather = tg.tool({ name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } }, handler: () => 18 });
  const b = tg.branch({ tools: [], defer: [weather] });
  b.register([weather], { defer: true, update: true });
  const hits: ToolSearchHit[] = b.searchTools("weather", { limit: 3, reveal: true });
  const names: string[] = hits.map((h) => h.name).concat(hits[0]?.parameters ?? []);
  const native: Anthropic.Messages.ToolUnion[] = tg.toProvider(b, "anthropic", { toolSearch: "native" }).tools;
  const plain: Anthropic.Tool[] = tg.toProvider(b, "anthropic").tools;
  const responses: ResponsesTool[] = tg.toProvider(b, "openai-responses", { toolSearch: "native", strict: true }).tools;
  await b.registerMcpServer({ name: "docs", url: "https://mcp.example.com/mcp" }, { defer: true });
  await b.loadMcpConfig({ mcpServers: {} }, { defer: true });
  // @ts-expect-error toolSearch is Anthropic's and OpenAI Responses' only
  tg.toProvider(b, "openai-chat", { toolSearch: "native" });
  void [names, native, plain, responses];
}
void main;
