// Figure 6c: registerMcpServer (connect + tools/list, on a fresh branch, the
// pool emptied before each) beside the official client's connect + listTools
// (a new Client and transport each time), over Streamable HTTP and SSE:
// medians of 15 after 2 warm-ups; closing is not timed.
import { initialize } from "toolgate";
import { performance } from "node:perf_hooks";
import { median, row, emit, spread } from "../common.mjs";
import { withServer, sdkClient, tgBranch, SDK_NAME, SERVER_NAME } from "../mcp.mjs";

const WARMUP = 2;
const SAMPLES = 15;

/** ms of `once()` (which resolves to [value, close]) SAMPLES times after WARMUP, closing untimed. */
async function timeEach(once) {
  const ms = [];
  for (let i = 0; i < WARMUP + SAMPLES; i++) {
    const t0 = performance.now();
    const close = await once();
    if (i >= WARMUP) ms.push(performance.now() - t0);
    await close();
  }
  return ms;
}

async function measure(tg, server) {
  let tools = 0;
  const tgMs = await timeEach(async () => {
    const b = await tgBranch(tg, server);
    return () => {
      tools = b.tools.size;
      return tg.mcp.cleanup();
    };
  });
  const sdkMs = await timeEach(async () => {
    const client = await sdkClient(server);
    if ((await client.listTools()).tools.length !== tools) throw new Error("the SDK and toolgate see different tool lists");
    return () => client.close();
  });
  return { tgMs, sdkMs, tools };
}

const tg = await initialize();
const rows = [];
for (const mode of ["streamable-http", "sse"]) {
  const { tgMs, sdkMs, tools } = await withServer(mode, (server) => measure(tg, server));
  const label = mode === "sse" ? "SSE" : "Streamable HTTP";
  rows.push(row({
    id: `mcp-register-${mode}`, figure: 6, unit: "ms", name: `registerMcpServer (connect + list), ${label}`,
    toolgate: median(tgMs), peer: `${SDK_NAME} connect + listTools`, peerValue: median(sdkMs),
    note: `${SERVER_NAME}, ${tools} tools; toolgate ${spread(tgMs)} ms`,
  }));
}
emit(rows);
process.exit(0);
