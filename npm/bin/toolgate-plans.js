#!/usr/bin/env node
// toolgate-plans: compiles the typed tools a module exports into plans (JSON) for toolgate/plan.
//   toolgate-plans tools.mjs > plans.json
//   toolgate-plans tools.mjs --out plans.json
// The module's default export (or its export named `tools`) is an array of tool definitions, the
// objects tg.tool takes ({name, parameters, description?, coerce?, …}; handler optional), or
// typed Tools; a .json file holds the array itself. Node.
import { readFile, writeFile } from "node:fs/promises";
import { resolve, extname } from "node:path";
import { pathToFileURL } from "node:url";
import { initialize } from "../core.node.js";

const USAGE = "usage: toolgate-plans <tools.mjs|tools.json> [--out plans.json]";

/** The command line: the tools file and the output path (undefined: standard output). */
function readArgs(argv) {
  const files = [];
  let out;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--out" || a === "-o") out = argv[++i];
    else if (a.startsWith("--out=")) out = a.slice(6);
    else if (a === "--help" || a === "-h") return { help: true };
    else if (a.startsWith("-")) throw new Error(`unknown option ${a}\n${USAGE}`);
    else files.push(a);
  }
  if (files.length !== 1 || out === "") throw new Error(USAGE);
  return { file: files[0], out };
}

/** The tool definitions of a module or JSON file. */
async function readTools(file) {
  const path = resolve(file);
  if (extname(path) === ".json") return JSON.parse(await readFile(path, "utf8"));
  const mod = await import(pathToFileURL(path).href);
  const tools = mod.default ?? mod.tools;
  if (!Array.isArray(tools)) throw new Error(`${file} must export an array of tool definitions (export default [...] or export const tools = [...])`);
  return tools;
}

async function main() {
  const args = readArgs(process.argv.slice(2));
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const tools = await readTools(args.file);
  const tg = await initialize();
  const text = `${JSON.stringify(tg.buildPlans(tools), null, 2)}\n`;
  if (args.out) await writeFile(args.out, text);
  else process.stdout.write(text);
}

main().catch((e) => {
  process.stderr.write(`toolgate-plans: ${e?.code ? `${e.code}: ` : ""}${e?.message ?? e}\n`);
  process.exitCode = 1;
});
