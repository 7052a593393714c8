// Client capabilities under strict: roots as a list or a function, sampling and elicitation hooks
// with their params and results typed, on all three MCP entry points; the MCP SDK's result types
// can be returned from the hooks as they are.
import { initialize, type McpClientHooks, type McpCreateMessageResult, type McpElicitResult, type McpRoot } from "toolgate";
import type { CreateMessageResult, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

declare const sdkSample: CreateMessageResult;
declare const sdkElicit: ElicitResult;
declare function myModel(prompt: string): Promise<string>;

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const security = tg.mcp.trusted();
  const roots: McpRoot[] = [{ uri: "file:///work", name: "work" }];
  const hooks: McpClientHooks = {
    roots,
    sampling: async (params, { signal }) => {
      const first = params.messages[0];
      const text = first && !Array.isArray(first.content) && first.content.type === "text" ? String(first.content.text) : "";
      void signal.aborted;
      const out: McpCreateMessageResult = { role: "assistant", content: { type: "text", text: await myModel(text) }, model: "mine", stopReason: "endTurn" };
      return out;
    },
    elicitation: async (params) => {
      const keys: string[] = Object.keys(params.requestedSchema.properties);
      void keys;
      return { action: "accept" };
    },
  };
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { security, ...hooks });
  await b.loadMcpConfig({ mcpServers: {} }, { security, roots: () => roots, elicitation: async () => ({ action: "decline" }) });
  await tg.loadMcpTools({ mcpServers: {} }, { security, roots: async () => roots, sampling: async () => sdkSample });
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { elicitation: async () => sdkElicit as McpElicitResult });

  const accepted: McpElicitResult = { action: "accept", content: { name: "Ada", age: 36, ok: true, tags: ["a"] } };
  void accepted;
  // @ts-expect-error decline carries no content
  const declined: McpElicitResult = { action: "decline", content: { name: "x" } };
  void declined;
  // @ts-expect-error an elicitation value is a string, number, boolean or string[]
  const nested: McpElicitResult = { action: "accept", content: { name: { first: "x" } } };
  void nested;
  // @ts-expect-error sampling is a function
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { sampling: { role: "assistant" } });
  // @ts-expect-error a root needs its uri
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { roots: [{ name: "x" }] });
}
void main;
