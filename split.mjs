import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
const { tools } = JSON.parse(readFileSync("bench/mcp-tools.json", "utf8"));
function exampleOf(s) { if (s.enum) return s.enum[0]; const t = { string: "text", number: 2, integer: 2, boolean: true, array: [], object: {} }; return t[Array.isArray(s.type) ? s.type[0] : s.type] ?? null; }
function exampleArgs(schema) { const a = {}; for (const [k, s] of Object.entries(schema.properties ?? {})) if (schema.required?.includes(k) || !s.format) a[k] = exampleOf(s); return a; }
const items = Array.from({ length: 50 }, (_, k) => { const t = tools[k % tools.length]; const s = structuredClone(t.inputSchema); for (const p of Object.values(s.properties ?? {})) p.description = `${p.description ?? ""} (copy ${k})`; return { name: `${t.name.replace(/[^A-Za-z0-9_]/g, "_")}_${k}`, description: t.description, schema: s, args: exampleArgs(s) }; });
const tg = await (await import("toolgate/core")).initialize();
const mode = process.argv[2] ?? "none";
const c0 = process.cpuUsage(); const t0 = performance.now();
const per = []; const ts = items.map((v) => { const a = performance.now(); const r = tg.tool({ name: v.name, description: v.description, parameters: v.schema, handler: (a) => a, coerce: mode }); per.push(+(performance.now()-a).toFixed(1)); return r; });
const t1 = performance.now(); const c1 = process.cpuUsage(c0);
const b = tg.branch({ tools: ts });
const t2 = performance.now();
for (const v of items) if (!b.validate({ function: v.name, arguments: v.args }).ok) throw new Error(v.name);
const t3 = performance.now(); const c3 = process.cpuUsage(c0);
console.log(JSON.stringify({ create: +(t1 - t0).toFixed(1), createCpu: +((c1.user+c1.system)/1000).toFixed(1), allCpu: +((c3.user+c3.system)/1000).toFixed(1), branch: +(t2 - t1).toFixed(1), validate: +(t3 - t2).toFixed(1), precheck: ts.filter(t=>t.info?.precheck).length }));
