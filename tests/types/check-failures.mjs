// Each snippet in fail/ must NOT compile: the declarations are what stops it.
import { readdirSync, writeFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const tsc = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "node_modules", ".bin", "tsc");
let failed = 0;
const files = readdirSync("fail").filter((f) => f.endsWith(".ts"));
for (const f of files) {
  // adapters-*.ts use the SDKs' types, checked as tsconfig.adapters.json checks them
  const base = f.startsWith("adapters-") ? "./tsconfig.adapters.json" : "./tsconfig.json";
  writeFileSync("tsconfig.fail.json", JSON.stringify({ extends: base, compilerOptions: { module: "NodeNext", target: "ES2022" }, files: [join("fail", f)] }));
  try {
    execFileSync(tsc, ["-p", "tsconfig.fail.json"], { stdio: "pipe" });
    console.error(`FAIL: fail/${f} compiled, but must not`);
    failed++;
  } catch (e) {
    const out = String(e.stdout);
    if (!/error TS\d+/.test(out)) {
      console.error(`FAIL: fail/${f}: tsc failed without a type error:\n${out}${e.stderr}`);
      failed++;
    } else {
      console.log(`ok: fail/${f} is rejected (${out.match(/error (TS\d+)/)[1]})`);
    }
  }
}
console.log(`${files.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
