// Figure 2: b.validate() of {a: 1} on a one-property schema, beside a trivial
// synchronous call into the same branch (b.has("x")): what a validation costs
// over the bare crossing into WebAssembly and back.
import { initialize } from "toolgate/core";
import { usPerCallEach, row, emit } from "../common.mjs";

const BATCH = 1000;
const tg = await initialize();
const parameters = { type: "object", properties: { a: { type: "integer" } }, required: ["a"] };
const b = tg.branch({ tools: [tg.tool({ name: "one", parameters, handler: ({ a }) => a, coerce: "none" })] });
if (!b.validate({ function: "one", arguments: { a: 1 } }).ok || b.has("x")) throw new Error("unexpected verdict");

let sink = 0;
const us = await usPerCallEach({
  validate: () => {
    for (let i = 0; i < BATCH; i++) sink += b.validate({ function: "one", arguments: { a: 1 } }).ok ? 1 : 0;
  },
  has: () => {
    for (let i = 0; i < BATCH; i++) sink += b.has("x") ? 1 : 0;
  },
}, BATCH);
if (sink < 0) throw new Error("unreachable");

emit([
  row({
    id: "validate-small-vs-has", figure: 2, unit: "µs/call",
    name: "b.validate({a: 1}), one-property schema",
    toolgate: us.validate, peer: 'b.has("x"), a trivial synchronous call', peerValue: us.has,
    note: "typed tool, coerce \"none\"; median of 15 samples",
  }),
]);
process.exit(0);
