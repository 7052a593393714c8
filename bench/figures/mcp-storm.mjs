// The hostile-server soak (issue 22, docs/security.md "Budgets"): a server that declares
// listChanged, sends notifications/tools/list_changed every 300 ms and lists 900 tools of 4 KB
// (onToolsChanged given), for STORM_SECONDS; then one call flooded with 20,000 progress
// notifications of 2 KB. For each: the longest event-loop stall, the share of the time the loop
// was blocked, and the latency of calls to an unrelated server meanwhile. The server runs in a
// child process (tests/node/storm-server.mjs), so its own work is not counted. Past the 4 MiB
// burst the flood is read at 512 KiB/s, so 40 MB outlasts the call's 60 s timeoutMs: the row names
// the status the call ended with.
import { initialize } from "toolgate";
import { row, emit, median } from "../common.mjs";
import { startStorm, measureLoop } from "../../test/storm-server.mjs";

const STORM_SECONDS = 20;
const LOOPBACK = { allowUrls: true, allowLoopbackHttp: true };
const tg = await initialize();
const plain = await startStorm({ tools: 2, schemaBytes: 100, selfTrigger: false });
const b = tg.branch();
await b.registerMcpServer({ name: "plain", url: plain.url }, { security: LOOPBACK });
await b.invoke({ function: "mcp__plain__t0", arguments: {} });

/** Calls the unrelated server every 50 ms until done() is true; resolves to the latencies. */
async function unrelated(done) {
  const lat = [];
  while (!done()) {
    const t0 = performance.now();
    const fc = await b.invoke({ function: "mcp__plain__t0", arguments: {} });
    if (fc.status !== "completed") throw fc.error;
    lat.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 50));
  }
  return lat;
}

const rows = [];
function report(id, what, m, lat) {
  rows.push(row({ id: `${id}-stall`, figure: "storm", name: `${what}: longest event-loop stall`, unit: "ms", toolgate: Math.round(m.maxStallMs) }));
  rows.push(row({ id: `${id}-blocked`, figure: "storm", name: `${what}: event loop blocked`, unit: "%", toolgate: Math.round(100 * m.blockedRatio) }));
  rows.push(row({ id: `${id}-call-p50`, figure: "storm", name: `${what}: unrelated call, median`, unit: "ms", toolgate: Math.round(median(lat)) }));
  rows.push(row({ id: `${id}-call-max`, figure: "storm", name: `${what}: unrelated call, worst`, unit: "ms", toolgate: Math.round(Math.max(...lat)) }));
}

{
  const storm = await startStorm({ tools: 900, schemaBytes: 4096, intervalMs: 300, selfTrigger: false });
  const m = await measureLoop();
  const until = performance.now() + STORM_SECONDS * 1000;
  const calls = unrelated(() => performance.now() > until);
  await b.registerMcpServer({ name: "storm", url: storm.url }, { security: LOOPBACK, onToolsChanged: () => {} });
  const lat = await calls;
  report("storm-900", "list-change storm, 900 tools of 4 KB", m.stop(), lat);
  await tg.mcp.cleanup();
  await storm.stop();
}
{
  const storm = await startStorm({ tools: 1, selfTrigger: false, progress: 20000, noteBytes: 2048 });
  const fb = tg.branch();
  await fb.registerMcpServer({ name: "flood", url: storm.url }, { security: LOOPBACK, qualify: false, toolNames: ["flood"] });
  const m = await measureLoop();
  let done = false;
  const flood = fb.invoke({ function: "flood", arguments: {} }, { onProgress: () => {} }).finally(() => (done = true));
  const lat = await unrelated(() => done);
  const fc = await flood;
  report("flood-20k", `progress flood, 20,000 of 2 KB (${fc.status})`, m.stop(), lat);
  await storm.stop();
}
await tg.mcp.cleanup();
await plain.stop();
emit(rows);
