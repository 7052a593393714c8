// Client capabilities under strict: roots as a list or a function, sampling and elicitation hooks
// with their params and results typed, on all three MCP entry points; the MCP SDK's result types
// can be returned from the hooks as they are.
import { initialize, type McpClientHooks, type McpCreateMessageResult, type McpElicitResult, type McpElicitUrlResult, type McpRoot } from "toolgate";
import type { CreateMessageResult, CreateMessageResultWithTools, ElicitResult } from "@modelcontextprotocol/sdk/types.js";

declare const sdkSample: CreateMessageResult;
declare const sdkToolSample: CreateMessageResultWithTools;
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
  // URL mode, sampling with tools, the completion listener
  await b.registerMcpServer({ name: "pay", url: "https://mcp.example.com/mcp" }, {
    security,
    elicitationUrl: async ({ url, message, elicitationId }, { signal }) => {
      const host: string = new URL(url).host;
      void [host, message, elicitationId satisfies string | undefined, signal];
      const out: McpElicitUrlResult = { action: "accept" };
      return out;
    },
    onElicitationComplete: ({ server, elicitationId }) => void [server.length, elicitationId.length],
    samplingTools: true,
    sampling: async (params) => {
      const tools = params.tools ?? [];
      const mode: "auto" | "required" | "none" | undefined = params.toolChoice?.mode;
      void mode;
      const out: McpCreateMessageResult = {
        role: "assistant", model: "mine", stopReason: "toolUse",
        content: [{ type: "tool_use", id: "call_1", name: tools[0]?.name ?? "none", input: { city: "Paris" } }],
      };
      return out;
    },
  });
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { samplingTools: true, sampling: async () => sdkToolSample });
  // @ts-expect-error a URL elicitation's answer has no content
  const urlAnswer: McpElicitUrlResult = { action: "accept", content: { x: "1" } };
  void urlAnswer;
  // @ts-expect-error samplingTools is a boolean
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { samplingTools: "yes" });
  // @ts-expect-error sampling is a function
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { sampling: { role: "assistant" } });
  // @ts-expect-error a root needs its uri
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { roots: [{ name: "x" }] });
}
void main;
