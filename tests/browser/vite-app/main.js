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
const b = tg.branch({ tools: [add] });
const ok = b.validate({ function: "add", arguments: { a: 1, b: 2 } });
const bad = b.validate({ function: "add", arguments: { a: 1 } });
const fc = await b.invoke({ function: "add", arguments: { a: 2, b: 3 } });
document.getElementById("out").textContent = JSON.stringify({
  flavor: tg.flavor,
  ok: ok.ok,
  badCode: bad.error.code,
  isInstance: ToolgateError.isInstance(bad.error),
  response: fc.response,
  mcp: typeof tg.mcp?.checkUrl,
});
