// MCP tasks of the 2026-07-28 revision (the extension io.modelcontextprotocol/tasks: resultType
// "task", tasks/get, tasks/update, tasks/cancel) end to end through the packed package: a tool call
// the server runs as a task stays one b.invoke. The server is tests/servers/tasks-v2.mjs (SDK v2),
// which checks each tasks/* request against the official requester's schemas and the transport
// rules (its violations must stay empty); mcp-tasks-servers.test.mjs proves it with the official
// requester. Each test waits on what the server saw or did, never on the clock.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { BOUND, LOOPBACK, TARGETS, ASKS, stuck, startTasksServer } from "./mcp-tasks-helpers.mjs";

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

