// Preloaded into the conformance client's process (node --import) by make
// test-conformance: writes the process's exit status to
// $TOOLGATE_CONFORMANCE_EXITS/<scenario>.exit, whatever ends it (the client's
// own process.exit, the Go instance exiting, an uncaught error). The runner
// judges a requirement set by its checks alone and keeps no exit status;
// check-results.mjs reads these files so that a client exiting non-zero fails
// its scenario. A process killed by a signal (the runner's --timeout) writes
// nothing, which the checker reads as a failure too.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const dir = process.env.TOOLGATE_CONFORMANCE_EXITS;
const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
if (dir && scenario) {
  const file = join(dir, `${scenario}.exit`);
  process.on("exit", (code) => {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${code}\n`);
  });
}
