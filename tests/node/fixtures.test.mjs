// Replays the shared fixtures of tests/fixtures through the npm package, so
// Go and JS assert one contract.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, fixtures, fnFrom } from "./helpers.mjs";

/** Parses JSON keeping integers beyond ±(2^53−1) exact, as BigInts. */
function parseExact(text) {
  const marked = text.replace(/([:\[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, (m, pre, digits) => {
    const n = BigInt(digits);
    return n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER) ? `${pre}"\u0000big:${digits}"` : m;
  });
  return JSON.parse(marked, (_k, v) => (typeof v === "string" && v.startsWith("\u0000big:") ? BigInt(v.slice(5)) : v));
}

const OPTION_NAMES = { requestOptions: "parameters" };

for (const { file, data } of fixtures("schema").filter((f) => f.file === "function_to_schema.json")) {
  for (const c of data.cases.filter((c) => c.js)) {
    test(`schema ${file}: ${c.name}`, () => {
      const opts = {};
      for (const [k, v] of Object.entries(c.options || {})) opts[OPTION_NAMES[k] || k] = v;
      const fn = fnFrom(c.js);
      if (c.error) {
        assert.throws(() => tg.tool(fn, opts), (e) => e.code === c.error, `want ${c.error}`);
        return;
      }
      const t = tg.tool(fn, opts);
      assert.deepEqual(t.toolSchema, c.expected);
      assert.equal(JSON.stringify(t.toolSchema), JSON.stringify(c.expected), "key order");
    });
  }
}

let n = 0;
for (const { file, data } of fixtures("validation")) {
  for (const c of data.cases) {
    if (c.schema !== undefined && c.minimum) continue; // a typed JS tool's minimum is its schema's required
    test(`validation ${file}: ${c.name}`, () => {
      const name = `t${n++}`;
      const coerce = c.coerce || "lax";
      let tool;
      const make = () => {
        if (c.schema === undefined) {
          const params = (c.minimum || []).join(", ");
          return tg.tool(fnFrom(`function ${name}(${params}) { return null; }`), { coerce });
        }
        const schema = typeof c.schema === "string" ? JSON.parse(c.schema) : c.schema;
        return tg.tool({ name, parameters: schema, handler: (a) => a, coerce, strictFuncCall: !!c.strict });
      };
      if (!c.expect.ok && c.expect.code === "invalid-schema" && !c.strict) {
        assert.throws(make, (e) => e.code === "invalid-schema");
        return;
      }
      tool = make();
      const r = tg.branch({ tools: [tool] }).validate(`{"function":"${name}","arguments":${c.arguments}}`);
      if (c.expect.ok) {
        assert.equal(r.ok, true, r.error && `${r.error.code}: ${r.error.message}`);
        assert.deepEqual(r.arguments, parseExact(c.expect.arguments));
        assert.deepEqual(r.conversions || [], c.expect.conversions || []);
      } else {
        assert.equal(r.ok, false, "validation passed, want a failure");
        assert.equal(r.error.code, c.expect.code, r.error.message);
        if (c.expect.issues) {
          assert.deepEqual(
            (r.error.issues || []).map(({ path, keyword }) => ({ path, keyword })),
            c.expect.issues.map(({ path, keyword }) => ({ path, keyword })),
          );
        }
      }
    });
  }
}

for (const { data } of fixtures("manager").filter((f) => f.file === "requests.json")) {
  for (const c of data.cases) {
    test(`request envelope: ${c.name}`, () => {
      const fn = c.want ? c.want.function : "add";
      const b = tg.branch({ tools: [tg.tool({ name: fn, parameters: { type: "object", additionalProperties: true }, handler: (a) => a })] });
      const r = b.validate(c.requestText !== undefined ? c.requestText : c.request);
      if (c.error) {
        assert.equal(r.ok, false);
        assert.equal(r.error.code, c.error, r.error.message);
        return;
      }
      assert.equal(r.ok, true, r.error && r.error.message);
      assert.equal(r.function, c.want.function);
      assert.deepEqual(r.arguments, c.want.arguments);
      assert.deepEqual(Object.keys(r.arguments), Object.keys(c.want.arguments), "key order");
    });
  }
}
