// Replays the shared fixtures of tests/fixtures through the npm package, so
// Go and JS assert one contract.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, fixtures, fnFrom } from "./helpers.mjs";

/** Parses JSON keeping integers beyond ±(2^53−1) exact, as BigInts. */
function parseExact(text) {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === "-" || (c >= "0" && c <= "9")) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j])) j++;
      const num = text.slice(i, j);
      const big = /^-?\d+$/.test(num) && (BigInt(num) > BigInt(Number.MAX_SAFE_INTEGER) || BigInt(num) < -BigInt(Number.MAX_SAFE_INTEGER));
      out += big ? `"\\u0000big:${num}"` : num;
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return JSON.parse(out, (_k, v) => (typeof v === "string" && v.startsWith("\u0000big:") ? BigInt(v.slice(5)) : v));
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

// Cases that cannot be said in JS are left out, each for a stated reason.
function notExpressibleInJS(c) {
  if (c.schema !== undefined && c.minimum) return "a typed JS tool's minimum is its schema's required";
  if (/^\s*"/.test(c.arguments)) return "in an envelope, arguments as a JSON string are parsed (LionAGI's ActionRequest)";
  if (typeof c.schema === "string" && c.expect.code === "invalid-schema" && /duplicate/.test(c.name)) return "a JS object cannot hold a repeated key";
  return null;
}

let n = 0;
for (const { file, text } of fixtures("validation", { raw: true })) {
  const data = parseExact(text); // schemas may hold integers beyond 2^53
  for (const c of data.cases) {
    if (notExpressibleInJS(c)) continue;
    test(`validation ${file}: ${c.name}`, () => {
      const name = `t${n++}`;
      const coerce = c.coerce || "lax";
      let tool;
      const make = () => {
        if (c.schema === undefined) {
          const params = (c.minimum || []).join(", ");
          return tg.tool(fnFrom(`function ${name}(${params}) { return null; }`), { coerce });
        }
        const schema = typeof c.schema === "string" ? parseExact(c.schema) : c.schema;
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
