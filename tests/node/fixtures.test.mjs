// Replays the shared fixtures of tests/fixtures through the npm package, so
// Go and JS assert one contract.
import { test } from "node:test";
import assert from "node:assert/strict";
import { tg, tgCore, fixture, fixtures, fnFrom, expectCode } from "./helpers.mjs";

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

/** Writes JSON as Go does for the values here: BigInts as their exact digits. */
function stringifyExact(value) {
  return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? `\u0000big:${v}` : v)).replace(/"\\u0000big:(-?\d+)"/g, "$1");
}

// Every fixture replay registers its cases through replay(), which leaves out the cases that
// cannot be said in JS (each for a stated reason) and counts both; the last test asserts that
// each replay ran most of its fixture's cases.
const replays = [];

/** Registers a test `${label}: ${case name}` per case that leftOut(c) gives no reason for. */
function replay(label, cases, leftOut, run) {
  const r = { label, total: cases.length, replayed: 0, left: new Map() }; // reason → how many cases
  replays.push(r);
  for (const c of cases) {
    const why = leftOut(c);
    if (why) {
      r.left.set(why, (r.left.get(why) || 0) + 1);
      continue;
    }
    r.replayed++;
    test(`${label}: ${c.name}`, () => run(c));
  }
}

/** For fixtures whose every case JS can express. */
const none = () => null;

const OPTION_NAMES = { requestOptions: "parameters" };

{
  const { data } = fixture("schema", "function_to_schema.json");
  replay("schema function_to_schema.json", data.cases, (c) => (c.js ? null : "no js source: the signature is given only as a core.Signature"), (c) => {
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

// Cases that cannot be said in JS are left out, each for a stated reason.
function notExpressibleInJS(c) {
  if (c.schema !== undefined && c.minimum) return "a typed JS tool's minimum is its schema's required";
  if (/^\s*"/.test(c.arguments)) return "in an envelope, arguments as a JSON string are parsed (LionAGI's ActionRequest)";
  if (typeof c.schema === "string" && c.expect.code === "invalid-schema" && /duplicate/.test(c.name)) return "a JS object cannot hold a repeated key";
  return null;
}

/** b.match as a verdict: {ok: true, arguments, conversions?} or {ok: false, error}. */
function matched(b, request) {
  try {
    const fc = b.match(request);
    return { ok: true, arguments: fc.arguments, conversions: fc.conversions };
  } catch (error) {
    return { ok: false, error };
  }
}

let n = 0;
for (const { file, text } of fixtures("validation", { raw: true })) {
  const data = parseExact(text); // schemas may hold integers beyond 2^53
  replay(`validation ${file}`, data.cases, notExpressibleInJS, (c) => {
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
    // Through match: the validation fixtures pin LionAGI's checks (validate adds the raw function's
    // own signature check on top, see verdicts.test.mjs).
    const r = matched(tg.branch({ tools: [tool] }), `{"function":"${name}","arguments":${c.arguments}}`);
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

{
  const { data } = fixture("manager", "requests.json");
  replay("request envelope", data.cases, none, (c) => {
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

// manager/match.json: Go's TestFixtureMatch, through b.match and b.validate.
{
  const { data } = fixture("manager", "match.json");
  const tools = data.tools.map((t) => tg.tool({ name: t.name, parameters: t.parameters, strictFuncCall: !!t.strictFuncCall, handler: (a) => a }));
  const b = tg.branch({ tools });
  replay("match", data.cases, none, (c) => {
    const r = b.validate(c.request);
    if (c.error) {
      expectCode(assert, () => b.match(c.request), c.error);
      assert.equal(r.ok, false, "validate passed, want a failure");
      assert.equal(r.error.code, c.error, `validate: got ${r.error.code} (${r.error.message}), want ${c.error}`);
      return;
    }
    const fc = b.match(c.request);
    assert.equal(fc.status, "pending");
    assert.equal(fc.function, c.want.function);
    assert.deepEqual(fc.arguments, c.want.arguments);
    assert.equal(r.ok, true, r.error && `${r.error.code}: ${r.error.message}`);
    assert.equal(r.function, c.want.function);
    assert.deepEqual(r.arguments, c.want.arguments);
  });
}

// manager/register.json: Go's TestFixtureRegister, through b.register and b.tools.
{
  const { data } = fixture("manager", "register.json");
  const builds = { core: tgCore, full: tg };
  /** What a register step's ref stands for, in the API of one build. */
  const refValue = (api, ref) => {
    if ("tool" in ref) return api.tool({ name: ref.tool, schema: { type: "function", function: { name: ref.tool } }, handler: () => null });
    if ("string" in ref) return ref.string;
    if ("mcp" in ref) return ref.mcp;
    if ("value" in ref) return ref.value;
    throw new Error(`unknown ref ${JSON.stringify(ref)}`);
  };
  replay("register", data.cases, none, (c) => {
    const api = builds[c.build];
    assert.ok(api, `unknown build ${c.build}`);
    const b = api.branch();
    c.steps.forEach((s, i) => {
      const register = () => b.register(refValue(api, s.register), s.update ? { update: true } : undefined);
      if (s.want === "ok") {
        register();
        return;
      }
      const e = expectCode(assert, register, s.want);
      if (s.message) assert.equal(e.message, s.message, `step ${i}`);
    });
    assert.deepEqual([...b.tools.keys()], c.names);
  });
}

// manager/tool_schema.json: Go's TestFixtureToolSchema, through b.getToolSchema.
{
  const { data } = fixture("manager", "tool_schema.json");
  const schemas = Object.fromEntries(data.tools.map((s) => [s.function.name, s]));
  const names = Object.keys(schemas);
  const b = tg.branch({ tools: data.tools.map((s) => tg.tool({ name: s.function.name, schema: s, handler: () => null })) });
  /** want with each "$name" string replaced by that tool's schema. */
  const expand = (v) => {
    if (typeof v === "string" && v.startsWith("$") && Object.hasOwn(schemas, v.slice(1))) return schemas[v.slice(1)];
    if (Array.isArray(v)) return v.map(expand);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, expand(x)]));
    return v;
  };
  replay("getToolSchema", data.cases, none, (c) => {
    const opts = c.autoRegister === undefined ? undefined : { autoRegister: c.autoRegister };
    if (c.error) {
      const e = expectCode(assert, () => b.getToolSchema(c.select, opts), c.error);
      if (c.message) assert.equal(e.message, c.message);
    } else {
      assert.deepEqual(b.getToolSchema(c.select, opts), expand(c.want));
    }
    assert.deepEqual([...b.tools.keys()], names, "a selection registers nothing");
  });
}

// records/function_calling.json: Go's TestFunctionCallingRecordFixture, through b.match,
// b.invoke and fc.toDict(), compared as JSON text.
{
  const data = parseExact(fixture("records", "function_calling.json", { raw: true }).text); // arguments beyond 2^53
  const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const placeholders = {
    "<uuid>": (v) => typeof v === "string" && UUID4.test(v),
    "<seconds>": (v) => typeof v === "number" && Number.isFinite(v) && v > 0,
  };
  /** got with every member want writes as a placeholder checked by shape and replaced by it. */
  const withPlaceholders = (want, got, path = "") => {
    if (want === null || typeof want !== "object" || Array.isArray(want) || got === null || typeof got !== "object") return got;
    const out = {};
    for (const [k, v] of Object.entries(got)) {
      const w = Object.hasOwn(want, k) ? want[k] : undefined;
      if (typeof w === "string" && Object.hasOwn(placeholders, w)) {
        assert.ok(placeholders[w](v), `${path}/${k}: got ${String(v)}, want ${w}`);
        out[k] = w;
      } else {
        out[k] = withPlaceholders(w, v, `${path}/${k}`);
      }
    }
    return out;
  };
  /** The handler a case describes. */
  const handlerOf = (h) => {
    if (h.throwsToolgateError) {
      const { code, message, issues } = h.throwsToolgateError;
      return () => {
        throw new tg.ToolgateError(code, message, { issues });
      };
    }
    if (h.throwsError) {
      const { name, message } = h.throwsError;
      const ErrorClass = globalThis[name];
      assert.ok(ErrorClass === Error || ErrorClass?.prototype instanceof Error, `${name} is not an Error class`);
      return () => {
        throw new ErrorClass(message);
      };
    }
    if ("throwsValue" in h) {
      return () => {
        throw h.throwsValue;
      };
    }
    if (h.hangs) return () => new Promise(() => {});
    if ("returns" in h) return () => h.returns;
    throw new Error(`unknown handler ${stringifyExact(h)}`);
  };
  replay("record", data.cases, none, async (c) => {
    const { name, parameters, timeoutMs } = c.tool;
    const b = tg.branch({ tools: [tg.tool({ name, parameters, handler: handlerOf(c.handler), ...(timeoutMs ? { timeoutMs } : {}) })] });
    const fc = c.invoke ? await b.invoke(c.request) : b.match(c.request);
    if (c.metadata) fc.metadata = c.metadata;
    const record = fc.toDict();
    // A JS record is plain JSON: its BigInts are spelled {"$bigint": digits}, which reviveRecord turns
    // back; revived, it is Go's record to the byte.
    const text = JSON.stringify(record);
    const got = stringifyExact(withPlaceholders(c.want, JSON.parse(text, tg.reviveRecord)));
    assert.equal(got, stringifyExact(c.want));
  });
}

test("every fixture replay runs most of its cases", (t) => {
  for (const r of replays) {
    const left = [...r.left].map(([why, count]) => `${count} (${why})`).join(", ");
    t.diagnostic(`${r.label}: ${r.replayed} of ${r.total} cases replayed${left ? `; left out: ${left}` : ""}`);
    assert.ok(r.total > 0, `${r.label}: got no cases, want a fixture`);
    assert.ok(r.replayed * 2 > r.total, `${r.label}: got ${r.replayed} of ${r.total} cases replayed, want most`);
  }
});
