// Budgets for what an MCP server can make us do (docs/security.md, "Budgets"), against a hostile
// server on loopback in a child process (storm-server.mjs): a list-change storm over a large tool
// list that changes every time, and a flood of progress and log notifications. Each scenario
// measures this process's event loop while it runs and holds its longest stall under a bound
// stated as a ratio to an idle baseline measured in the same run, with a floor for a loaded
// machine: stall ≤ max(STALL_RATIO × baseline, STALL_FLOOR_MS). Before the budgets the
// registration and one refresh of 200 tools of 4 KB each blocked the loop for seconds. A call to
// an unrelated server must complete during each storm. (The byte budget's waits are asserted by
// mcp/budgets_test.go with a clock of its own: how fast a loaded machine reads decides whether a
// flood of this size outruns it.)
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { eventually } from "./waits.mjs";
import { startStorm, measureLoop } from "./storm-server.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
/** The stall bound: this many times the idle baseline's longest stall… */
const STALL_RATIO = 10;
/**
 * …but never under this many ms: a loaded machine stalls an idle loop too, and under js/wasm Go's
 * garbage collector finishes a mark phase in one go whenever every goroutine waits (docs/security.md,
 * "Budgets"). Without the budgets the storm below stalled 5.9 s on the same machine.
 */
const STALL_FLOOR_MS = 2000;

const stats = () => tg[Symbol.for("toolgate.debug")].mcpStats();

/** The longest stall of an idle second of this process. */
async function idleBaseline() {
  const m = await measureLoop();
  await new Promise((r) => setTimeout(r, 1000)); // the measuring window itself, not a wait for a state
  return m.stop().maxStallMs;
}

/** Asserts a storm's longest stall is within the bound of the baseline; reports the numbers. */
function assertStall(t, what, measured, baseline) {
  const bound = Math.max(STALL_RATIO * baseline, STALL_FLOOR_MS);
  t.diagnostic(`${what}: longest stall ${measured.maxStallMs.toFixed(0)} ms (idle ${baseline.toFixed(0)} ms, bound ${bound.toFixed(0)} ms), blocked ${(100 * measured.blockedRatio).toFixed(0)}% of ${(measured.ms / 1000).toFixed(1)} s`);
  assert.ok(measured.maxStallMs <= bound, `${what}: the event loop stalled ${measured.maxStallMs.toFixed(0)} ms, want ≤ ${bound.toFixed(0)} ms (max(${STALL_RATIO} × idle ${baseline.toFixed(0)} ms, ${STALL_FLOOR_MS} ms))`);
}

describe("MCP budgets", () => {
  let plain, b;
  before(async () => {
    plain = await startStorm({ tools: 2, schemaBytes: 100, selfTrigger: false });
    b = tg.branch();
    await b.registerMcpServer({ name: "plain", url: plain.url }, { security: LOOPBACK });
    assert.equal((await b.invoke({ function: "mcp__plain__t0", arguments: {} })).status, "completed"); // warm
  });
  after(async () => {
    await tg.mcp.cleanup();
    await plain?.stop();
  });

  /** Calls the unrelated server, one call at a time, until `until` settles; resolves to the statuses. */
  function unrelatedCalls(until) {
    const statuses = [];
    const run = (async () => {
      let done = false;
      until.then(() => (done = true));
      while (!done) {
        statuses.push((await b.invoke({ function: "mcp__plain__t1", arguments: {} })).status);
        await new Promise((r) => setTimeout(r, 20)); // the load generator's own pace, not a wait for a state
      }
      return statuses;
    })();
    return run;
  }

  test("a list-change storm over a changing list of 200 large tools leaves the event loop free", async (t) => {
    const storm = await startStorm({ tools: 200, schemaBytes: 4096, intervalMs: 100, selfTrigger: true, vary: true });
    try {
      const baseline = await idleBaseline();
      const s0 = stats();
      const changes = [];
      const m = await measureLoop();
      let stormDone;
      const calls = unrelatedCalls(new Promise((r) => (stormDone = r)));
      const sb = tg.branch(); // its own branch: its 200 tools go with it
      await sb.registerMcpServer({ name: "storm", url: storm.url }, { security: LOOPBACK, onToolsChanged: (e) => changes.push(e) });
      await eventually("a refresh of the whole list", () => changes.some((c) => c.changed?.length === 200));
      stormDone();
      const statuses = await calls;
      const measured = m.stop();
      assertStall(t, "list-change storm", measured, baseline);
      assert.ok(statuses.length > 0 && statuses.every((s) => s === "completed"), `calls to the unrelated server during the storm: ${statuses}`);
      await eventually("the next refresh waits for the registration's budget", () => stats().refreshesDelayed > s0.refreshesDelayed);
      const s1 = stats();
      assert.ok(s1.refreshesCoalesced > s0.refreshesCoalesced, "notifications during a refresh or its wait are folded into one");
      assert.ok(s1.listChanged - s0.listChanged > s1.toolRefreshes - s0.toolRefreshes, "fewer refreshes than notifications");
    } finally {
      await storm.stop();
    }
  });

  test("a storm over an unchanged list reuses every tool", async () => {
    const storm = await startStorm({ tools: 100, schemaBytes: 4096, intervalMs: 100, selfTrigger: false });
    try {
      const changes = [];
      const sb = tg.branch();
      await sb.registerMcpServer({ name: "same", url: storm.url }, { security: LOOPBACK, onToolsChanged: (e) => changes.push(e) });
      const before = stats().toolsReused;
      await eventually("a refresh", () => changes.length >= 1);
      assert.deepEqual(changes[0], { server: "same", added: [], removed: [], changed: [] });
      assert.equal(stats().toolsReused - before, 100, "each unchanged descriptor keeps its tool");
      assert.equal(sb.schemaList.length, 100);
    } finally {
      await storm.stop();
    }
  });

  test("a flood of progress and log notifications is read within its byte budget", async (t) => {
    const PROGRESS = 1500;
    const LOGS = 1500; // 3,000 notifications of 2 KB: 6 MB, past the 4 MiB burst
    const storm = await startStorm({ tools: 1, selfTrigger: false, progress: PROGRESS, logs: LOGS, noteBytes: 2048 });
    try {
      const fb = tg.branch();
      await fb.registerMcpServer({ name: "flood", url: storm.url }, { security: LOOPBACK, qualify: false, toolNames: ["flood", "other"] });
      assert.equal((await fb.invoke({ function: "other", arguments: {} })).status, "completed"); // warm
      const baseline = await idleBaseline();
      const s0 = stats();
      const m = await measureLoop();
      let progress = 0;
      const flood = fb.invoke({ function: "flood", arguments: {} }, { onProgress: () => progress++ });
      const statuses = await unrelatedCalls(flood);
      const fc = await flood;
      const measured = m.stop();
      assert.equal(fc.status, "completed", `${fc.error?.code}: ${fc.error?.message}`);
      assertStall(t, "notification flood", measured, baseline);
      assert.ok(statuses.length > 0 && statuses.every((s) => s === "completed"), `calls to the unrelated server during the flood: ${statuses}`);
      const s1 = stats();
      assert.equal(progress, PROGRESS, "every progress notification within the count cap is delivered");
      assert.equal(s1.notificationsIgnored - s0.notificationsIgnored, LOGS);
    } finally {
      await storm.stop();
    }
  });
});
