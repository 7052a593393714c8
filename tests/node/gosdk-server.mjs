// The official Go SDK as an MCP server for the Node tests: tests/servers/gosdk, a Go program of this
// module serving the tool set of tests/fixtures/mcp-eras/tools.json statelessly (2026-07-28 per
// request, a 2025 client statelessly). It is built once per test file with the Go toolchain (GO,
// else go on PATH) from the repository at TOOLGATE_ROOT, which make test-node sets, and runs as a
// child process on 127.0.0.1. Node only.
import { execFile, spawn } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";

/**
 * Builds tests/servers/gosdk into a temporary directory. Resolves to {bin, dispose()}; dispose
 * removes the directory. Rejects with the compiler's output when the build fails.
 */
export async function buildGoSDKServer() {
  const root = process.env.TOOLGATE_ROOT;
  if (!root) throw new Error("TOOLGATE_ROOT is not set: run the Node suites through make test-node");
  const dir = mkdtempSync(join(tmpdir(), "toolgate-gosdk-"));
  const bin = join(dir, "gosdk");
  const dispose = () => rmSync(dir, { recursive: true, force: true });
  try {
    await new Promise((resolve, reject) => {
      execFile(process.env.GO || "go", ["build", "-o", bin, "./tests/servers/gosdk"], { cwd: root }, (err, stdout, stderr) => {
        if (err) reject(new Error(`go build ./tests/servers/gosdk: ${err.message}\n${stdout}${stderr}`));
        else resolve();
      });
    });
  } catch (e) {
    dispose();
    throw e;
  }
  return { bin, dispose };
}

/**
 * Starts the built server. Resolves to {url, state, stop()} once it prints its URL. state has the
 * shape of mcp-era-servers.mjs's: requests, one line per HTTP request ("POST server/discover",
 * "GET", ...); openStreams, the GET and subscriptions/listen requests still open, with
 * "stream-opened" and "stream-closed" events on state.events. stop({graceful}) ends it: graceful
 * closes its stdin, and the server exits only once every request has ended (a held stream too);
 * otherwise it is killed. Either way stop resolves when it has exited.
 */
export function startGoSDKServer(bin) {
  const fixtures = process.env.TOOLGATE_FIXTURES;
  if (!fixtures) throw new Error("TOOLGATE_FIXTURES is not set: run the Node suites through make test-node");
  const child = spawn(bin, ["-spec", join(fixtures, "mcp-eras", "tools.json")], { stdio: ["pipe", "pipe", "pipe"] });
  const state = { requests: [], openStreams: 0, events: new EventEmitter(), log: [] };
  child.stdin.on("error", () => {}); // EPIPE when it has exited before stop() closes its stdin
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? code)));
  createInterface({ input: child.stderr }).on("line", (line) => {
    if (line.startsWith("gosdk: ")) {
      state.log.push(line);
    } else if (line.startsWith("closed ")) {
      state.openStreams--;
      state.events.emit("stream-closed", line.slice("closed ".length));
    } else {
      state.requests.push(line);
      if (line === "GET" || line.includes("subscriptions/listen")) {
        state.openStreams++;
        state.events.emit("stream-opened", line);
      }
    }
  });
  const stop = async ({ graceful = false } = {}) => {
    if (child.exitCode === null && child.signalCode === null) {
      if (graceful) child.stdin.end();
      else child.kill("SIGKILL");
    }
    return exited;
  };
  return new Promise((resolve, reject) => {
    const stdout = createInterface({ input: child.stdout });
    stdout.once("line", (line) => {
      const m = /^listening (http:\/\/127\.0\.0\.1:\d+\/mcp)$/.exec(line);
      if (m) resolve({ kind: "gosdk-stateless", url: m[1], state, stop, exited });
      else reject(new Error(`the Go SDK server printed ${JSON.stringify(line)}, want "listening <url>"`));
    });
    child.once("error", reject);
    exited.then((status) => reject(new Error(`the Go SDK server exited (${status}) before it listened: ${state.log.join("\n")}`)));
  });
}
