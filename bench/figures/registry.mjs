// Figure 5: a large registry. b.match() with 10,000 tools registered beside
// the same call with 10 (in a fresh process, so that the large registry's
// heap does not weigh on the baseline); and b.schemaList with 10,000 tools
// beside copying an array of the same 10,000 schema objects (structuredClone).
import { initialize } from "toolgate/core";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { usPerCallEach, childJSON, row, emit } from "../common.mjs";

const MANY = 10000;
const FEW = 10;

/** Tool i: a small typed tool of its own name and schema. */
function makeTool(tg, i) {
  const parameters = {
    type: "object",
    properties: { id: { type: "integer", minimum: 0 }, label: { type: "string", description: `label of item ${i}` } },
    required: ["id"],
  };
  return tg.tool({ name: `tool_${i}`, description: `Tool number ${i}.`, parameters, handler: (a) => a, coerce: "none" });
}

/** µs per b.match of a call to the middle tool of a branch of n tools. */
async function matchUs(b, n) {
  const call = { function: `tool_${Math.floor(n / 2)}`, arguments: { id: 7, label: "x" } };
  const batch = () => {
    for (let i = 0; i < 100; i++) if (b.match(call).function !== call.function) throw new Error("wrong tool");
  };
  return (await usPerCallEach({ batch }, 100, { samples: 21 })).batch;
}

/** The baseline, in a fresh process of its own: b.match with FEW tools, no large registry (nor its heap) beside it. */
async function fewChild(tg) {
  const b = tg.branch({ tools: Array.from({ length: FEW }, (_, i) => makeTool(tg, i)) });
  console.log(JSON.stringify({ us: await matchUs(b, FEW) }));
  process.exit(0);
}

const tg = await initialize();
if (process.argv[2] === "few") await fewChild(tg);
const few = (await childJSON(fileURLToPath(import.meta.url), ["few"])).us;
const t0 = performance.now();
const many = tg.branch({ tools: Array.from({ length: MANY }, (_, i) => makeTool(tg, i)) });
const buildMs = performance.now() - t0;
const matchMany = await matchUs(many, MANY);
const schemas = many.schemaList;
if (schemas.length !== MANY) throw new Error(`schemaList has ${schemas.length} entries`);
const access = await usPerCallEach({ list: () => many.schemaList.length, clone: () => structuredClone(schemas).length }, 1, { minMs: 1, warmupMs: 100 });

emit([
  row({
    id: "match-10k-vs-10", figure: 5, unit: "µs/call", name: `b.match() with ${MANY.toLocaleString("en")} tools registered`,
    toolgate: matchMany, peer: `the same b.match() with ${FEW} tools`, peerValue: few,
    note: `the ${FEW}-tool baseline in a fresh process of its own; making and registering the ${MANY.toLocaleString("en")} typed tools took ${(buildMs / 1000).toFixed(1)} s`,
  }),
  row({
    id: "schemalist-10k", figure: 5, unit: "ms/access", name: `b.schemaList with ${MANY.toLocaleString("en")} tools`,
    toolgate: access.list / 1000, peer: `structuredClone of an array of ${MANY.toLocaleString("en")} schema objects`, peerValue: access.clone / 1000,
    note: "median of 15 accesses each, taken in turn",
  }),
]);
process.exit(0);
