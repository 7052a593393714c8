// The child process of the modern-wire MCP figures (bench/mcp-modern.mjs starts it): the Node
// tests' era servers (tests/node/mcp-era-servers.mjs), served here so that, as server-everything
// in the legacy figures, the server's work runs in a process of its own and not on the client's
// event loop. Driven over the IPC channel, one message per operation, each answered with its seq:
//   {seq, op: "start", kind}      starts a server of `kind` (a new port: a new origin) → {seq, server, url}
//   {seq, op: "requests", server} → {seq, requests}: one line per HTTP request the server got since
//                                   the last "requests" ("POST tools/list", "GET", ...)
//   {seq, op: "stop", server}     stops it → {seq}
// It exits when the parent disconnects.
//
// The servers' keep-alive timeout is raised from Node's 5 s to KEEP_ALIVE_MS: on a loaded
// machine the bench process can stall for seconds between two calls, and past the server's
// timeout the next request on the idle socket races the server closing it and fails ("fetch
// failed: other side closed"), on the official client as on toolgate.
import diagnosticsChannel from "node:diagnostics_channel";
import { loadEraServers } from "./common.mjs";

const KEEP_ALIVE_MS = 60_000;
diagnosticsChannel.subscribe("http.server.request.start", ({ server }) => {
  server.keepAliveTimeout = KEEP_ALIVE_MS;
});

const { startEraServer } = await loadEraServers();
const servers = new Map();
let next = 1;

const OPS = {
  async start({ kind }) {
    const srv = await startEraServer(kind);
    const server = next++;
    servers.set(server, { srv, taken: 0 });
    return { server, url: srv.url };
  },
  requests({ server }) {
    const s = servers.get(server);
    const requests = s.srv.state.requests.slice(s.taken);
    s.taken += requests.length;
    return { requests };
  },
  async stop({ server }) {
    await servers.get(server).srv.stop();
    servers.delete(server);
    return {};
  },
};

process.on("message", async (msg) => {
  try {
    if (!OPS[msg.op]) throw new Error(`unknown op ${msg.op}`);
    process.send({ seq: msg.seq, ...(await OPS[msg.op](msg)) });
  } catch (e) {
    process.send({ seq: msg.seq, error: e.stack ?? String(e) });
  }
});

process.on("disconnect", async () => {
  for (const { srv } of servers.values()) await srv.stop();
  process.exit(0);
});

process.send({ ready: true });
