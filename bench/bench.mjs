// make bench: toolgate beside the peer a user would pick instead (Ajv), in one
// run, as ratios. Runs from .build/consumer so "toolgate" is the packed package.
import { initialize } from "toolgate/core";
import Ajv from "ajv/dist/2020.js";
import { readFileSync } from "node:fs";
import { gzipSync, brotliCompressSync } from "node:zlib";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

function bench(name, n, fn) {
  for (let i = 0; i < Math.min(n, 2000); i++) fn(i); // warm-up
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) fn(i);
    rounds.push(Number(process.hrtime.bigint() - t0) / n / 1000);
  }
  rounds.sort((a, b) => a - b);
  return { name, us: rounds[2] };
}

async function benchAsync(name, n, fn) {
  for (let i = 0; i < Math.min(n, 500); i++) await fn(i);
  const rounds = [];
  for (let r = 0; r < 5; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await fn(i);
    rounds.push(Number(process.hrtime.bigint() - t0) / n / 1000);
  }
  rounds.sort((a, b) => a - b);
  return { name, us: rounds[2] };
}

const t0 = performance.now();
const tg = await initialize();
const cold = performance.now() - t0;

const schema = {
  type: "object",
  properties: {
    city: { type: "string", minLength: 1 },
    days: { type: "integer", minimum: 1, maximum: 14 },
    units: { enum: ["metric", "imperial"] },
    detailed: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
  },
  required: ["city", "days"],
};
const args = { city: "Oslo", days: 3, units: "metric", detailed: false, tags: ["a", "b"] };
const argsText = JSON.stringify(args);

const b = tg.branch({
  tools: [
    tg.tool({ name: "forecast", parameters: schema, handler: (a) => a.days }),
    tg.tool(function add(a, b) { return a + b; }),
  ],
});
const ajv = new Ajv({ allErrors: false, strict: false });
const ajvValidate = ajv.compile(schema);

const n = 20000;
const results = [
  bench("toolgate b.validate({function, arguments: object})", n, () => {
    if (!b.validate({ function: "forecast", arguments: args }).ok) throw new Error("invalid");
  }),
  bench("toolgate b.validate({function, arguments: JSON text})", n, () => {
    if (!b.validate({ function: "forecast", arguments: argsText }).ok) throw new Error("invalid");
  }),
  bench("toolgate b.validate(raw function add(a, b))", n, (i) => {
    if (!b.validate({ function: "add", arguments: { a: i, b: 1 } }).ok) throw new Error("invalid");
  }),
  bench("Ajv validate(object)", n, () => {
    if (!ajvValidate(args)) throw new Error("invalid");
  }),
  bench("Ajv validate(JSON.parse(text))", n, () => {
    if (!ajvValidate(JSON.parse(argsText))) throw new Error("invalid");
  }),
  await benchAsync("toolgate await b.invoke(trivial JS tool)", 5000, async (i) => {
    const fc = await b.invoke({ function: "add", arguments: { a: i, b: 1 } });
    if (fc.status !== "completed") throw fc.error;
  }),
  await benchAsync("plain await of the same JS function", 5000, async (i) => {
    await (async (a, b) => a + b)(i, 1);
  }),
];

console.log(`\ntoolgate ${tg.version}, Node ${process.version}, ${n} calls × 5 rounds, median round`);
console.log("| operation | µs/call |\n|---|---|");
for (const r of results) console.log(`| ${r.name} | ${r.us.toFixed(2)} |`);
const by = Object.fromEntries(results.map((r) => [r.name, r.us]));
console.log(`\nratio validate object (toolgate / Ajv): ${(by["toolgate b.validate({function, arguments: object})"] / by["Ajv validate(object)"]).toFixed(1)}×`);
console.log(`ratio validate JSON text (toolgate / Ajv+JSON.parse): ${(by["toolgate b.validate({function, arguments: JSON text})"] / by["Ajv validate(JSON.parse(text))"]).toFixed(1)}×`);

const pkgDir = require.resolve("toolgate/package.json").replace(/package\.json$/, "");
const ajvBundle = ["ajv/dist/2020.js"].map((m) => require.resolve(m));
console.log("\n| artefact | raw | gzip | brotli |\n|---|---|---|---|");
for (const f of ["toolgate-core.wasm", "toolgate.wasm"]) {
  const raw = readFileSync(pkgDir + f);
  console.log(`| ${f} | ${(raw.length / 1024).toFixed(0)} KiB | ${(gzipSync(raw, { level: 9 }).length / 1024).toFixed(0)} KiB | ${(brotliCompressSync(raw).length / 1024).toFixed(0)} KiB |`);
}
void ajvBundle;
console.log(`\ncold start (initialize → ready, core build, this process): ${cold.toFixed(0)} ms`);
