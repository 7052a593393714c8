// The cost of refusing oversized inputs beside accepting in-limit ones (issue 22, limits before
// work): an OpenAI Chat call whose argument string is 40 MiB, 15 MiB (accepted), a whole provider
// response over the limit, a parameters schema of 28 MiB. Each line is one synchronous call, so its
// time is the event loop's stall. Run from the consumer project (make consumer first):
//   mkdir -p .build/consumer/bench && cp bench/oversized.mjs .build/consumer/bench/ &&
//   (cd .build/consumer && node bench/oversized.mjs)
import { initialize } from "toolgate";

const tg = await initialize();
const MiB = 1 << 20;

function argsText(bytes) {
  const pad = "x".repeat(Math.max(0, bytes - 20));
  return `{"a":1,"pad":"${pad}"}`;
}
function timeIt(label, fn) {
  const t0 = performance.now();
  let outcome;
  try {
    const r = fn();
    outcome = r && r.ok === false ? `refused ${r.error.code} ${r.error.issues?.[0]?.keyword ?? ""}` : "accepted";
  } catch (e) {
    outcome = `threw ${e.code} ${e.issues?.[0]?.keyword ?? ""}`;
  }
  const ms = performance.now() - t0;
  console.log(`${label.padEnd(48)} ${ms.toFixed(1).padStart(9)} ms  ${outcome}`);
  return ms;
}

const f = tg.tool(function f(a, pad) { return a; }, { parameters: { type: "object", properties: { a: { type: "integer" }, pad: { type: "string" } } } });
const b = tg.branch({ tools: [f] });
const chat = (text) => ({ id: "call_1", type: "function", function: { name: "f", arguments: text } });
const big15 = argsText(15 * MiB);
const big40 = argsText(40 * MiB);
timeIt("warm-up validate small", () => b.validate(chat(argsText(100))));
timeIt("validate OpenAI Chat 15 MiB args (object)", () => b.validate(chat(big15)));
timeIt("validate OpenAI Chat 40 MiB args (object)", () => b.validate(chat(big40)));
timeIt("match OpenAI Chat 40 MiB args (object)", () => b.match(chat(big40)));
const chat40Text = JSON.stringify(chat(big40));
timeIt("validate OpenAI Chat 40 MiB args (JSON text)", () => b.validate(chat40Text));
timeIt("validate plain 40 MiB args text", () => b.validate({ function: "f", arguments: big40 }));
const completion = (text) => ({ choices: [{ message: { role: "assistant", tool_calls: [chat(text)] } }] });
timeIt("parseToolCalls 15 MiB args", () => tg.parseToolCalls(completion(big15)));
timeIt("parseToolCalls 40 MiB args", () => tg.parseToolCalls(completion(big40)));
const completion40Text = JSON.stringify(completion(big40));
timeIt("parseToolCalls 40 MiB args (JSON text)", () => tg.parseToolCalls(completion40Text));
const euros = argsText(17 * MiB / 3).replaceAll("x", "€");
timeIt("validate OpenAI Chat 17 MiB of UTF-8 in 5.7 M units", () => b.validate(chat(euros)));
const schema = (bytes) => ({ type: "object", properties: { a: { type: "string", description: "d".repeat(bytes) } } });
timeIt("tool with 0.9 MiB schema", () => tg.tool(function g(a) {}, { parameters: schema(0.9 * MiB) }));
timeIt("tool with 28 MiB schema", () => tg.tool(function g(a) {}, { parameters: schema(28 * MiB) }));
