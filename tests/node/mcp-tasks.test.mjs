// MCP tasks end to end through the packed package: a tool call the server runs as a task stays one
// b.invoke, on real servers of both eras. 2025-11-25: server-everything's simulate-research-query
// (execution.taskSupport "required"; ambiguous: true asks for an elicitation through tasks/result),
// behind a recording proxy that shows which task methods toolgate sent. 2026-07-28: the tasks
// extension server of tests/servers/tasks-v2.mjs (SDK v2), which checks each tasks/* request against
// the official requester's schemas (its violations must stay empty); mcp-tasks-servers.test.mjs
// proves that server with the official requester. Progress, which only a 2025-11-25 task carries,
// comes from tests/servers/tasks-v1.mjs (SDK v1). Each test waits on what a server saw or did,
// never on the clock. Everything listens on 127.0.0.1 and is stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { tg } from "./helpers.mjs";
import { startEverything } from "./mcp-servers.mjs";
import { CEILING_MS } from "./waits.mjs";

const root = process.env.TOOLGATE_ROOT;
if (!root) throw new Error("TOOLGATE_ROOT is not set: run the Node suites through make test-node");
const server = (file) => import(pathToFileURL(join(root, "tests/servers", file)).href);
const { startTasksServer, ASKS } = await server("tasks-v2.mjs");
const { startRecordingProxy } = await server("tasks-proxy.mjs");
const { startProgressTasksServer } = await server("tasks-v1.mjs");

const BOUND = { timeout: CEILING_MS };
const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true, timeoutMs: CEILING_MS });
const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];

/** Resolves with the first record of list (now or later, by event on emitter) that matches. */
function seen(list, emitter, event, match) {
  const found = list.find(match);
  if (found) return Promise.resolve(found);
  return new Promise((resolve) => {
    const on = (rec) => {
      if (!match(rec)) return;
      emitter.off(event, on);
      resolve(rec);
    };
    emitter.on(event, on);
  });
}

/** An elicitation hook that never answers: it ends only when its signal aborts. */
const stuck = (called) => (params, { signal }) =>
  new Promise((resolve) => {
    called(params);
    signal.addEventListener("abort", () => resolve({ action: "cancel" }), { once: true });
  });

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

describe("MCP tasks on a 2026-07-28 server (the tasks extension: resultType task, tasks/get, tasks/update, tasks/cancel)", () => {
  const TOOL = "mcp__lab__research";
  let lab;
  before(async () => {
    lab = await startTasksServer();
  });
  after(async () => {
    await tg.mcp.cleanup();
    await lab?.stop();
  });

  const requestOf = (from, match) => {
    const rec = lab.state.requests.slice(from).find((r) => match(r));
    return rec ? Promise.resolve(rec) : new Promise((resolve) => {
      const on = () => {
        const r = lab.state.requests.slice(from).find((x) => match(x));
        if (!r) return;
        lab.state.events.off("request", on);
        resolve(r);
      };
      lab.state.events.on("request", on);
    });
  };
  const statusOf = (task, status) => new Promise((resolve) => {
    const on = (t) => {
      if (t !== task || t.status !== status) return;
      lab.state.events.off("status", on);
      resolve();
    };
    lab.state.events.on("status", on);
    on(task);
  });
  /** The next task the server creates. */
  const nextTask = () => new Promise((resolve) => lab.state.events.once("created", resolve));
  const register = async (b, options = {}) => b.registerMcpServer({ name: "lab", url: lab.url }, { security: LOOPBACK, ...options });

  test("a task completes through one b.invoke; the tool is exported like any other; every tasks/* request meets the extension", BOUND, async () => {
    const b = tg.branch();
    await register(b);
    assert.equal(b.tools.get(TOOL).mcp.protocolVersion, "2026-07-28");
    for (const target of TARGETS) {
      assert.ok(JSON.stringify(tg.toProvider(b, target).tools).includes("research"), `${target}: exported`);
    }
    const from = lab.state.requests.length;
    const created = nextTask();
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", steps: 3 } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.equal(fc.response, "research on tides");
    const task = await created;
    assert.equal(task.status, "completed");
    const sent = lab.state.requests.slice(from);
    const call = sent.find((r) => r.method === "tools/call");
    assert.deepEqual(call.params._meta["io.modelcontextprotocol/clientCapabilities"].extensions?.["io.modelcontextprotocol/tasks"], {}, "the call declares the extension");
    const polls = sent.filter((r) => r.method === "tasks/get");
    assert.equal(polls.length, 3, "one poll per step, none after the end");
    assert.deepEqual(sent.filter((r) => r.method.startsWith("tasks/") && r.method !== "tasks/get"), []);
    assert.deepEqual(lab.state.violations, []);
  });

  test("tasks at once each end with their own result and input", BOUND, async () => {
    const b = tg.branch();
    await register(b, { elicitation: async () => ({ action: "accept", content: { interpretation: "technical" } }) });
    const runs = await Promise.all([
      b.invoke({ function: TOOL, arguments: { topic: "a", steps: 2 } }),
      b.invoke({ function: TOOL, arguments: { topic: "b", steps: 5, ask: ["elicitation"] } }),
      b.invoke({ function: TOOL, arguments: { topic: "c", steps: 1 } }),
      b.invoke({ function: "mcp__lab__echo", arguments: { text: "d" } }),
    ]);
    assert.deepEqual(runs.map((fc) => [fc.status, fc.response]), [
      ["completed", "research on a"],
      ["completed", "research on b; interpretation technical"],
      ["completed", "research on c"],
      ["completed", "d"],
    ]);
    assert.deepEqual(lab.state.violations, []);
  });

  test("a task id no header can carry as it is goes in Mcp-Name Base64-encoded (SEP-2243), and the task completes", BOUND, async () => {
    const b = tg.branch();
    await register(b);
    const ids = [
      ["tâche-", "", true], // not ASCII
      [" ", "", true], // a leading space
      ["=?base64?", "?=", true], // the sentinel itself
      ["=?base64?", "", false], // only its start: plain
      ["a b/c:", "", false],
    ];
    for (const [idPrefix, idSuffix, encoded] of ids) {
      const from = lab.state.requests.length;
      const created = nextTask();
      const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", steps: 1, idPrefix, idSuffix } });
      assert.equal(fc.status, "completed", `${JSON.stringify(idPrefix)}: ${fc.error?.message}`);
      const task = await created;
      const get = lab.state.requests.slice(from).find((r) => r.method === "tasks/get");
      assert.equal(get.headers["mcp-name"].startsWith("=?base64?") && get.headers["mcp-name"] !== task.taskId, encoded, `${JSON.stringify(task.taskId)} sent as ${get.headers["mcp-name"]}`);
    }
    assert.deepEqual(lab.state.violations, []);
  });

  test("the task's result reads as a plain call's: result full has no resultType", BOUND, async () => {
    const b = tg.branch();
    await register(b, { result: "full" });
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", steps: 1 } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.deepEqual(fc.response, { content: [{ type: "text", text: "research on tides" }], isError: false });
    const plain = await b.invoke({ function: "mcp__lab__echo", arguments: { text: "hi" } });
    assert.deepEqual(plain.response, { content: [{ type: "text", text: "hi" }] });
  });

  test("inputRequests go to the elicitation, sampling and roots hooks, once each; tasks/update carries the answers that shape the result", BOUND, async () => {
    const asked = [];
    const b = tg.branch();
    await register(b, {
      elicitation: async (params) => (asked.push(["elicitation", params]), { action: "accept", content: { interpretation: "historical" } }),
      sampling: async (params) => (asked.push(["sampling", params]), { role: "assistant", model: "m", content: { type: "text", text: "three sources" } }),
      roots: async () => (asked.push(["roots"]), [{ uri: "file:///srv/a" }, { uri: "file:///srv/b" }]),
    });
    const from = lab.state.requests.length;
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", ask: ["elicitation", "sampling", "roots"] } });
    assert.equal(fc.status, "completed", fc.error?.message);
    assert.equal(fc.response, "research on tides; interpretation historical; model three sources; roots file:///srv/a file:///srv/b");
    assert.deepEqual(asked.map(([k]) => k).sort(), ["elicitation", "roots", "sampling"], "each input asked once");
    assert.deepEqual(asked.find(([k]) => k === "elicitation")[1].requestedSchema, ASKS.elicitation.params.requestedSchema);
    assert.equal(asked.find(([k]) => k === "elicitation")[1].message, ASKS.elicitation.params.message);
    assert.deepEqual(asked.find(([k]) => k === "sampling")[1].messages, ASKS.sampling.params.messages);
    const updates = lab.state.requests.slice(from).filter((r) => r.method === "tasks/update");
    assert.equal(updates.length, 1);
    assert.deepEqual(Object.keys(updates[0].params.inputResponses).sort(), ["elicitation-1", "roots-1", "sampling-1"]);
    assert.deepEqual(lab.state.violations, []);
    assert.deepEqual(lab.state.ignored, []);
  });

  // The handle is the task's seed state, "typically (though not necessarily)" working, and a
  // CreateTaskResult carries no inputRequests: a task created input_required is polled for them (the
  // official requester does so: mcp-tasks-servers.test.mjs).
  test("a task created input_required is polled for its inputRequests, not refused as malformed", BOUND, async () => {
    const asked = [];
    const b = tg.branch();
    await register(b, { elicitation: async (params) => (asked.push(params), { action: "accept", content: { interpretation: "technical" } }) });
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", ask: ["elicitation"], seedInput: true } });
    assert.equal(fc.status, "completed", `${fc.error?.rule}: ${fc.error?.message}`);
    assert.equal(fc.response, "research on tides; interpretation technical");
    assert.equal(asked.length, 1);
    assert.deepEqual(lab.state.violations, []);
  });

  test("a task that has ended before its handle goes out is read with tasks/get", BOUND, async () => {
    const b = tg.branch();
    await register(b);
    const done = await b.invoke({ function: TOOL, arguments: { topic: "tides", seedDone: true } });
    assert.equal(done.status, "completed", `${done.error?.rule}: ${done.error?.message}`);
    assert.equal(done.response, "research on tides");
    const failed = await b.invoke({ function: TOOL, arguments: { topic: "tides", seedDone: true, fail: true } });
    assert.equal(failed.error?.rule, "task-failed", `${failed.error?.rule}: ${failed.error?.message}`);
    assert.equal(failed.error.transport?.rpcCode, -32603);
  });

  test("the caller's signal ends a running task: the call is cancelled and the server gets tasks/cancel", BOUND, async () => {
    const ctrl = new AbortController();
    const b = tg.branch();
    await register(b);
    const from = lab.state.requests.length;
    const created = nextTask();
    const pending = b.invoke({ function: TOOL, arguments: { topic: "tides", hold: true } }, { signal: ctrl.signal });
    const task = await created;
    await requestOf(from, (r) => r.method === "tasks/get" && r.params.taskId === task.taskId);
    ctrl.abort(new Error("user stop"));
    const fc = await pending;
    assert.equal(fc.status, "cancelled");
    assert.equal(fc.error.message, "user stop");
    await statusOf(task, "cancelled");
    const cancels = lab.state.requests.slice(from).filter((r) => r.method === "tasks/cancel");
    assert.deepEqual(cancels.map((r) => r.params.taskId), [task.taskId]);
    assert.deepEqual(lab.state.violations, []);
  });

  test("the caller's signal, aborted while a hook answers the task's input, stops the hook and cancels the task", BOUND, async () => {
    const ctrl = new AbortController();
    let hookSignal;
    const b = tg.branch();
    await register(b, {
      elicitation: (params, ctx) => {
        hookSignal = ctx.signal;
        return stuck(() => ctrl.abort(new Error("user stop")))(params, ctx);
      },
    });
    const created = nextTask();
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", ask: ["elicitation"] } }, { signal: ctrl.signal });
    assert.equal(fc.status, "cancelled");
    assert.equal(fc.error.message, "user stop");
    assert.equal(hookSignal.aborted, true, "the hook is told to stop with the call");
    await statusOf(await created, "cancelled");
    assert.deepEqual(lab.state.violations, []);
  });

  test("a task the server cancels fails the call (transport, task-cancelled), quoting its statusMessage", BOUND, async () => {
    const b = tg.branch();
    await register(b);
    const from = lab.state.requests.length;
    const created = nextTask();
    const pending = b.invoke({ function: TOOL, arguments: { topic: "tides", hold: true } });
    const task = await created;
    await requestOf(from, (r) => r.method === "tasks/get" && r.params.taskId === task.taskId);
    task.status = "cancelled";
    task.statusMessage = "the lab closed";
    const fc = await pending;
    assert.equal(fc.status, "failed");
    assert.equal(fc.error.code, "transport");
    assert.equal(fc.error.rule, "task-cancelled");
    assert.equal(fc.error.tool, TOOL);
    assert.ok(fc.error.message.includes("the lab closed"), fc.error.message);
    assert.deepEqual(lab.state.requests.slice(from).filter((r) => r.method === "tasks/cancel"), [], "nothing to cancel");
  });

  test("a signal that times out ends the call cancelled with TimeoutError and sends tasks/cancel", BOUND, async () => {
    const b = tg.branch();
    await register(b);
    const from = lab.state.requests.length;
    const created = nextTask();
    // what AbortSignal.timeout does, once the task is polled (a timer could fire before the task exists)
    const ctrl = new AbortController();
    const pending = b.invoke({ function: TOOL, arguments: { topic: "tides", hold: true } }, { signal: ctrl.signal });
    const task = await created;
    await requestOf(from, (r) => r.method === "tasks/get" && r.params.taskId === task.taskId);
    ctrl.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
    const fc = await pending;
    assert.equal(fc.status, "cancelled");
    assert.equal(fc.error.name, "TimeoutError");
    await statusOf(task, "cancelled");
    assert.deepEqual(lab.state.violations, []);
  });

  test("timeoutMs passing on a poll fails the call with timeout and cancels the task", BOUND, async () => {
    const b = tg.branch();
    await register(b, { security: { ...LOOPBACK, timeoutMs: 10000 } });
    const created = nextTask();
    // stall: the server answers tasks/get only once the task has ended, so only timeoutMs ends the poll
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", stall: true } });
    assert.equal(fc.error?.code, "timeout", `got ${fc.status} ${fc.error?.code}: ${fc.error?.message}`);
    assert.equal(fc.error.tool, TOOL);
    const task = await created;
    await statusOf(task, "cancelled");
    assert.deepEqual(lab.state.violations, []);
  });

  test("a task the server has forgotten (tasks/get -32602) fails the call with that error, naming the tool", BOUND, async () => {
    const b = tg.branch();
    await register(b);
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", vanish: true } });
    assert.equal(fc.status, "failed");
    assert.equal(fc.error.code, "transport");
    assert.equal(fc.error.transport?.rpcCode, -32602);
    assert.equal(fc.error.tool, TOOL);
  });

  test("a hook's answer that breaks the requested schema is never sent: the call fails and the task is cancelled", BOUND, async () => {
    const b = tg.branch();
    await register(b, { elicitation: async () => ({ action: "accept", content: { interpretation: "astrological" } }) });
    const from = lab.state.requests.length;
    const created = nextTask();
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", ask: ["elicitation"] } });
    assert.equal(fc.status, "failed");
    assert.equal(fc.error.tool, TOOL);
    await statusOf(await created, "cancelled");
    assert.deepEqual(lab.state.requests.slice(from).filter((r) => r.method === "tasks/update"), [], "no answer sent");
    assert.deepEqual(lab.state.violations, []);
  });

  test("a failed task fails the call with the server's JSON-RPC error (transport, task-failed)", BOUND, async () => {
    const b = tg.branch();
    await register(b);
    const fc = await b.invoke({ function: TOOL, arguments: { topic: "tides", steps: 1, fail: true } });
    assert.equal(fc.status, "failed");
    assert.equal(fc.error.code, "transport");
    assert.equal(fc.error.rule, "task-failed");
    assert.equal(fc.error.tool, TOOL);
    assert.equal(fc.error.transport?.rpcCode, -32603);
    assert.equal(fc.error.transport?.rpcMessage, "research on tides failed");
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
