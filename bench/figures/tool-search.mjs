// Tool search over 10,000 deferred tools (issue 24): the first search (which builds the BM25
// index), then b.searchTools per query, beside a naive JS filter over the same 10,000 names,
// descriptions and parameter names (every query word a substring; no ranking).
import { initialize } from "toolgate/core";
import { performance } from "node:perf_hooks";
import { usPerCallEach, row, emit } from "../common.mjs";

const MANY = 10000;
const QUERIES = ["weather forecast city", "send invoice customer", "tool 4242", "database rows region 7"];
const TOPICS = ["weather", "invoice", "calendar", "database", "mail", "files", "search", "payments"];

/** Tool i: a typed tool with a name, description and two parameters. */
function spec(i) {
  const topic = TOPICS[i % TOPICS.length];
  return {
    name: `${topic}_tool_${i}`,
    description: `Handles ${topic} requests for region ${i % 13}, batch ${i % 97}.`,
    parameters: { type: "object", properties: { [`${topic}Id`]: { type: "string" }, region: { type: "integer" } }, required: [`${topic}Id`] },
  };
}

const tg = await initialize();
const specs = Array.from({ length: MANY }, (_, i) => spec(i));
const b = tg.branch();
const t0 = performance.now();
b.register(specs.map((s) => tg.tool({ ...s, handler: (a) => a })), { defer: true });
const registerMs = performance.now() - t0;
const t1 = performance.now();
if (b.searchTools("weather").length === 0) throw new Error("the first search found nothing");
const firstMs = performance.now() - t1;

const docs = specs.map((s) => `${s.name} ${s.description} ${Object.keys(s.parameters.properties).join(" ")}`.toLowerCase());
const naive = (q) => {
  const words = q.toLowerCase().split(/\s+/);
  const out = [];
  for (let i = 0; i < docs.length && out.length < 5; i++) if (words.every((w) => docs[i].includes(w))) out.push(specs[i].name);
  return out;
};
let k = 0;
const us = await usPerCallEach({
  search: () => b.searchTools(QUERIES[k++ % QUERIES.length], { limit: 5 }).length,
  naive: () => naive(QUERIES[k++ % QUERIES.length]).length,
}, 1, { minMs: 5, warmupMs: 200 });

emit([
  row({
    id: "tool-search-10k-first", figure: "search", unit: "ms", name: `first b.searchTools() over ${MANY.toLocaleString("en")} deferred tools (builds the index)`,
    toolgate: firstMs, note: `registering the ${MANY.toLocaleString("en")} deferred typed tools took ${(registerMs / 1000).toFixed(1)} s`,
  }),
  row({
    id: "tool-search-10k-query", figure: "search", unit: "µs/call", name: `b.searchTools() over ${MANY.toLocaleString("en")} deferred tools, BM25, top 5`,
    toolgate: us.search, peer: "a naive JS filter (every word a substring, first 5, no ranking)", peerValue: us.naive,
    note: `${QUERIES.length} queries in turn`,
  }),
]);
process.exit(0);
