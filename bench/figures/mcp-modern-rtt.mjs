// Figure 6e: the round trip of an MCP `echo` call on the modern wire (2026-07-28) through
// toolgate beside the official TS SDK v2 client in its dual-era mode, against the same TS SDK v2
// dual-era server (tests/node/mcp-era-servers.mjs's v2-dual, in a child process), measured as
// figure 6a measures the legacy one: median and p90 of 400 calls each (two rounds of 200 after
// 20 warm-up calls, in the order toolgate, SDK, SDK, toolgate so that neither always meets a
// colder server). The server counts the HTTP requests of each round; this process's CPU time
// over the timed calls gives the client's own work per call (the server runs in its own process).
import { initialize } from "toolgate";
import { quantile, row, emit, timeCalls, cpuMsSince } from "../common.mjs";
import { startEraProcess, sdk2Client, tgModernBranch, tgEra, sameRequests, MODERN, SDK2_NAME, SERVER2_NAME } from "../mcp-modern.mjs";

const COUNTS = { warmup: 20, calls: 200 };
const PER_ROUND = COUNTS.warmup + COUNTS.calls;

/** COUNTS.calls timed calls of one(i) after COUNTS.warmup untimed ones: {ms, cpu} (cpu: this process's ms over the timed calls). */
async function timedRound(one) {
  await timeCalls(one, { warmup: COUNTS.warmup, calls: 0 });
  const u0 = process.cpuUsage();
  const ms = await timeCalls(one, { warmup: 0, calls: COUNTS.calls });
  return { ms, cpu: cpuMsSince(u0) };
}

/** One round of toolgate's calls: {ms, cpu, requests} (the requests of the calls, registration not counted). */
async function viaToolgate(tg, srv) {
  const b = await tgModernBranch(tg, srv.url);
  if (tgEra(b) !== MODERN) throw new Error(`toolgate spoke ${tgEra(b)}, not ${MODERN}`);
  await srv.requests();
  const { ms, cpu } = await timedRound(async (i) => {
    const fc = await b.invoke({ function: "mcp__eras__echo", arguments: { text: `m${i}` } });
    if (fc.status !== "completed" || fc.response !== `m${i}`) throw new Error(`toolgate echo: ${fc.status} ${fc.error?.message ?? JSON.stringify(fc.response)}`);
  });
  const requests = await srv.requests();
  await tg.mcp.cleanup();
  return { ms, cpu, requests };
}

/** One round of the official client's calls, connected as its dual-era user connects it. */
async function viaSDK(srv) {
  const client = await sdk2Client(srv.url);
  if (client.getProtocolEra() !== "modern") throw new Error(`sdk spoke ${client.getProtocolEra()}, not ${MODERN}`);
  await srv.requests();
  const { ms, cpu } = await timedRound(async (i) => {
    const res = await client.callTool({ name: "echo", arguments: { text: `m${i}` } });
    if (res.isError || res.content?.[0]?.text !== `m${i}`) throw new Error(`sdk echo: ${JSON.stringify(res)}`);
  });
  const requests = await srv.requests();
  await client.close();
  return { ms, cpu, requests };
}

/** The requests one call sent, from rounds of PER_ROUND calls each: {count, methods}. */
function perCall(rounds, who) {
  const calls = [];
  for (const { requests } of rounds) {
    const n = requests.length / PER_ROUND;
    if (!Number.isInteger(n) || n < 1) throw new Error(`${who}: ${requests.length} requests for ${PER_ROUND} calls`);
    for (let i = 0; i < requests.length; i += n) calls.push(requests.slice(i, i + n));
  }
  return sameRequests(calls, who);
}

/** The CPU ms per timed call of rounds. */
const cpuPerCall = (rounds) => rounds.reduce((t, r) => t + r.cpu, 0) / rounds.reduce((n, r) => n + r.ms.length, 0);

const tg = await initialize();
const proc = await startEraProcess();
let rounds;
try {
  const srv = await proc.start();
  const a = await viaToolgate(tg, srv);
  const s = await viaSDK(srv);
  const s2 = await viaSDK(srv);
  const a2 = await viaToolgate(tg, srv);
  rounds = { tg: [a, a2], sdk: [s, s2] };
} finally {
  await proc.close();
}
const tgMs = rounds.tg.flatMap((r) => r.ms);
const sdkMs = rounds.sdk.flatMap((r) => r.ms);
const tgReq = perCall(rounds.tg, "toolgate");
const sdkReq = perCall(rounds.sdk, "sdk");
const base = { figure: 6, unit: "ms", peer: `${SDK2_NAME} "auto"` };
emit([
  row({
    ...base, id: "mcp-modern-echo-median", name: "MCP echo round trip, modern wire, median", toolgate: quantile(tgMs, 0.5), peerValue: quantile(sdkMs, 0.5),
    note: `${SERVER2_NAME} on 127.0.0.1; ${tgMs.length} calls each after warm-up`,
  }),
  row({ ...base, id: "mcp-modern-echo-p90", name: "MCP echo round trip, modern wire, p90", toolgate: quantile(tgMs, 0.9), peerValue: quantile(sdkMs, 0.9) }),
  row({
    ...base, unit: "ms CPU", id: "mcp-modern-echo-cpu", name: "client CPU per echo call, modern wire", toolgate: cpuPerCall(rounds.tg), peerValue: cpuPerCall(rounds.sdk),
    note: "this process's user + system time over the timed calls, per call",
  }),
  row({
    ...base, unit: "req", id: "mcp-modern-echo-requests", name: "HTTP requests per echo call, modern wire", toolgate: tgReq.count, peerValue: sdkReq.count,
    note: `toolgate: ${tgReq.methods}; SDK: ${sdkReq.methods}`,
  }),
]);
// The Go instance keeps a JS timer pending (its next scheduled wake-up): exit instead of waiting for it.
process.exit(0);
