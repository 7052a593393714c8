// MCP config files under strict: VS Code's {servers} beside {mcpServers}, "type": "stdio" entries,
// the env option, tool.mcp's metadata (title, outputSchema, execution, icons, _meta, taskRequired),
// and the mcp export target's tools assignable to the MCP SDK's Tool with that metadata.
import { initialize, type McpConfigFile, type McpToolInfo, type McpToolRule, type McpIcon } from "toolgate";
import type { Tool as SdkTool } from "@modelcontextprotocol/sdk/types.js";

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const security = tg.mcp.trusted();
  const vscode: McpConfigFile = {
    inputs: [{ type: "promptString", id: "key", password: true }],
    servers: {
      gh: { type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer ${env:GITHUB_TOKEN}" } },
      local: { type: "stdio", command: "npx", args: ["-y", "some-server"] },
    },
  };
  const claude: McpConfigFile = { mcpServers: { docs: { type: "sse", url: "https://${HOST:-docs.example.com}/sse" } } };
  await b.loadMcpConfig(vscode, { security, env: { GITHUB_TOKEN: "t" } });
  await b.loadMcpConfig(claude, { security, env: process.env });
  await tg.loadMcpTools(claude, { security, env: null });
  const rule: McpToolRule = "unset-variable";
  const rules: McpToolRule[] = [rule, "input-variable", "variable-syntax", "task-required", "task-time", "task-input-rounds"];
  void rules;

  const info: McpToolInfo | null | undefined = b.tools.get("mcp__gh__search")?.mcp;
  if (info) {
    const title: string | undefined = info.title;
    const out: Record<string, unknown> | undefined = info.outputSchema;
    const support: "forbidden" | "optional" | "required" | undefined = info.execution?.taskSupport;
    const icons: McpIcon[] | undefined = info.icons;
    const required: true | undefined = info.taskRequired;
    void title; void out; void support; void icons; void required; void info._meta;
  }
  const tools: SdkTool[] = tg.toProvider(b, "mcp").tools;
  const t0 = tools[0];
  void t0?.title; void t0?.outputSchema; void t0?.annotations;
}
void main;
