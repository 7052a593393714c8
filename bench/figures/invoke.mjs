// Figure 3: `await b.invoke()` of a trivial async JS tool, beside a plain
// `await` of the same function: the µs the invoke path adds.
import { initialize } from "toolgate/core";
import { usPerCallEach, row, emit } from "../common.mjs";

const BATCH = 1000;
const tg = await initialize();
const handler = async ({ a }) => a + 1;
const parameters = { type: "object", properties: { a: { type: "integer" } }, required: ["a"] };
const b = tg.branch({ tools: [tg.tool({ name: "inc", parameters, handler, coerce: "none" })] });

async function invokeBatch() {
  for (let i = 0; i < BATCH; i++) {
    const fc = await b.invoke({ function: "inc", arguments: { a: i } });
    if (fc.status !== "completed" || fc.response !== i + 1) throw fc.error ?? new Error(`unexpected response ${fc.response}`);
  }
}

async function plainBatch() {
  for (let i = 0; i < BATCH; i++) {
    if ((await handler({ a: i })) !== i + 1) throw new Error("unexpected response");
  }
}

const { invoke, plain } = await usPerCallEach({ invoke: invokeBatch, plain: plainBatch }, BATCH);
emit([
  row({
    id: "invoke-overhead", figure: 3, unit: "µs",
    name: "await b.invoke(), trivial async JS tool, minus a plain await",
    toolgate: invoke - plain, peer: "a plain await of the same function", peerValue: plain,
    note: `b.invoke itself ${invoke.toFixed(2)} µs/call; typed tool, coerce "none"`,
  }),
]);
process.exit(0);
