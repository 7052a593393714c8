// MCP tool filtering and approval under strict: the filter object, the approval rules, the hook's
// request and answers, and tool.mcp's annotations.
import { initialize, type McpApprovalRequest, type McpApproveHook, type McpToolFilter, type McpToolInfo, type PolicyRule } from "toolgate";

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const filter: McpToolFilter = { allow: ["get_*", "search"], block: new Set(["get_secret"]), readOnlyHint: true, openWorldHint: false };
  const approve: McpApproveHook = async (req: McpApprovalRequest, { signal }) => {
    const destructive: boolean | undefined = req.annotations?.destructiveHint;
    void destructive;
    void signal.aborted;
    return req.rules.includes("destructive") ? { approved: false, reason: "no deletes" } : true;
  };
  await b.registerMcpServer({ name: "fs", url: "https://mcp.example.com/mcp" }, {
    security: tg.mcp.trusted(), filter, requireApproval: ["destructive", "openWorld"], approve, approvalTimeoutMs: 30000,
  });
  await b.loadMcpConfig({ mcpServers: {} }, { filter: { block: ["*delete*"] }, requireApproval: ["all"], approve: () => false });
  const tools = await tg.loadMcpTools({ mcpServers: {} }, { filter: { destructiveHint: false } });
  for (const t of tools) {
    const info: McpToolInfo | null = t.mcp;
    if (info) {
      const ro: boolean | undefined = info.annotations?.readOnlyHint;
      const title: string | undefined = info.annotations?.title;
      void ro; void title; void info.server; void info.tool;
    }
  }
  b.register({ docs: { url: "https://mcp.example.com/mcp", security: tg.mcp.trusted(), result: "full" } });
  // @ts-expect-error only "destructive", "openWorld" or "all"
  await b.registerMcpServer({ name: "x", url: "https://x.example/mcp" }, { requireApproval: ["readOnly"], approve });
  // @ts-expect-error the hook answers a boolean or {approved, reason?}
  await b.registerMcpServer({ name: "x", url: "https://x.example/mcp" }, { requireApproval: ["all"], approve: () => "yes" });
  // @ts-expect-error filter hints are booleans
  await b.registerMcpServer({ name: "x", url: "https://x.example/mcp" }, { filter: { readOnlyHint: "true" } });
  const rule: PolicyRule = "approval";
  void rule;
}
void main;
