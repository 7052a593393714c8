// A 2025-11-25 MCP server whose task reports progress, for the task tests: server-everything's
// task tool sends no notifications/progress, so this one (the official TypeScript SDK v1, stateful
// Streamable HTTP sessions, its experimental tasks: InMemoryTaskStore and message queue) has one
// tool, "count", with execution.taskSupport "required". A task advances one step per tasks/get the
// client sends (never by a timer) and each step queues notifications/progress with the call's
// progressToken, related to the task: the SDK delivers them on the tasks/result stream, where a
// 2025-11-25 task's messages travel. Node only; listens on 127.0.0.1, the kernel picks the port.
import http from "node:http";
import { randomUUID } from "node:crypto";
import * as z from "zod/v4";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { InMemoryTaskStore, InMemoryTaskMessageQueue } from "@modelcontextprotocol/sdk/experimental/tasks";

const TASKS = { list: {}, cancel: {}, requests: { tools: { call: {} } } };

/** One session's server: its own task store and queue, as server-everything has. */
function sessionServer(tasks, stores) {
  const taskStore = new InMemoryTaskStore();
  stores.push(taskStore);
  const server = new McpServer({ name: "tasks-v1", version: "1.0.0" }, { capabilities: { tools: {}, tasks: TASKS }, taskStore, taskMessageQueue: new InMemoryTaskMessageQueue() });
  server.experimental.tasks.registerToolTask("count", {
    description: "Counts to steps as a task, one step per poll, reporting progress.",
    inputSchema: { steps: z.number().int().min(1).max(100) },
    execution: { taskSupport: "required" },
  }, {
    createTask: async ({ steps }, extra) => {
      const task = await extra.taskStore.createTask({ ttl: 300000, pollInterval: 10 });
      tasks.set(task.taskId, { server, store: extra.taskStore, steps, step: 0, progressToken: extra._meta?.progressToken });
      return { task };
    },
    getTask: async (_args, extra) => extra.taskStore.getTask(extra.taskId),
    getTaskResult: async (_args, extra) => extra.taskStore.getTaskResult(extra.taskId),
  });
  return { server, taskStore };
}

/** One step of a task, before its tasks/get is answered: progress queued for it, and the last step ends it. */
async function advance(rec, taskId) {
  if (rec.step >= rec.steps) return;
  rec.step++;
  if (rec.progressToken !== undefined) {
    await rec.server.server.notification(
      { method: "notifications/progress", params: { progressToken: rec.progressToken, progress: rec.step, total: rec.steps, message: `step ${rec.step}` } },
      { relatedTask: { taskId } },
    );
  }
  if (rec.step < rec.steps) await rec.store.updateTaskStatus(taskId, "working", `step ${rec.step} of ${rec.steps}`);
  else await rec.store.storeTaskResult(taskId, "completed", { content: [{ type: "text", text: `counted to ${rec.steps}` }] });
}

/** Starts the server. Resolves to {url, stop()}. */
export async function startProgressTasksServer() {
  const sessions = new Map();
  const tasks = new Map();
  const stores = [];
  const httpServer = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
    if (body?.method === "tasks/get" && tasks.has(body.params?.taskId)) await advance(tasks.get(body.params.taskId), body.params.taskId);
    const id = req.headers["mcp-session-id"];
    let s = id && sessions.get(id);
    if (!s) {
      const { server } = sessionServer(tasks, stores);
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sid) => sessions.set(sid, s),
        onsessionclosed: (sid) => sessions.delete(sid),
      });
      s = { server, transport };
      await server.connect(transport);
    }
    await s.transport.handleRequest(req, res, body);
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    stop: async () => {
      for (const store of stores) store.cleanup(); // each task's ttl timer would hold the process
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}
