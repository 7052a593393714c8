// Figure 6d: registerMcpServer on the modern wire (2026-07-28), against the TS SDK v2 dual-era
// server (tests/node/mcp-era-servers.mjs's v2-dual, in a child process), beside the official v2
// client in its dual-era mode (versionNegotiation "auto") doing what its user does to get the
// tools: a new Client and transport, connect (its server/discover probe), listTools().
//
//   first on an origin: every sample on a new server (a new port, so a new origin: toolgate has
//     no cached era for it and probes) for each side.
//   era cached: one server; toolgate registered on it once before (untimed), so each sample is a
//     new branch's registration with the era cached. The official client has no cache of its
//     own across clients: "auto" probes at every connect; beside it, the same client connected
//     from a verdict its user kept (connect({prior}), the SDK's own cached-era path).
//
// toolgate's pool is emptied (tg.mcp.cleanup()) after every sample and each official client is
// closed, neither timed: each registration builds its connection state anew, as a new client
// does. HTTP keep-alive is the same for both, since both send with Node's global fetch.
// Medians of SAMPLES after WARMUP, the sides taken in turn in a rotating order. The server counts
// the HTTP requests of every sample; each side must send the same ones every time. Beside the
// time, the CPU this process used while registering (the client's own work: the server runs in
// its own process), which a loaded machine inflates less than the wall time.
import { initialize } from "toolgate";
import { performance } from "node:perf_hooks";
import { median, row, emit, spread, cpuMsSince } from "../common.mjs";
import { num } from "../table.mjs";
import { startEraProcess, sdk2Client, tgModernBranch, tgEra, sameRequests, MODERN, SDK2_NAME, SERVER2_NAME } from "../mcp-modern.mjs";

const WARMUP = 3;
const SAMPLES = 40;

/**
 * One timed registration by `side` on `srv`: {ms, cpu, requests, closing, tools, era}. `side(url)`
 * resolves to {tools, era, close}; requests are those the server got while it ran, closing those
 * it got from close() (untimed).
 */
async function sample(side, srv) {
  await srv.requests(); // whatever came before is not this sample's
  const u0 = process.cpuUsage();
  const t0 = performance.now();
  const got = await side(srv.url);
  const ms = performance.now() - t0;
  const cpu = cpuMsSince(u0);
  const requests = await srv.requests();
  await got.close();
  return { ms, cpu, requests, closing: await srv.requests(), tools: got.tools, era: got.era };
}

/** The sides, by name: each registers on `url` and resolves to {tools, era, close}. */
function sides(tg, prior) {
  return {
    toolgate: async (url) => {
      const b = await tgModernBranch(tg, url);
      return { tools: b.tools.size, era: tgEra(b), close: () => tg.mcp.cleanup() };
    },
    sdk: async (url) => {
      const client = await sdk2Client(url);
      const { tools } = await client.listTools();
      return { tools: tools.length, era: client.getProtocolEra(), close: () => client.close() };
    },
    ...(prior && {
      sdkPrior: async (url) => {
        const client = await sdk2Client(url, prior);
        const { tools } = await client.listTools();
        return { tools: tools.length, era: client.getProtocolEra(), close: () => client.close() };
      },
    }),
  };
}

/**
 * Runs WARMUP + SAMPLES rounds, each side once a round in a rotating order; `server(round)`
 * resolves to the server a sample is taken on and `done(srv)` is called after it. Resolves to
 * {side: [samples]} (warm-ups left out); checks that every sample saw the modern era and the
 * same number of tools.
 */
async function rounds(named, server, done) {
  const names = Object.keys(named);
  const out = Object.fromEntries(names.map((n) => [n, []]));
  for (let r = 0; r < WARMUP + SAMPLES; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length];
      const srv = await server();
      const s = await sample(named[name], srv);
      await done(srv);
      const era = s.era === "modern" ? MODERN : s.era;
      if (era !== MODERN) throw new Error(`${name} spoke ${s.era}, not ${MODERN}`);
      if (r >= WARMUP) out[name].push(s);
    }
  }
  const tools = new Set(Object.values(out).flat().map((s) => s.tools));
  if (tools.size !== 1) throw new Error(`the sides saw different tool lists: ${[...tools].join(", ")} tools`);
  return { ...out, tools: [...tools][0] };
}

/** The requests summary of a side's samples, and a note of what closing sent (if anything). */
function traffic(samples, who) {
  const during = sameRequests(samples.map((s) => s.requests), who);
  const closing = sameRequests(samples.map((s) => s.closing), `${who} closing`);
  return { ...during, closingNote: closing.count ? `; closing sent ${closing.methods}` : "" };
}

const tg = await initialize();
const proc = await startEraProcess();
const rows = [];
const base = { figure: 6, unit: "ms" };
try {
  // First registration on an origin: a new server per sample and side.
  const cold = await rounds(sides(tg), () => proc.start(), (srv) => srv.stop());
  const coldTg = traffic(cold.toolgate, "toolgate");
  const coldSdk = traffic(cold.sdk, "sdk");
  rows.push(
    row({
      ...base, id: "mcp-modern-register-first", name: "registerMcpServer, modern wire, first on an origin (probe + tools/list)",
      toolgate: median(cold.toolgate.map((s) => s.ms)), peer: `${SDK2_NAME} "auto": connect + listTools`, peerValue: median(cold.sdk.map((s) => s.ms)),
      note: `${SERVER2_NAME} on 127.0.0.1, ${cold.tools} tools, a new server (origin) per sample; toolgate's pool emptied and each SDK client closed after it (untimed); toolgate ${spread(cold.toolgate.map((s) => s.ms))} ms`,
    }),
    row({
      ...base, unit: "req", id: "mcp-modern-register-first-requests", name: "HTTP requests per registration, modern wire, first on an origin",
      toolgate: coldTg.count, peer: `${SDK2_NAME} "auto": connect + listTools`, peerValue: coldSdk.count,
      note: `toolgate: ${coldTg.methods}${coldTg.closingNote}; SDK: ${coldSdk.methods}${coldSdk.closingNote}`,
    }),
  );

  // Era cached: one server, registered on once before.
  const srv = await proc.start();
  const firstTg = await sample(sides(tg).toolgate, srv);
  if (!firstTg.requests.includes("POST server/discover")) throw new Error(`toolgate's first registration on the origin sent no probe: ${firstTg.requests.join(", ")}`);
  const first = await sdk2Client(srv.url);
  const prior = { kind: "modern", discover: first.getDiscoverResult() };
  await first.close();
  const warm = await rounds(sides(tg, prior), async () => srv, async () => {});
  await srv.stop();
  const warmTg = traffic(warm.toolgate, "toolgate");
  const warmSdk = traffic(warm.sdk, "sdk");
  const warmPrior = traffic(warm.sdkPrior, "sdk with prior");
  const tgMs = median(warm.toolgate.map((s) => s.ms));
  rows.push(
    row({
      ...base, id: "mcp-modern-register-cached", name: "registerMcpServer, modern wire, era cached (a new branch)",
      toolgate: tgMs, peer: `${SDK2_NAME} "auto": connect + listTools`, peerValue: median(warm.sdk.map((s) => s.ms)),
      note: `${SERVER2_NAME} on 127.0.0.1, ${warm.tools} tools, toolgate registered on it once before, its pool emptied after each sample (untimed); toolgate ${spread(warm.toolgate.map((s) => s.ms))} ms`,
    }),
    row({
      ...base, id: "mcp-modern-register-cached-prior", name: "registerMcpServer, modern wire, era cached (a new branch)",
      toolgate: tgMs, peer: `${SDK2_NAME}: connect({prior}) + listTools`, peerValue: median(warm.sdkPrior.map((s) => s.ms)),
      note: "the official client given the discover result of an earlier connection: no probe",
    }),
    row({
      ...base, unit: "ms CPU", id: "mcp-modern-register-cached-cpu", name: "client CPU per registration, modern wire, era cached",
      toolgate: median(warm.toolgate.map((s) => s.cpu)), peer: `${SDK2_NAME} "auto": connect + listTools`, peerValue: median(warm.sdk.map((s) => s.cpu)),
      note: `this process's user + system time during the registration, medians; the SDK with prior: ${num(median(warm.sdkPrior.map((s) => s.cpu)))} ms`,
    }),
    row({
      ...base, unit: "req", id: "mcp-modern-register-cached-requests", name: "HTTP requests per registration, modern wire, era cached",
      toolgate: warmTg.count, peer: `${SDK2_NAME} "auto": connect + listTools`, peerValue: warmSdk.count,
      note: `toolgate: ${warmTg.methods}${warmTg.closingNote}; SDK: ${warmSdk.methods}${warmSdk.closingNote}; SDK with prior: ${warmPrior.methods} (${warmPrior.count})${warmPrior.closingNote}`,
    }),
  );
} finally {
  await proc.close();
}
emit(rows);
// The Go instance keeps a JS timer pending (its next scheduled wake-up): exit instead of waiting for it.
process.exit(0);
