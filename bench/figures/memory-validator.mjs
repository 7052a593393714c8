// Figure 9, the validator module's soak: a process that only validates, through the validator
// module (a `not` schema, outside the fast path), with no asynchronous Go call at all: 1,000,000
// `b.validate()` calls in one synchronous run. The JS heap (heapUsed after global.gc(); run with
// --expose-gc) and the process's RSS after 1,000,000 against after 200,000 (run.mjs pins V8's
// young generation at its largest size, which it would otherwise grow to over the first 100,000 or
// so: 25 MiB of RSS that is heap capacity, not anything kept; the note gives the lowest and highest
// RSS of the samples taken every 100,000), as a ratio: 1× means nothing accumulates (issue 22 measured +478 MiB of heap and 1 GiB of RSS when each call left two
// JS values for a Go finalizer). The JS values Go holds and the schemas the validator module holds
// are counted in the notes.
import { initialize } from "toolgate/core";
import { row, emit } from "../common.mjs";

const FIRST = 200000;
const STEP = 100000;
const THEN = Number(process.env.TOOLGATE_SOAK_VALIDATIONS) || 1000000;
const MiB = 1024 * 1024;

if (typeof global.gc !== "function") throw new Error("memory-validator.mjs needs node --expose-gc");
const tg = await initialize();
const debug = tg[Symbol.for("toolgate.debug")];
const parameters = { type: "object", properties: { x: { not: { type: "string" } } }, required: ["x"] };
const b = tg.branch({ tools: [tg.tool({ name: "n", parameters, handler: (a) => a })] });

/** Validations from..to, every other one failing; synchronous, so no Go goroutine but the call's runs. */
function validate(from, to) {
  for (let i = from; i < to; i++) {
    const r = b.validate({ function: "n", arguments: { x: i % 2 ? "s" : i } });
    if (r.ok !== (i % 2 === 0)) throw new Error(`validation ${i}: got ok ${r.ok}`);
  }
}

/** The JS heap after collecting (synchronously: no turn of the event loop), the RSS and the counts. */
function measure() {
  global.gc();
  global.gc();
  const m = process.memoryUsage();
  return { js: m.heapUsed, rss: m.rss, refs: debug.jsRefs(), held: debug.validatorSchemas() };
}

const t0 = performance.now();
validate(0, FIRST);
const first = measure();
const rss = [];
for (let at = FIRST; at < THEN; at += STEP) {
  validate(at, Math.min(at + STEP, THEN));
  rss.push(measure().rss / MiB);
}
const then = measure();
const perCall = ((performance.now() - t0) * 1000) / THEN;
const n = (x) => x.toLocaleString("en");
const counts = `JS values Go holds ${first.refs} → ${then.refs}, schemas the validator module holds ${first.held} → ${then.held}; ${perCall.toFixed(0)} µs a validation`;
const base = { figure: 9, unit: "MiB", peer: `the same after ${n(FIRST)} validations` };
emit([
  row({ ...base, id: "memory-validator-js-heap", name: `JS heap after ${n(THEN)} validations through the validator module`, toolgate: then.js / MiB, peerValue: first.js / MiB, note: `heapUsed after global.gc(), no async call in between; ${counts}` }),
  row({ ...base, id: "memory-validator-rss", name: `RSS after ${n(THEN)} validations through the validator module`, toolgate: then.rss / MiB, peerValue: first.rss / MiB, note: `process.memoryUsage().rss after global.gc(); every ${n(STEP)} from ${n(FIRST + STEP)}: ${Math.min(...rss).toFixed(0)}–${Math.max(...rss).toFixed(0)} MiB; core build, a \`not\` schema` }),
]);
process.exit(0);
