// MCP tasks of the 2025-11-25 revision end to end through the packed package: a tool call the server
// runs as a task stays one b.invoke. server-everything's simulate-research-query
// (execution.taskSupport "required"; ambiguous: true asks for an elicitation through tasks/result),
// behind a recording proxy that shows which task methods toolgate sent; and progress, which
// server-everything's task never sends (and the 2026-07-28 extension has none of), from
// tests/servers/tasks-v1.mjs. The 2026-07-28 extension: mcp-tasks-extension.test.mjs. Each test
// waits on what a server saw or did, never on the clock. Everything listens on 127.0.0.1.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { startEverything } from "./mcp-servers.mjs";
import { BOUND, LOOPBACK, TARGETS, seen, stuck, startRecordingProxy, startProgressTasksServer } from "./mcp-tasks-helpers.mjs";

describe("MCP tasks on a 2025-11-25 server (server-everything, params.task, tasks/get, tasks/result)", () => {
  const TOOL = "mcp__ev__simulate-research-query";
  let ev;
  let proxy;
  before(async () => {
    ev = await startEverything("streamable-http");
    proxy = await startRecordingProxy(ev.url);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await proxy?.stop();
    await ev?.stop();
  });

  /** The messages toolgate sent from index from on, and the task id its polls name. */
  const since = (from) => proxy.sent.slice(from);
  const sentLater = (from, match) => seen(proxy.sent, proxy.events, "sent", (m) => proxy.sent.indexOf(m) >= from && match(m));

  test("a task-required tool is marked, exported everywhere, and completes through one b.invoke", BOUND, async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: proxy.url }, { security: LOOPBACK });
    const info = b.tools.get(TOOL).mcp;
    assert.equal(info.taskRequired, true);
    assert.equal(info.execution.taskSupport, "required");
    for (const target of TARGETS) {
      const { tools, report } = tg.toProvider(b, target);
      assert.ok(JSON.stringify(tools).includes("simulate-research-query"), `${target}: exported`);
      assert.deepEqual(report.changes.filter((c) => c.tool === TOOL && c.kind === "tool-left-out"), [], `${target}: not left out`);
    }
    const from = proxy.sent.length;
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides" } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.match(fc.response, /^# Research Report: tides\n/);
    const sent = since(from);
    const call = sent.find((m) => m.method === "tools/call");
    assert.equal(typeof call.params.task, "object", "the call asks for a task (params.task)");
    const polls = sent.filter((m) => m.method === "tasks/get");
    assert.ok(polls.length >= 1, "polled with tasks/get");
    const taskId = polls[0].params.taskId;
    assert.ok(polls.every((m) => m.params.taskId === taskId), "every poll names the one task");
    assert.deepEqual(sent.filter((m) => m.method === "tasks/result").map((m) => m.params.taskId), [taskId], "the result read once");
    assert.deepEqual(sent.filter((m) => m.method === "tasks/cancel"), []);
  });

  test("two tasks at once on one session each end with their own result", BOUND, async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: proxy.url }, { security: LOOPBACK, elicitation: async () => ({ action: "accept", content: { interpretation: "comedy" } }) });
    const [plain, asked] = await Promise.all([
      b.invoke({ function: TOOL, arguments: { topic: "tides" } }),
      b.invoke({ function: TOOL, arguments: { topic: "python", ambiguous: true } }),
    ]);
    assert.equal(plain.status, "completed", plain.error?.message);
    assert.equal(asked.status, "completed", asked.error?.message);
    assert.match(plain.response, /^# Research Report: tides\n/);
    assert.match(asked.response, /^# Research Report: python \(comedy\)\n/);
  });

  test("input_required: the elicitation sent through tasks/result reaches the hook, and its answer shapes the result", BOUND, async () => {
    const asked = [];
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: proxy.url }, {
      security: LOOPBACK,
      elicitation: async (params, { signal }) => {
        assert.ok(signal instanceof AbortSignal);
        asked.push(params);
        return { action: "accept", content: { interpretation: "snake" } };
      },
    });
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "python", ambiguous: true } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.match(fc.response, /^# Research Report: python \(snake\)\n/);
    assert.match(fc.response, /\*\*Clarification\*\*: snake/);
    assert.equal(asked.length, 1, "asked once");
    assert.match(asked[0].message, /^The research query "python" could have multiple interpretations/);
    const field = asked[0].requestedSchema.properties.interpretation;
    assert.deepEqual(field.oneOf.map((o) => o.const), ["programming", "snake", "comedy"]);
    assert.deepEqual(asked[0].requestedSchema.required, ["interpretation"]);
  });

  test("a declined elicitation is the server's to handle: the task goes on with its default", BOUND, async () => {
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: proxy.url }, { security: LOOPBACK, elicitation: async () => ({ action: "decline" }) });
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "python", ambiguous: true } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.match(fc.response, /User declined - using default interpretation/);
  });

  test("the caller's signal, aborted while the task waits for input, ends the call cancelled and the task with tasks/cancel", BOUND, async () => {
    const ctrl = new AbortController();
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: proxy.url }, { security: LOOPBACK, elicitation: stuck(() => ctrl.abort(new Error("user stop"))) });
    const from = proxy.sent.length;
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "python", ambiguous: true } }, { signal: ctrl.signal });
    assert.equal(fc.status, "cancelled");
    assert.equal(fc.error.message, "user stop");
    const get = await sentLater(from, (m) => m.method === "tasks/get");
    const { taskId } = get.params;
    await sentLater(from, (m) => m.method === "tasks/cancel" && m.params?.taskId === taskId);
    const read = await sentLater(from, (m) => m.method === "tasks/result");
    await sentLater(from, (m) => m.method === "notifications/cancelled" && m.params?.requestId === read.id);
    const answer = await proxy.ask(get.session, "tasks/get", { taskId });
    assert.equal(answer.result?.status, "cancelled", `the server's task: ${JSON.stringify(answer)}`);
  });

  // the elicitation is the server's own request on the tasks/result stream, named by related-task:
  // giving up the task stops its hook too, as 2026-07-28's input hooks stop with the call
  test("the hook answering a task's input is told to stop when the call is given up", BOUND, async () => {
    const ctrl = new AbortController();
    let hookSignal;
    const b = tg.branch();
    await b.registerMcpServer({ name: "ev", url: proxy.url }, {
      security: LOOPBACK,
      elicitation: (params, ctx) => {
        hookSignal = ctx.signal;
        return stuck(() => ctrl.abort(new Error("user stop")))(params, ctx);
      },
    });
    const from = proxy.sent.length;
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "python", ambiguous: true } }, { signal: ctrl.signal });
    assert.equal(fc.status, "cancelled");
    await new Promise((resolve) => (hookSignal.aborted ? resolve() : hookSignal.addEventListener("abort", resolve, { once: true })));
    await sentLater(from, (m) => m.method === "tasks/cancel");
    const answered = proxy.sent.slice(from).filter((m) => m.method === "response");
    assert.deepEqual(answered, [], "the abandoned elicitation is not answered");
  });
});


// server-everything's task sends no progress, and the 2026-07-28 extension has none for tasks
// ("notifications/progress ... are not supported on tasks"): progress is a 2025-11-25 task's, here
// from tests/servers/tasks-v1.mjs, whose notifications travel on the tasks/result stream.
describe("MCP task progress (2025-11-25: notifications/progress with the call's token, on the tasks/result stream)", () => {
  let srv;
  before(async () => {
    srv = await startProgressTasksServer();
  });
  after(async () => {
    await tg.mcp.cleanup();
    await srv?.stop();
  });

  test("each step's progress reaches onProgress, in order, before the call ends", BOUND, async () => {
    const registered = [];
    const perCall = [];
    const b = tg.branch();
    await b.registerMcpServer({ name: "count", url: srv.url }, { security: LOOPBACK, onProgress: (e) => registered.push(e) });
    assert.equal(b.tools.get("mcp__count__count").mcp.taskRequired, true);
    let ended = false;
    const fc = await b.invoke({ function: "mcp__count__count", arguments: { steps: 3 } }, {
      onProgress: (e) => {
        assert.equal(ended, false, "no progress after the call ends");
        perCall.push(e);
      },
    });
    ended = true;
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.equal(fc.response, "counted to 3");
    const want = [1, 2, 3].map((progress) => ({ server: "count", tool: "count", name: "mcp__count__count", progress, total: 3, message: `step ${progress}` }));
    assert.deepEqual(perCall, want);
    assert.deepEqual(registered, want);
  });
});
