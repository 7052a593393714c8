// Figure 6a: the round trip of an MCP `echo` call through toolgate beside
// the official TypeScript client, against the same server-everything process,
// over Streamable HTTP and SSE: median and p90 of 400 calls each (two rounds
// of 200 after 20 warm-up calls, in the order toolgate, SDK, SDK, toolgate so
// that neither always meets a colder server).
import { initialize } from "toolgate";
import { quantile, row, emit, timeCalls } from "../common.mjs";
import { withServer, sdkClient, tgBranch, tgCall, sdkCall, SDK_NAME, SERVER_NAME } from "../mcp.mjs";

const WARMUP = 20;
const CALLS = 200;

const COUNTS = { warmup: WARMUP, calls: CALLS };

async function viaToolgate(tg, server) {
  const b = await tgBranch(tg, server, { toolNames: ["echo"] });
  const ms = await timeCalls(async (i) => {
    if ((await tgCall(b, "echo", { message: `m${i}` })) !== `Echo: m${i}`) throw new Error("toolgate echo: wrong answer");
  }, COUNTS);
  await tg.mcp.cleanup();
  return ms;
}

async function viaSDK(server) {
  const client = await sdkClient(server);
  const ms = await timeCalls(async (i) => {
    if ((await sdkCall(client, "echo", { message: `m${i}` })) !== `Echo: m${i}`) throw new Error("sdk echo: wrong answer");
  }, COUNTS);
  await client.close();
  return ms;
}

/** The rows of one transport: median and p90, toolgate beside the SDK. */
async function transportRows(tg, mode) {
  const { tgMs, sdkMs } = await withServer(mode, async (server) => {
    const a = await viaToolgate(tg, server);
    const s = await viaSDK(server);
    const s2 = await viaSDK(server);
    const a2 = await viaToolgate(tg, server);
    return { tgMs: [...a, ...a2], sdkMs: [...s, ...s2] };
  });
  const label = mode === "sse" ? "SSE" : "Streamable HTTP";
  const base = { figure: 6, unit: "ms", peer: SDK_NAME };
  const note = `${SERVER_NAME} on 127.0.0.1; ${tgMs.length} calls each after warm-up`;
  return [
    row({ ...base, id: `mcp-echo-${mode}-median`, name: `MCP echo round trip, ${label}, median`, toolgate: quantile(tgMs, 0.5), peerValue: quantile(sdkMs, 0.5), note }),
    row({ ...base, id: `mcp-echo-${mode}-p90`, name: `MCP echo round trip, ${label}, p90`, toolgate: quantile(tgMs, 0.9), peerValue: quantile(sdkMs, 0.9) }),
  ];
}

const tg = await initialize();
const rows = [];
for (const mode of ["streamable-http", "sse"]) rows.push(...(await transportRows(tg, mode)));
emit(rows);
// The Go instance keeps a JS timer pending (its next scheduled wake-up): exit instead of waiting for it.
process.exit(0);
