// Figure 9: memory after many invocations. The Go heap (debug stats'
// heapAlloc, after a Go GC) and the JS heap (process.memoryUsage().heapUsed
// after global.gc(); run with --expose-gc) after 10,000 and after 100,000
// `await b.invoke()` of a trivial async JS tool, as a ratio: 1× means
// nothing accumulates.
import { initialize } from "toolgate/core";
import { setImmediate as tick } from "node:timers/promises";
import { row, emit } from "../common.mjs";

const FIRST = 10000;
const THEN = 100000;
const MiB = 1024 * 1024;

if (typeof global.gc !== "function") throw new Error("memory.mjs needs node --expose-gc");
const tg = await initialize();
const debug = tg[Symbol.for("toolgate.debug")];
const parameters = { type: "object", properties: { a: { type: "integer" } }, required: ["a"] };
const b = tg.branch({ tools: [tg.tool({ name: "inc", parameters, handler: async ({ a }) => a + 1, coerce: "none" })] });

async function invoke(from, to) {
  for (let i = from; i < to; i++) {
    const fc = await b.invoke({ function: "inc", arguments: { a: i } });
    if (fc.status !== "completed") throw fc.error;
  }
}

/** Both heaps after collecting: JS twice around a turn of the event loop (so finalizers run), then Go. */
async function heaps() {
  const goBefore = debug.stats().heapAlloc;
  global.gc();
  await tick();
  global.gc();
  debug.grow(0); // releases no ballast here; runs runtime.GC()
  return { go: debug.stats().heapAlloc, goBefore, js: process.memoryUsage().heapUsed };
}

await invoke(0, FIRST);
const first = await heaps();
await invoke(FIRST, THEN);
const then = await heaps();
const n = (x) => x.toLocaleString("en");
const base = { figure: 9, unit: "MiB", peer: `the same heap after ${n(FIRST)} invocations` };
emit([
  row({ ...base, id: "memory-go-heap", name: `Go heap after ${n(THEN)} invocations`, toolgate: then.go / MiB, peerValue: first.go / MiB, note: `heapAlloc after runtime.GC() (before it: ${(first.goBefore / MiB).toFixed(1)} → ${(then.goBefore / MiB).toFixed(1)} MiB); core build, typed async tool` }),
  row({ ...base, id: "memory-js-heap", name: `JS heap after ${n(THEN)} invocations`, toolgate: then.js / MiB, peerValue: first.js / MiB, note: "heapUsed after global.gc()" }),
]);
process.exit(0);
