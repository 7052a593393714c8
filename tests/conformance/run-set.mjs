// Runs the conformance runner (the command after --) with at most --slots
// conformance clients at once (make test-conformance; docs/conformance.md).
// Under --requirements the runner starts every client of a set together and
// has no knob for how many; on two cores that starves each client for seconds
// between its requests. This listens on a Unix socket whose path it gives the
// runner (and so each client) as TOOLGATE_CONFORMANCE_SLOTS; take-slot.mjs,
// preloaded into each client, connects and waits for "go" before the client
// starts. A slot is free again when its client's connection closes, which the
// kernel does when the client exits however it ends. Exits with the runner's
// status.
//
// node run-set.mjs --slots 3 -- node dist/index.js client --requirements 2026-07-28 ...
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

const argv = process.argv.slice(2);
const dash = argv.indexOf("--");
const slotsAt = argv.indexOf("--slots");
const slots = Number(argv[slotsAt + 1]);
if (dash < 0 || slotsAt < 0 || slotsAt > dash || !(slots >= 1) || dash === argv.length - 1) {
  console.error("usage: node run-set.mjs --slots N -- <runner command>");
  process.exit(2);
}
const command = argv.slice(dash + 1);

const dir = mkdtempSync(join(tmpdir(), "toolgate-conformance-"));
const path = join(dir, "slots.sock");
const waiting = [];
let running = 0;

function grant() {
  while (running < slots && waiting.length) {
    const socket = waiting.shift();
    if (socket.destroyed) continue;
    running++;
    socket.once("close", () => {
      running--;
      grant();
    });
    socket.write("go\n");
  }
}

const server = createServer((socket) => {
  socket.on("error", () => {}); // a client killed while waiting: its close frees nothing
  waiting.push(socket);
  grant();
});
server.listen(path, () => {
  const runner = spawn(command[0], command.slice(1), {
    stdio: "inherit",
    env: { ...process.env, TOOLGATE_CONFORMANCE_SLOTS: path },
  });
  runner.on("exit", (code) => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(code ?? 2); // killed by a signal: no verdict
  });
});
