// A config file holds its servers under "mcpServers" or "servers": a typo is a type error.
import { initialize } from "toolgate";

async function main(): Promise<void> {
  const tg = await initialize();
  await tg.branch().loadMcpConfig({ mcpServer: { a: { url: "https://a.example/mcp" } } });
}
void main;
