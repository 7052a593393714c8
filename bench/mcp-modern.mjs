// What the modern-wire MCP figures (bench/figures/mcp-modern-*.mjs) share: the TS SDK v2
// dual-era server of the Node tests in a child process (bench/era-server-child.mjs), the official
// TS SDK v2 client in its dual-era mode, a toolgate branch on the same server, and the server's
// own count of the HTTP requests it got. Node only.
import { fork } from "node:child_process";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { BENCH_DIR, versionOf } from "./common.mjs";
import { SECURITY } from "./mcp.mjs";

/** The revision of the modern wire. */
export const MODERN = "2026-07-28";

export const SDK2_NAME = `@modelcontextprotocol/client ${versionOf("@modelcontextprotocol/client")}`;
export const SERVER2_NAME = `@modelcontextprotocol/server ${versionOf("@modelcontextprotocol/server")} dual-era (createMcpHandler)`;

/** The era server kind the figures measure against (tests/node/mcp-era-servers.mjs). */
const KIND = "v2-dual";

/**
 * Starts the era servers' child process. Resolves, once it is ready, to {start(), close()}:
 * start() serves one more v2-dual server on a new port (a new origin) and resolves to
 * {url, requests(), stop()}, where requests() resolves to the lines of the HTTP requests that
 * server got since the last requests() ("POST tools/list", ...); close() stops them all and
 * resolves when the child has exited.
 */
export function startEraProcess({ startTimeoutMs = 30000 } = {}) {
  const child = fork(join(BENCH_DIR, "era-server-child.mjs"), [], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  const pending = new Map();
  let seq = 0;
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  const ask = (op, args) =>
    new Promise((resolve, reject) => {
      seq++;
      pending.set(seq, { resolve, reject });
      child.send({ seq, op, ...args });
    });
  const start = async () => {
    const { server, url } = await ask("start", { kind: KIND });
    return { url, requests: async () => (await ask("requests", { server })).requests, stop: () => ask("stop", { server }) };
  };
  const close = async () => {
    if (child.connected) child.disconnect();
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`bench: the era servers' process did not start within ${startTimeoutMs} ms`));
    }, startTimeoutMs);
    child.on("message", ({ ready, seq: s, error, ...answer }) => {
      if (ready) {
        clearTimeout(timer);
        resolve({ start, close });
        return;
      }
      const p = pending.get(s);
      pending.delete(s);
      if (error) p?.reject(new Error(`era server: ${error}`));
      else p?.resolve(answer);
    });
    exited.then((code) => {
      clearTimeout(timer);
      const e = new Error(`bench: the era servers' process exited with ${code}`);
      for (const p of pending.values()) p.reject(e);
      pending.clear();
      reject(e);
    });
  });
}

/**
 * An official v2 client connected to `url` as a user of the dual-era mode connects it:
 * versionNegotiation "auto" (a server/discover probe, then the era it found), or from a cached
 * verdict when `prior` ({kind: "modern", discover}) is given.
 */
export async function sdk2Client(url, prior) {
  const client = new Client({ name: "toolgate-bench", version: "0.0.0" }, { versionNegotiation: { mode: "auto" } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)), prior ? { prior } : undefined);
  return client;
}

/** A new toolgate branch with the server at `url` registered as `name` (its tools discovered). */
export async function tgModernBranch(tg, url, name = "eras") {
  const b = tg.branch();
  await b.registerMcpServer({ name, url }, { security: SECURITY });
  return b;
}

/** The protocol revision every tool of `b` was discovered with; throws when they differ. */
export function tgEra(b) {
  const eras = new Set([...b.tools.values()].map((t) => t.mcp?.protocolVersion));
  if (eras.size !== 1) throw new Error(`toolgate: tools of several eras: ${[...eras].join(", ")}`);
  return [...eras][0];
}

/**
 * The one request sequence every sample sent (["POST tools/list"], ...), summed up as
 * {count, methods}; throws when the samples differ, so a row never averages unlike traffic.
 */
export function sameRequests(samples, who) {
  const keys = new Set(samples.map((r) => r.join(", ")));
  if (keys.size !== 1) throw new Error(`${who}: the samples sent different requests: ${[...keys].map((k) => `[${k}]`).join(" ")}`);
  return { count: samples[0].length, methods: samples[0].map((l) => l.replace(/^POST /, "")).join(" + ") || "none" };
}
