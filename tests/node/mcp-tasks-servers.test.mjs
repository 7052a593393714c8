// The task tests' servers checked with the official tasks requester, @modelcontextprotocol/ext-tasks,
// over the official SDK v2 client, not with toolgate. tests/servers/tasks-v2.mjs (2026-07-28): a
// task created, polled, answered (elicitation, sampling, roots through tasks/update) and completed,
// a task cancelled, and the -32021 refusal of a client that does not declare the extension. The
// 2025-11-25 one, tests/servers/tasks-v1.mjs: its counting task. A failure here is the server's,
// never toolgate's; mcp-tasks.test.mjs then holds toolgate to the same servers.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { once } from "node:events";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, createApplicationInputHandler, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { BOUND, MISSING_CAPABILITY, startTasksServer, startProgressTasksServer } from "./mcp-tasks-helpers.mjs";

const VERSION = "2026-07-28";
const INFO = { name: "ext-tasks-check", version: "1.0.0" };
const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

/** Sends one framed request as the requester asks (rawDispatch): POST, the standard headers, JSON or SSE back. */
function rawDispatchTo(url) {
  let id = 0;
  return async (request, options = {}) => {
    const msg = { jsonrpc: "2.0", id: `raw-${++id}`, ...request };
    const p = msg.params ?? {};
    const name = msg.method === "tools/call" ? p.name : p.taskId;
    const headers = new Headers({
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": VERSION,
      "mcp-method": msg.method,
      ...(name === undefined ? {} : { "mcp-name": name }),
    });
    for (const [k, v] of Object.entries(options.context?.headers ?? {})) headers.set(k, v); // the requester's own Mcp-Name
    const res = await fetch(url, { method: "POST", headers, body: JSON.stringify(msg), signal: options.signal });
    const text = await res.text();
    const messages = res.headers.get("content-type")?.startsWith("text/event-stream")
      ? text.split("\n").filter((l) => l.startsWith("data:") && l.slice(5).trim() !== "").map((l) => JSON.parse(l.slice(5)))
      : [JSON.parse(text)];
    const answer = messages.find((m) => m.id === msg.id);
    if (!answer) throw new Error(`no answer to ${msg.method} (HTTP ${res.status}): ${text}`);
    return answer.error ? { kind: "error", error: answer.error } : { kind: "result", result: answer.result };
  };
}

/** A connected SDK v2 client and an ext-tasks session over it whose input handlers answer as toolgate's hooks do in the tests. */
async function session(url, asked) {
  const client = new Client(INFO, { capabilities: CAPABILITIES, versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  assert.equal(client.getProtocolEra(), "modern");
  const s = createTaskSessionFromClient(client, {
    endpointId: "tasks-v2",
    rawDispatch: rawDispatchTo(url),
    v2RequestFraming: { protocolVersion: VERSION, clientInfo: INFO, clientCapabilities: CAPABILITIES },
    onInputRequest: createApplicationInputHandler({
      elicitation: async (r) => (asked.push(["elicitation", r.params]), { action: "accept", content: { interpretation: "historical" } }),
      sampling: async (r) => (asked.push(["sampling", r.params]), { role: "assistant", model: "m", content: { type: "text", text: "three sources" } }),
      roots: async () => (asked.push(["roots"]), { roots: [{ uri: "file:///srv/a" }] }),
    }),
  });
  return { client, s, close: async () => { await s.close(); await client.close(); } };
}

describe("the tasks-v2 server answers the official tasks requester (ext-tasks 0.2.2)", () => {
  let srv;
  before(async () => {
    srv = await startTasksServer();
  });
  after(async () => {
    await srv?.stop();
  });

  test("a task is created, polled step by step, and its result delivered", BOUND, async () => {
    const asked = [];
    const { s, close } = await session(srv.url, asked);
    try {
      const execution = await s.callTool("research", { topic: "tides", steps: 3 });
      assert.equal(execution.kind, "task");
      const { outcome } = await execution.settle();
      assert.deepEqual(resultFromTaskOutcome(outcome).content, [{ type: "text", text: "research on tides" }]);
      assert.deepEqual(asked, []);
      const methods = srv.methods().filter((m) => m.startsWith("tasks/"));
      assert.ok(methods.length >= 3 && methods.every((m) => m === "tasks/get"), `got ${methods}`);
      assert.deepEqual(srv.state.violations, []);
    } finally {
      await close();
    }
  });

  test("input requests reach the requester's handlers and their answers shape the result", BOUND, async () => {
    const asked = [];
    const { s, close } = await session(srv.url, asked);
    try {
      const execution = await s.callTool("research", { topic: "tides", ask: ["elicitation", "sampling", "roots"] });
      const { outcome } = await execution.settle();
      assert.deepEqual(resultFromTaskOutcome(outcome).content, [
        { type: "text", text: "research on tides; interpretation historical; model three sources; roots file:///srv/a" },
      ]);
      assert.deepEqual(asked.map(([k]) => k).sort(), ["elicitation", "roots", "sampling"]);
      assert.equal(asked.find(([k]) => k === "elicitation")[1].message, "Which sense of the topic do you mean?");
      assert.ok(srv.methods().includes("tasks/update"));
      assert.deepEqual(srv.state.violations, []);
      assert.deepEqual(srv.state.ignored, []);
    } finally {
      await close();
    }
  });

  test("a task created input_required (its handle has no inputRequests) is polled for them and answered", BOUND, async () => {
    const asked = [];
    const { s, close } = await session(srv.url, asked);
    try {
      const execution = await s.callTool("research", { topic: "tides", ask: ["elicitation"], seedInput: true });
      const { outcome } = await execution.settle();
      assert.deepEqual(resultFromTaskOutcome(outcome).content, [{ type: "text", text: "research on tides; interpretation historical" }]);
      assert.deepEqual(asked.map(([k]) => k), ["elicitation"]);
      assert.deepEqual(srv.state.violations, []);
    } finally {
      await close();
    }
  });

  test("a task that has ended before its handle goes out is read with tasks/get", BOUND, async () => {
    const { s, close } = await session(srv.url, []);
    try {
      const execution = await s.callTool("research", { topic: "tides", seedDone: true });
      const { outcome } = await execution.settle();
      assert.deepEqual(resultFromTaskOutcome(outcome).content, [{ type: "text", text: "research on tides" }]);
    } finally {
      await close();
    }
  });

  test("a held task ends cancelled by tasks/cancel", BOUND, async () => {
    const { s, close } = await session(srv.url, []);
    try {
      const created = once(srv.state.events, "created");
      const execution = await s.callTool("research", { topic: "tides", hold: true });
      const [task] = await created;
      await execution.cancel();
      assert.equal(srv.state.tasks.get(task.taskId).status, "cancelled");
      const cancels = srv.state.requests.filter((r) => r.method === "tasks/cancel");
      assert.deepEqual(cancels.map((r) => r.params.taskId), [task.taskId]);
      assert.deepEqual(srv.state.violations, []);
    } finally {
      await close();
    }
  });

  test("a client that does not declare the extension is refused with -32021, naming it", BOUND, async () => {
    const client = new Client(INFO, { capabilities: CAPABILITIES, versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    try {
      await assert.rejects(client.callTool({ name: "research", arguments: { topic: "tides" } }), (e) => {
        assert.equal(e.code, MISSING_CAPABILITY);
        assert.deepEqual(e.data, { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } });
        return true;
      });
      assert.deepEqual((await client.callTool({ name: "echo", arguments: { text: "hi" } })).content, [{ type: "text", text: "hi" }]);
    } finally {
      await client.close();
    }
  });
});

describe("the 2025-11-25 task server answers the official tasks requester (ext-tasks 0.2.2, legacy era)", () => {
  /** A legacy-era session (no rawDispatch: the SDK client carries 2025-11-25 tasks itself). */
  async function legacySession(url) {
    const client = new Client(INFO, { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: "auto" } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    assert.equal(client.getProtocolEra(), "legacy");
    const s = createTaskSessionFromClient(client, {
      endpointId: "legacy",
      onInputRequest: createApplicationInputHandler({
        elicitation: async () => assert.fail("no elicitation is asked"),
        sampling: async () => assert.fail("no sampling is asked"),
        roots: async () => assert.fail("no roots are asked"),
      }),
    });
    return { s, close: async () => { await s.close(); await client.close(); } };
  }

  test("tasks-v1's counting task completes", BOUND, async () => {
    const srv = await startProgressTasksServer();
    const { s, close } = await legacySession(srv.url);
    try {
      const execution = await s.callTool("count", { steps: 3 });
      assert.equal(execution.kind, "task");
      const { outcome } = await execution.settle();
      assert.deepEqual(resultFromTaskOutcome(outcome).content, [{ type: "text", text: "counted to 3" }]);
    } finally {
      await close();
      await srv.stop();
    }
  });
});
