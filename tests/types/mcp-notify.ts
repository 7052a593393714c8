// Progress and list changes under strict: the listener options of the three MCP entry points and
// of invoke, and the two shapes of a list-change event.
import { initialize, ToolgateError, type McpProgressEvent, type McpToolsChangedEvent, type McpRegisterOptions } from "toolgate";

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const onProgress = (ev: McpProgressEvent): void => {
    const done: number = ev.progress;
    const total: number | undefined = ev.total;
    const who: string = `${ev.server}/${ev.tool} as ${ev.name}: ${ev.message ?? ""}`;
    void done; void total; void who;
  };
  const onToolsChanged = (ev: McpToolsChangedEvent): void => {
    if (ev.error) {
      const e: ToolgateError = ev.error;
      void e;
      return;
    }
    const names: string[] = [...ev.added, ...ev.removed, ...ev.changed];
    void names;
  };
  const opts: McpRegisterOptions = { security: tg.mcp.trusted(), onProgress, onToolsChanged };
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, opts);
  await b.loadMcpConfig({ mcpServers: {} }, { onProgress, onToolsChanged });
  await tg.loadMcpTools({ mcpServers: {} }, { onProgress });
  // @ts-expect-error loadMcpTools' tools are in no branch: no list changes
  await tg.loadMcpTools({ mcpServers: {} }, { onToolsChanged });
  // @ts-expect-error a listener is a function
  await b.registerMcpServer({ name: "ev", url: "https://mcp.example.com/mcp" }, { onProgress: true });
  const fc = await b.invoke({ function: "mcp__ev__echo", arguments: {} }, { onProgress, signal: AbortSignal.timeout(1000) });
  void fc;
  await tg.mcp.cleanup();
}
void main;
