// What the MCP figures (bench/figures/mcp-*.mjs) share: server-everything on
// loopback, the official TypeScript client, and a toolgate branch on the
// same server. Node only.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { loadServers, versionOf } from "./common.mjs";

/** The policy a loopback test server needs. */
export const SECURITY = { allowUrls: true, allowLoopbackHttp: true };

export const SDK_NAME = `@modelcontextprotocol/sdk ${versionOf("@modelcontextprotocol/sdk")}`;
export const SERVER_NAME = `server-everything ${versionOf("@modelcontextprotocol/server-everything")}`;

/** Starts server-everything in `mode` on 127.0.0.1, runs fn(server) and stops it. */
export async function withServer(mode, fn) {
  const { startEverything } = await loadServers();
  const server = await startEverything(mode);
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/** An official client, connected to `server`. */
export async function sdkClient(server) {
  const client = new Client({ name: "toolgate-bench", version: "0.0.0" });
  const url = new URL(server.url);
  await client.connect(server.mode === "sse" ? new SSEClientTransport(url) : new StreamableHTTPClientTransport(url));
  return client;
}

/** A toolgate branch with server-everything registered as "everything" (declared `toolNames`, or discovered). */
export async function tgBranch(tg, server, { toolNames, security = SECURITY } = {}) {
  const b = tg.branch();
  const opts = toolNames ? { toolNames, security } : { security };
  await b.registerMcpServer({ name: "everything", url: server.url, transport: server.mode }, opts);
  return b;
}

/** Invokes an MCP tool through `b` and returns its text; throws unless the call completed. */
export async function tgCall(b, tool, args) {
  const fc = await b.invoke({ function: `mcp__everything__${tool}`, arguments: args });
  if (fc.status !== "completed") throw new Error(`toolgate ${tool} failed: ${fc.status} ${fc.error?.message}`);
  return fc.response;
}

/** Calls an MCP tool through the official client and returns its first text content. */
export async function sdkCall(client, tool, args) {
  const res = await client.callTool({ name: tool, arguments: args });
  if (res.isError) throw new Error(`sdk ${tool} failed: ${JSON.stringify(res.content)}`);
  return res.content?.[0]?.text;
}
