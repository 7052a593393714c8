// A user's app: toolgate imported by name and bundled by Vite.
import { initialize, ToolgateError } from "toolgate";

const tg = await initialize();
// The typed path: a minifier renames functions and parameters, so bundled code
// should not rely on the raw path's reading of the source.
const add = tg.tool({
  name: "add",
  parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
  handler: ({ a, b }) => a + b,
});
// A schema the fast path validates only with toolgate-validator.wasm (an anyOf of objects): Vite
// must have emitted that file too; invoke waits for its download.
const either = tg.tool({
  name: "either",
  parameters: { type: "object", properties: { n: { anyOf: [{ type: "object", properties: { a: { type: "integer" } } }, { type: "object", properties: { b: { type: "string" } } }] } }, required: ["n"] },
  handler: ({ n }) => n.a,
});
const b = tg.branch({ tools: [add, either] });
const viaValidator = await b.invoke({ function: "either", arguments: { n: { a: 7 } } });
const ok = b.validate({ function: "add", arguments: { a: 1, b: 2 } });
const bad = b.validate({ function: "add", arguments: { a: 1 } });
const fc = await b.invoke({ function: "add", arguments: { a: 2, b: 3 } });
document.getElementById("out").textContent = JSON.stringify({
  flavor: tg.flavor,
  ok: ok.ok,
  badCode: bad.error.code,
  isInstance: ToolgateError.isInstance(bad.error),
  response: fc.response,
  viaValidator: viaValidator.response,
  mcp: typeof tg.mcp?.checkUrl,
});
