// Runs a small Node program in a child process, for the tests that a program using toolgate ends
// by itself when its work is done. Node only.
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { CEILING_MS } from "./waits.mjs";

/** Where the programs are written: beside the tests, so `import "toolgate"` resolves as a user's would. */
export const programsDir = join(dirname(fileURLToPath(import.meta.url)), "exit-programs");

/**
 * Writes program (ESM text) to exit-programs/<name>.mjs and runs it. Resolves to its stdout once it
 * exits with 0; rejects with its output when it fails, or when it has not exited after timeoutMs
 * (then it is killed): the bound of a wait for an exit, not a timing.
 */
export function runProgram(name, program, { timeoutMs = CEILING_MS } = {}) {
  mkdirSync(programsDir, { recursive: true });
  const file = join(programsDir, `${name}.mjs`);
  writeFileSync(file, program);
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file], { timeout: timeoutMs, killSignal: "SIGKILL" }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${name}: ${err.killed ? "did not exit" : err.message}\n${stdout}\n${stderr}`));
      else resolve(stdout);
    });
  });
}
