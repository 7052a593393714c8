// A stateful Streamable HTTP host for SDK v1 McpServers in the MCP tests: one server per session,
// made by the test's build(), on 127.0.0.1 at a port the kernel picks. Node only.
import http from "node:http";
import { randomUUID } from "node:crypto";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

/** Serves build() per session; resolves to {url, stop}. */
export async function serveSdkV1(build) {
  const sessions = new Map();
  const httpServer = http.createServer(async (req, res) => {
    const id = req.headers["mcp-session-id"];
    let transport = id && sessions.get(id);
    if (!transport) {
      transport = new StreamableHTTPServerTransport({ sessionIdGenerator: randomUUID, onsessioninitialized: (sid) => sessions.set(sid, transport) });
      await build().connect(transport);
    }
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    stop: () => new Promise((resolve) => { httpServer.closeAllConnections(); httpServer.close(resolve); }),
  };
}
