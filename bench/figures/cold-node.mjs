// Figure 7a: cold start in Node, initialize() → first validation, core and
// full builds, and from plans (toolgate/plan: loadPlans → first validation,
// no WebAssembly), each sample in a fresh process (median of 7), beside Ajv
// 2020 in a fresh process (new Ajv2020 → compile → first validation).
// Importing the module is timed apart and given in the note.
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { childJSON, median, row, emit, versionOf, spread } from "../common.mjs";

const SAMPLES = 7;
const KINDS = ["core", "full", "plan", "ajv"];
const SCHEMA = { type: "object", properties: { a: { type: "integer" } }, required: ["a"] };

/** Loads one kind and returns {importMs, ms}: import apart, then start → first validation. */
async function sample(kind, plansText) {
  const t0 = performance.now();
  const mod = kind === "ajv" ? await import("ajv/dist/2020.js") : await import({ core: "toolgate/core", full: "toolgate", plan: "toolgate/plan" }[kind]);
  const t1 = performance.now();
  let ok;
  if (kind === "ajv") {
    ok = new mod.default({ strict: false }).compile(SCHEMA)({ a: 1 });
  } else if (kind === "plan") {
    ok = mod.loadPlans(JSON.parse(plansText)).validate({ function: "one", arguments: { a: 1 } }).ok;
  } else {
    const tg = await mod.initialize();
    const b = tg.branch({ tools: [tg.tool({ name: "one", parameters: SCHEMA, handler: (a) => a, coerce: "none" })] });
    ok = b.validate({ function: "one", arguments: { a: 1 } }).ok;
  }
  const t2 = performance.now();
  if (!ok) throw new Error(`${kind}: the first validation failed`);
  return { importMs: t1 - t0, ms: t2 - t1 };
}

async function parent() {
  const self = fileURLToPath(import.meta.url);
  const tg = await (await import("toolgate/core")).initialize();
  const plans = JSON.stringify(tg.buildPlans([{ name: "one", parameters: SCHEMA, coerce: "none" }])); // built ahead, as a frontend's build does
  const got = Object.fromEntries(KINDS.map((k) => [k, []]));
  for (let s = 0; s < SAMPLES; s++) for (const k of KINDS) got[k].push(await childJSON(self, k === "plan" ? [k, plans] : [k]));
  const ms = (k) => got[k].map((g) => g.ms);
  const imp = (k) => median(got[k].map((g) => g.importMs)).toFixed(0);
  const peer = `Ajv ${versionOf("ajv")} (ajv/dist/2020): new Ajv2020 → compile → validate`;
  const rows = ["core", "full", "plan"].map((k) => row({
    id: `cold-node-${k}`, figure: 7, unit: "ms", name: k === "plan" ? "cold start, Node, from plans: loadPlans() → first validation (no WebAssembly)" : `cold start, Node, ${k} build: initialize() → first validation`,
    toolgate: median(ms(k)), peer, peerValue: median(ms("ajv")),
    note: `a fresh process per sample (${spread(ms(k), 0)} ms); import ${imp(k)} ms before it (Ajv's ${imp("ajv")} ms)`,
  }));
  emit(rows);
}

if (process.argv[2]) {
  console.log(JSON.stringify(await sample(process.argv[2], process.argv[3])));
  process.exit(0);
} else {
  await parent();
}
