// What the MCP task tests share: the task servers (tests/servers/tasks-*.mjs, from the repository at
// TOOLGATE_ROOT, which make test-node sets), the policy, and waits on what a server saw. Node only.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { CEILING_MS } from "./waits.mjs";

const root = process.env.TOOLGATE_ROOT;
if (!root) throw new Error("TOOLGATE_ROOT is not set: run the Node suites through make test-node");
const server = (file) => import(pathToFileURL(join(root, "tests/servers", file)).href);
export const { startTasksServer, ASKS, MISSING_CAPABILITY } = await server("tasks-v2.mjs");
export const { startRecordingProxy } = await server("tasks-proxy.mjs");
export const { startProgressTasksServer } = await server("tasks-v1.mjs");

export const BOUND = { timeout: CEILING_MS };
export const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true, timeoutMs: CEILING_MS });
export const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];

/** Resolves with the first record of list (now or later, by event on emitter) that matches. */
export function seen(list, emitter, event, match) {
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

/** An elicitation hook that never answers: it calls called(params), then ends only when its signal aborts. */
export const stuck = (called) => (params, { signal }) =>
  new Promise((resolve) => {
    called(params);
    signal.addEventListener("abort", () => resolve({ action: "cancel" }), { once: true });
  });
