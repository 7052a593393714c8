// MCP results under strict: fc.response in "full" mode and error.result of a tool-error are the MCP
// SDK's CallToolResult shapes; the result option takes only its two modes.
import { initialize, ToolgateError, type McpCallToolResult, type McpContent, type McpRegisterOptions, type McpTaskMode } from "toolgate";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

declare const ours: McpCallToolResult;
declare const theirs: CallToolResult;

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const full: McpRegisterOptions = { result: "full", security: tg.mcp.trusted() };
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, full);
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { result: "lionagi" });
  // @ts-expect-error only "lionagi" or "full"
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { result: "raw" });
  await b.loadMcpConfig({ mcpServers: {} }, { result: "full" });
  await tg.loadMcpTools({ mcpServers: {} }, { result: "full" });
  const tasks: McpTaskMode = "always";
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { tasks, security: tg.mcp.trusted() });
  await b.loadMcpConfig({ mcpServers: {} }, { tasks: "required" });
  // @ts-expect-error only "required" or "always"
  await tg.loadMcpTools({ mcpServers: {} }, { tasks: "never" });

  const fc = await b.invoke({ function: "mcp__ev__echo", arguments: { message: "hi" } });
  const r = fc.response as McpCallToolResult;
  for (const item of r.content) {
    switch (item.type) {
      case "text": { const t: string = item.text; void t; break; }
      case "image": case "audio": { const d: string = item.data; const m: string = item.mimeType; void d; void m; break; }
      case "resource_link": { const u: string = item.uri; void u; break; }
      case "resource": { const u: string = item.resource.uri; void u; break; }
    }
    const p: number | undefined = item.annotations?.priority;
    void p;
  }
  if (fc.error instanceof ToolgateError && fc.error.code === "tool-error") {
    const res: McpCallToolResult | undefined = fc.error.result;
    void res;
  }
  const code: ToolgateError["code"] = "invalid-result";
  void code;
}
void main;

// Both ways with the official SDK's type: what the SDK client returns reads as ours, and ours can
// be handed to code typed with the SDK's.
const fromSdk: McpCallToolResult = theirs as McpCallToolResult;
const content: McpContent[] = theirs.content as McpContent[];
const toSdk: CallToolResult = ours;
void fromSdk; void content; void toSdk;
