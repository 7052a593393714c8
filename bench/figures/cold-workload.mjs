// Figure 4, the cold workload: compile 50 realistic MCP tool schemas and
// validate one call for each, in a fresh process per sample: toolgate
// (tg.tool + a branch + b.validate, on a fresh instance) beside Ajv
// (compile + validate) and @cfworker/json-schema (new Validator + validate).
// The schemas are server-everything's tools/list (bench/mcp-tools.json).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { BENCH_DIR, childJSON, median, row, emit, versionOf, spread } from "../common.mjs";

const COUNT = 50;
const SAMPLES = 7;
const LIBS = ["toolgate", "ajv", "cfworker"];

/** A valid value for a property schema: its enum's first member, else one of its type. */
function exampleOf(s) {
  if (s.enum) return s.enum[0];
  const byType = { string: "text", number: 2, integer: 2, boolean: true, array: [], object: {} };
  return byType[Array.isArray(s.type) ? s.type[0] : s.type] ?? null;
}

/** Arguments for a tool: every required property, and the optional ones without a format. */
function exampleArgs(schema) {
  const args = {};
  for (const [k, s] of Object.entries(schema.properties ?? {})) {
    if (schema.required?.includes(k) || !s.format) args[k] = exampleOf(s);
  }
  return args;
}

/** Tool k of 50: the server's tools in turn, each copy renamed and its descriptions marked, so no two schemas are equal. */
function variant(tool, k) {
  const s = structuredClone(tool.inputSchema);
  for (const p of Object.values(s.properties ?? {})) p.description = `${p.description ?? ""} (copy ${k})`;
  return { name: `${tool.name.replace(/[^A-Za-z0-9_]/g, "_")}_${k}`, description: `${tool.description} (copy ${k})`, schema: s, args: exampleArgs(s) };
}

function workload() {
  const { tools } = JSON.parse(readFileSync(join(BENCH_DIR, "mcp-tools.json"), "utf8"));
  return Array.from({ length: COUNT }, (_, k) => variant(tools[k % tools.length], k));
}

/** One sample, in this (fresh) process: loading the library is not timed, the 50 compiles and validations are. */
async function sample(lib, items) {
  const run = await prepare(lib);
  const t0 = performance.now();
  run(items);
  return performance.now() - t0;
}

async function prepare(lib) {
  if (lib === "toolgate") {
    const tg = await (await import("toolgate/core")).initialize();
    return (items) => {
      const tools = items.map((v) => tg.tool({ name: v.name, description: v.description, parameters: v.schema, handler: (a) => a, coerce: "none" }));
      const b = tg.branch({ tools });
      for (const v of items) if (!b.validate({ function: v.name, arguments: v.args }).ok) throw new Error(`toolgate refused ${v.name}`);
    };
  }
  if (lib === "ajv") {
    const Ajv = (await import("ajv")).default; // the schemas declare draft-07: Ajv's default class
    const ajv = new Ajv({ strict: false, validateFormats: false });
    return (items) => {
      for (const v of items) if (!ajv.compile(v.schema)(v.args)) throw new Error(`Ajv refused ${v.name}`);
    };
  }
  const { Validator } = await import("@cfworker/json-schema");
  return (items) => {
    for (const v of items) if (!new Validator(v.schema, "7").validate(v.args).valid) throw new Error(`cfworker refused ${v.name}`);
  };
}

async function parent() {
  const self = fileURLToPath(import.meta.url);
  const ms = Object.fromEntries(LIBS.map((l) => [l, []]));
  for (let s = 0; s < SAMPLES; s++) for (const lib of LIBS) ms[lib].push((await childJSON(self, [lib])).ms);
  const { source, tools } = JSON.parse(readFileSync(join(BENCH_DIR, "mcp-tools.json"), "utf8"));
  const name = `cold workload: compile ${COUNT} MCP tool schemas, validate one call each`;
  const note = `${source}: ${tools.length} tools, each repeated with its descriptions marked to make ${COUNT}; a fresh process per sample (${spread(ms.toolgate)} ms for toolgate); typed tools, coerce "none"`;
  emit([
    row({ id: "cold-workload-ajv", figure: 4, name, unit: "ms", toolgate: median(ms.toolgate), peer: `Ajv ${versionOf("ajv")} (draft-07, as declared), compile + validate`, peerValue: median(ms.ajv), note }),
    row({ id: "cold-workload-cfworker", figure: 4, name, unit: "ms", toolgate: median(ms.toolgate), peer: `@cfworker/json-schema ${versionOf("@cfworker/json-schema")}, new Validator + validate`, peerValue: median(ms.cfworker) }),
  ]);
}

if (process.argv[2]) {
  console.log(JSON.stringify({ ms: await sample(process.argv[2], workload()) }));
  process.exit(0);
} else {
  await parent();
}
