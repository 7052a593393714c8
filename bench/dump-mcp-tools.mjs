// Writes bench/mcp-tools.json: server-everything's tools/list (name,
// description, inputSchema), as the official client sees it, for the cold
// workload of figure 4. Run once from .build/consumer when the dev dependency
// changes (`node bench/dump-mcp-tools.mjs ../../bench/mcp-tools.json`);
// make bench reads the committed file and starts no server for it.
import { writeFileSync } from "node:fs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { loadServers, versionOf } from "./common.mjs";

const out = process.argv[2];
if (!out) throw new Error("usage: node bench/dump-mcp-tools.mjs OUT.json");
const { startEverything } = await loadServers();
const server = await startEverything("streamable-http");
try {
  const client = new Client({ name: "toolgate-bench", version: "0.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
  const { tools } = await client.listTools();
  await client.close();
  const source = `@modelcontextprotocol/server-everything ${versionOf("@modelcontextprotocol/server-everything")}, tools/list`;
  const list = tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }));
  writeFileSync(out, JSON.stringify({ source, tools: list }, null, 2) + "\n");
  console.log(`${out}: ${list.length} tools from ${source}`);
} finally {
  await server.stop();
}
