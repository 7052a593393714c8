// An MCP server of the 2026-07-28 revision serving the tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663), written with the official TypeScript SDK v2 (createMcpHandler, stateless per request).
// The SDK has no tasks extension of its own: this file declares the extension in server/discover,
// answers tools/call of its long tool with a task handle (resultType "task") when the request's
// client capabilities declare the extension (error -32021 when they do not), and serves tasks/get,
// tasks/update and tasks/cancel. Every tasks/* request is checked against the official requester's
// wire schemas (@modelcontextprotocol/ext-tasks core/v2) and the spec's transport rules (Mcp-Method,
// Mcp-Name = taskId, the extension declared); each breach is recorded in state.violations, so a test
// asserts a client spoke the extension correctly, not only that it ended well.
//
// A task advances one step per tasks/get (never by a timer): a test waits on what the client does,
// never on the clock. Node only; listens on 127.0.0.1, the kernel picks the port.
//
//   node tests/servers/tasks-v2.mjs     prints the URL and serves until killed
import http from "node:http";
import { EventEmitter } from "node:events";
import { randomUUID } from "node:crypto";
import { pathToFileURL } from "node:url";
import * as z from "zod/v4";
import * as v2 from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import {
  TASKS_EXTENSION_ID_V2 as TASKS,
  GetTaskRequestV2Schema,
  UpdateTaskRequestV2Schema,
  CancelTaskRequestV2Schema,
  ElicitResultV2Schema,
  CreateMessageResultV2Schema,
  ListRootsResultV2Schema,
  GetTaskResultV2Schema,
  hasTaskClientCapabilityV2,
} from "@modelcontextprotocol/ext-tasks/core/v2";

/** The JSON-RPC code of a request the server cannot serve without a client capability (the spec's -32021). */
export const MISSING_CAPABILITY = -32021;

/** The request schema of each tasks/* method, from the official requester package. */
const REQUEST_SCHEMAS = {
  "tasks/get": GetTaskRequestV2Schema,
  "tasks/update": UpdateTaskRequestV2Schema,
  "tasks/cancel": CancelTaskRequestV2Schema,
};

/** The schema an answer to each kind of input request must meet. */
const ANSWER_SCHEMAS = {
  "elicitation/create": ElicitResultV2Schema,
  "sampling/createMessage": CreateMessageResultV2Schema,
  "roots/list": ListRootsResultV2Schema,
};

/** What the research tool asks for, by the client capability each kind needs. */
export const ASKS = {
  elicitation: {
    method: "elicitation/create",
    params: {
      mode: "form",
      message: "Which sense of the topic do you mean?",
      requestedSchema: {
        type: "object",
        properties: { interpretation: { type: "string", enum: ["technical", "historical"] } },
        required: ["interpretation"],
      },
    },
  },
  sampling: {
    method: "sampling/createMessage",
    params: { messages: [{ role: "user", content: { type: "text", text: "Summarise the sources." } }], maxTokens: 50 },
  },
  roots: { method: "roots/list" },
};

const TERMINAL = new Set(["completed", "failed", "cancelled"]);

const RESEARCH = {
  description: "Researches a topic as a task: one step per poll, asking the client for input on the way when told to.",
  inputSchema: z.object({
    topic: z.string(),
    /** Steps before the result (each tasks/get advances one). */
    steps: z.number().int().min(1).max(100).optional(),
    /** Input the task asks for at its first step, of the kinds the client declared. */
    ask: z.array(z.enum(["elicitation", "sampling", "roots"])).optional(),
    /** Never advances: ends only by tasks/cancel. */
    hold: z.boolean().optional(),
    /** Never advances, and tasks/get answers only once the task has ended (tasks/cancel): a client's timeoutMs passes. */
    stall: z.boolean().optional(),
    /** Start and end of the task id around a random middle: a test's choice of characters for the Mcp-Name header. */
    idPrefix: z.string().max(100).optional(),
    idSuffix: z.string().max(100).optional(),
    /** The task is created input_required already: the handle says so, and only tasks/get carries its inputRequests. */
    seedInput: z.boolean().optional(),
    /** The task has ended (completed, or failed with fail) before its handle goes out: only tasks/get carries the outcome. */
    seedDone: z.boolean().optional(),
    /** The server forgets the task after its handle: tasks/get answers -32602, as for a purged task. */
    vanish: z.boolean().optional(),
    /** Ends failed (a JSON-RPC error) instead of completed. */
    fail: z.boolean().optional(),
  }),
};

/** The text of one answer, for the result: what the client's hook said. */
function told(kind, answer) {
  if (kind === "elicitation") return answer.action === "accept" ? `interpretation ${answer.content?.interpretation}` : `elicitation ${answer.action}`;
  if (kind === "sampling") return `model ${answer.content?.type === "text" ? answer.content.text : JSON.stringify(answer.content)}`;
  return `roots ${answer.roots.map((r) => r.uri).join(" ")}`;
}

/** The task's wire shape for tasks/get (DetailedTask), without resultType and _meta (the SDK adds them). */
function detailed(task) {
  const t = {
    taskId: task.taskId,
    status: task.status,
    statusMessage: task.statusMessage,
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.status === "input_required") t.inputRequests = Object.fromEntries(Object.entries(task.outstanding).map(([key, o]) => [key, o.request]));
  if (task.status === "completed") t.result = task.result;
  if (task.status === "failed") t.error = task.error;
  return t;
}

/** Moves a task to a status, stamping lastUpdatedAt and telling state.events ("status", task). */
function setStatus(state, task, status, statusMessage) {
  task.status = status;
  task.statusMessage = statusMessage;
  task.lastUpdatedAt = new Date().toISOString();
  state.events.emit("status", task);
}

/** One tasks/get: a working task advances one step; the last step ends it. */
function advance(state, task) {
  if (task.status !== "working" || task.args.hold || task.args.stall) return;
  if (task.step === 0 && task.asks.length > 0 && Object.keys(task.answers).length === 0) {
    task.round++;
    for (const kind of task.asks) task.outstanding[`${kind}-${task.round}`] = { kind, request: ASKS[kind] };
    setStatus(state, task, "input_required", `waiting for ${task.asks.join(", ")}`);
    return;
  }
  task.step++;
  if (task.step < task.steps) {
    setStatus(state, task, "working", `step ${task.step} of ${task.steps}`);
    return;
  }
  if (task.args.fail) {
    task.error = { code: -32603, message: `research on ${task.args.topic} failed` };
    setStatus(state, task, "failed", task.error.message);
    return;
  }
  const parts = [`research on ${task.args.topic}`, ...Object.entries(task.answers).map(([k, a]) => told(k, a))];
  // a whole CallToolResult of the revision, resultType included, as the official requester reads it
  task.result = { resultType: "complete", content: [{ type: "text", text: parts.join("; ") }], isError: false };
  setStatus(state, task, "completed", "done");
}

/** Resolves once the task is in a terminal status. */
function ended(state, task) {
  return new Promise((resolve) => {
    const check = (t) => {
      if (t !== task || !TERMINAL.has(t.status)) return;
      state.events.off("status", check);
      resolve();
    };
    state.events.on("status", check);
    check(task);
  });
}

/** A protocol error the SDK writes as the JSON-RPC error of the request. */
const refuse = (code, message, data) => new v2.ProtocolError(code, message, data);

const missingExtension = (method) =>
  refuse(MISSING_CAPABILITY, `${method} needs the client capability extensions["${TASKS}"]`, { requiredCapabilities: { extensions: { [TASKS]: {} } } });

/** The task a tasks/* request names, or the spec's -32602. */
function findTask(state, method, taskId) {
  const task = state.tasks.get(taskId);
  if (!task) throw refuse(-32602, `${method}: no task ${taskId}`);
  return task;
}

/** The capability envelope the request declared (its _meta), as the SDK lifted it. */
const declared = (ctx) => ctx.mcpReq.envelope?.["io.modelcontextprotocol/clientCapabilities"] ?? {};

const taskParams = z.object({ taskId: z.string() }).passthrough();

/** One McpServer per request, all reading and writing the same tasks (state.tasks). */
function factory(state) {
  return () => {
    const server = new v2.McpServer({ name: "tasks-v2", version: "1.0.0" }, { capabilities: { tools: {}, extensions: { [TASKS]: {} } } });
    server.registerTool("echo", { description: "Echoes its text at once (never a task).", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: "text", text }],
    }));
    server.registerTool("research", RESEARCH, async (args, ctx) => {
      const caps = declared(ctx); // the extension is declared: refuseUndeclared answered the others
      const now = new Date().toISOString();
      const task = {
        taskId: (args.idPrefix ?? "") + randomUUID() + (args.idSuffix ?? ""),
        args,
        steps: args.steps ?? 3,
        step: 0,
        round: 0,
        asks: (args.ask ?? []).filter((kind) => caps[kind] !== undefined),
        outstanding: {},
        answers: {},
        status: "working",
        statusMessage: "started",
        createdAt: now,
        lastUpdatedAt: now,
        ttlMs: 300000,
        pollIntervalMs: state.pollIntervalMs,
      };
      if (args.seedInput) advance(state, task); // asks at once (step 0), before the handle goes out
      while (args.seedDone && !TERMINAL.has(task.status) && task.status !== "input_required") advance(state, task);
      if (!args.vanish) state.tasks.set(task.taskId, task);
      state.events.emit("created", task);
      const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs } = task;
      return { resultType: "task", taskId, status, statusMessage, createdAt, lastUpdatedAt, ttlMs, pollIntervalMs };
    });
    server.server.setRequestHandler("tasks/get", { params: taskParams }, async ({ taskId }, ctx) => {
      if (!hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope })) throw missingExtension("tasks/get");
      const task = findTask(state, "tasks/get", taskId);
      if (task.args.stall) await ended(state, task);
      advance(state, task);
      const answer = detailed(task);
      const checked = GetTaskResultV2Schema.safeParse({ ...answer, resultType: "complete" });
      if (!checked.success) throw refuse(-32603, `tasks-v2 wrote an invalid task: ${checked.error.message}`);
      return answer;
    });
    server.server.setRequestHandler("tasks/update", { params: taskParams }, async ({ taskId }, ctx) => {
      const inputResponses = ctx.mcpReq.inputResponses; // the SDK lifts params.inputResponses (the MRTR key) out of params
      if (!hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope })) throw missingExtension("tasks/update");
      const task = findTask(state, "tasks/update", taskId);
      for (const [key, answer] of Object.entries(inputResponses ?? {})) {
        const o = task.outstanding[key];
        if (!o) {
          state.ignored.push({ taskId, key }); // the spec: ignore keys not outstanding
          continue;
        }
        const ok = ANSWER_SCHEMAS[o.request.method].safeParse(answer);
        if (!ok.success) {
          state.violations.push({ method: "tasks/update", taskId, problem: `the answer to ${key} (${o.request.method}) is invalid: ${ok.error.message}` });
          continue;
        }
        task.answers[o.kind] = answer;
        delete task.outstanding[key];
      }
      if (task.status === "input_required" && Object.keys(task.outstanding).length === 0) setStatus(state, task, "working", "answered");
      return {};
    });
    server.server.setRequestHandler("tasks/cancel", { params: taskParams }, async ({ taskId }, ctx) => {
      if (!hasTaskClientCapabilityV2({ _meta: ctx.mcpReq.envelope })) throw missingExtension("tasks/cancel");
      const task = findTask(state, "tasks/cancel", taskId);
      if (!TERMINAL.has(task.status)) setStatus(state, task, "cancelled", "cancelled by the client");
      return {};
    });
    return server;
  };
}

/**
 * A header value as SEP-2243 writes it: "=?base64?…?=" is the Base64 of the UTF-8 value (used for a
 * value that is not plain visible ASCII, has edge spaces, or itself looks like the sentinel).
 */
function headerValue(v) {
  const m = typeof v === "string" && /^=\?base64\?(.*)\?=$/.exec(v);
  return m ? Buffer.from(m[1], "base64").toString("utf8") : v;
}

/** Checks one tasks/* message against the official schemas and the transport rules; records each breach. */
function check(state, req, msg) {
  const method = msg.method;
  const problems = [];
  const parsed = REQUEST_SCHEMAS[method].safeParse(msg);
  if (!parsed.success) problems.push(`not a ${method} request of the extension: ${parsed.error.message}`);
  const taskId = msg.params?.taskId;
  if (req.headers["mcp-method"] !== method) problems.push(`Mcp-Method header ${JSON.stringify(req.headers["mcp-method"])}, want ${method}`);
  if (headerValue(req.headers["mcp-name"]) !== taskId) problems.push(`Mcp-Name header ${JSON.stringify(req.headers["mcp-name"])}, want the taskId ${JSON.stringify(taskId)}`);
  if (!hasTaskClientCapabilityV2(msg.params)) problems.push("the request's _meta does not declare the tasks extension");
  for (const problem of problems) state.violations.push({ method, taskId, problem });
}

/**
 * The -32021 answer to a tools/call of research that does not declare the extension, written here
 * because McpServer turns whatever a tool throws into an isError result.
 */
function refuseUndeclared(res, msg) {
  if (msg?.method !== "tools/call" || msg.params?.name !== "research" || hasTaskClientCapabilityV2(msg.params)) return false;
  const e = missingExtension("research");
  res.writeHead(200, { "content-type": "application/json" });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: e.code, message: e.message, data: e.data } }));
  return true;
}

/** Reads a request body as JSON (undefined when it is not JSON: the SDK answers that). */
async function readJSON(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * Starts the server on 127.0.0.1. Resolves to {url, state, stop()}. state: tasks (taskId → task,
 * with status, answers, args), requests ({method, params, headers} per JSON-RPC request, in order),
 * violations ({method, taskId, problem} per breach of the extension's wire), ignored (input answers
 * to keys not outstanding), and events: "request" (msg), "created" (task), "status" (task).
 * Options: pollIntervalMs the tasks suggest (default 10).
 */
export async function startTasksServer({ pollIntervalMs = 10 } = {}) {
  const state = { pollIntervalMs, tasks: new Map(), requests: [], violations: [], ignored: [], events: new EventEmitter() };
  state.events.setMaxListeners(100);
  const handler = v2.createMcpHandler(factory(state), { legacy: "reject" });
  const serve = toNodeHandler(handler);
  const httpServer = http.createServer(async (req, res) => {
    const body = req.method === "POST" ? await readJSON(req) : undefined;
    for (const msg of [body].flat()) {
      if (!msg?.method || msg.id === undefined) continue;
      state.requests.push({ method: msg.method, params: msg.params, headers: { ...req.headers } });
      if (REQUEST_SCHEMAS[msg.method]) check(state, req, msg);
      state.events.emit("request", msg);
    }
    if (refuseUndeclared(res, body)) return;
    serve(req, res, body).catch((e) => {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    });
  });
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    state,
    /** The methods of the requests so far, in order. */
    methods: () => state.requests.map((r) => r.method),
    stop: async () => {
      await handler.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { url } = await startTasksServer();
  console.log(url);
}
