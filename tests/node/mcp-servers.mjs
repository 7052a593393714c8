// Starts @modelcontextprotocol/server-everything on loopback for the MCP tests
// and the RTT benchmark. Node only.
//
// The server is a child process. A preload (--import of a data: URL) makes
// every http server in it listen on 127.0.0.1 only, on a port the kernel
// picks, and report that port over the IPC channel: no port race, nothing
// reachable from outside the machine.
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The path of server-everything's bin script, from the nearest node_modules up the tree. */
export function everythingBin() {
  const pkgPath = require.resolve("@modelcontextprotocol/server-everything/package.json");
  const pkg = JSON.parse(readFileSync(pkgPath, "utf8"));
  const bin = typeof pkg.bin === "string" ? pkg.bin : Object.values(pkg.bin)[0];
  return join(dirname(pkgPath), bin);
}

// Runs in the child before the server: listen() on a port (any form) becomes
// listen(0, "127.0.0.1"), and the bound port is sent to the parent.
const PRELOAD = `
import http from "node:http";
const listen = http.Server.prototype.listen;
http.Server.prototype.listen = function (...args) {
  const cb = args.find((a) => typeof a === "function");
  this.once("listening", () => process.send && process.send({ port: this.address().port }));
  return cb ? listen.call(this, 0, "127.0.0.1", cb) : listen.call(this, 0, "127.0.0.1");
};
`;

/** The transports server-everything serves, with the URL path of each. */
export const MODES = {
  "streamable-http": { arg: "streamableHttp", path: "/mcp" },
  sse: { arg: "sse", path: "/sse" },
};

/**
 * Starts server-everything in one mode ("streamable-http" or "sse") on
 * 127.0.0.1. Resolves to {url, port, stop()} once it listens; stop() kills
 * the process and resolves when it has exited.
 */
export function startEverything(mode, { startTimeoutMs = 30000 } = {}) {
  const m = MODES[mode];
  if (!m) throw new Error(`unknown mode ${mode}`);
  const child = spawn(
    process.execPath,
    ["--import", `data:text/javascript,${encodeURIComponent(PRELOAD)}`, everythingBin(), m.arg],
    { stdio: ["ignore", "ignore", "pipe", "ipc"], env: { ...process.env, PORT: "0" } },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (d) => {
    stderr = (stderr + d).slice(-4000);
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`server-everything (${mode}) did not start within ${startTimeoutMs} ms:\n${stderr}`));
    }, startTimeoutMs);
    child.once("message", ({ port }) => {
      clearTimeout(timer);
      child.disconnect(); // the IPC channel is no longer needed
      resolve({ url: `http://127.0.0.1:${port}${m.path}`, port, mode, stop, stderr: () => stderr });
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything (${mode}) exited with ${code}:\n${stderr}`));
    });
  });
}
