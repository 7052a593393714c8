// MCP protocol eras under strict: a config may pin the era, onWarning gets the tools left out
// (rule "x-mcp-header" as data), and tool.mcp says which version a tool was discovered with.
import { initialize, type McpProtocolVersion, type McpToolRule, type McpWarningHandler, type McpServerConfig, type ToolgateError } from "toolgate";

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const version: McpProtocolVersion = "2026-07-28";
  const config: McpServerConfig = { name: "docs", url: "https://mcp.example.com/mcp", protocolVersion: version };
  const onWarning: McpWarningHandler = (server: string, error: ToolgateError) => {
    const rule: McpToolRule | undefined = error.rule === "x-mcp-header" ? error.rule : undefined;
    void server; void rule; void error.tool;
  };
  const names: string[] = await b.registerMcpServer(config, { security: tg.mcp.trusted(), onWarning });
  for (const name of names) {
    const v: string | null | undefined = b.tools.get(name)?.mcp?.protocolVersion;
    void v;
  }
  await b.loadMcpConfig({ mcpServers: { old: { url: "https://old.example/mcp", protocolVersion: "2025-11-25" } } }, { onWarning });
  // @ts-expect-error only 2026-07-28 or 2025-11-25 can be pinned
  await b.registerMcpServer({ name: "x", url: "https://x.example/mcp", protocolVersion: "2025-06-18" }, {});
  // @ts-expect-error onWarning takes (server, error)
  await b.registerMcpServer({ name: "x", url: "https://x.example/mcp" }, { onWarning: (e: number) => e });
}
void main;
