// Figure 6b: 20 parallel 1-second calls on one server-everything (Streamable
// HTTP): its `trigger-long-running-operation` tool with {duration: 1, steps: 1}
// sleeps a second server-side. Wall time of all 20, toolgate (with the
// default pool, 5 connections per server, and with 20) beside the official
// client; the median of 3 rounds, each client connected and warmed first.
import { initialize } from "toolgate";
import { performance } from "node:perf_hooks";
import { median, row, emit } from "../common.mjs";
import { withServer, sdkClient, tgBranch, tgCall, sdkCall, SECURITY, SDK_NAME, SERVER_NAME } from "../mcp.mjs";

const PARALLEL = 20;
const ROUNDS = 3;
const TOOL = "trigger-long-running-operation";
const ARGS = { duration: 1, steps: 1 };

/** ms for PARALLEL concurrent calls of `call()`, each checked to have completed. */
async function wall(call) {
  const t0 = performance.now();
  const texts = await Promise.all(Array.from({ length: PARALLEL }, call));
  const ms = performance.now() - t0;
  if (!texts.every((t) => /completed/.test(t))) throw new Error(`a call did not complete: ${texts.find((t) => !/completed/.test(t))}`);
  return ms;
}

async function viaToolgate(tg, server, security) {
  const b = await tgBranch(tg, server, { toolNames: ["echo", TOOL], security });
  await tgCall(b, "echo", { message: "warm-up" });
  const ms = [];
  for (let r = 0; r < ROUNDS; r++) ms.push(await wall(() => tgCall(b, TOOL, ARGS)));
  await tg.mcp.cleanup();
  return median(ms);
}

async function viaSDK(server) {
  const client = await sdkClient(server);
  await sdkCall(client, "echo", { message: "warm-up" });
  const ms = [];
  for (let r = 0; r < ROUNDS; r++) ms.push(await wall(() => sdkCall(client, TOOL, ARGS)));
  await client.close();
  return median(ms);
}

const tg = await initialize();
const ms = await withServer("streamable-http", async (server) => ({
  sdk: await viaSDK(server),
  pool5: await viaToolgate(tg, server, SECURITY),
  pool20: await viaToolgate(tg, server, { ...SECURITY, maxConnectionsPerServer: PARALLEL }),
}));
const base = { figure: 6, unit: "ms wall", peer: SDK_NAME, peerValue: ms.sdk };
const name = `${PARALLEL} parallel 1-second MCP calls on one server, Streamable HTTP`;
emit([
  row({ ...base, id: "mcp-parallel-default", name: `${name}, default pool (5 per server)`, toolgate: ms.pool5, note: `${SERVER_NAME}'s ${TOOL} ${JSON.stringify(ARGS)}; median of ${ROUNDS} rounds` }),
  row({ ...base, id: "mcp-parallel-20", name: `${name}, maxConnectionsPerServer: ${PARALLEL}`, toolgate: ms.pool20 }),
]);
process.exit(0);
