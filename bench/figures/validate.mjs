// Figure 1: b.validate() on a typical schema over 1,000 varied generated
// objects (10% invalid), as objects and as JSON text (a provider's
// `arguments` string), beside @cfworker/json-schema and Ajv 2020; twice:
// with default options (lax coercion, what `tg.tool({name, parameters,
// handler})` gives; beside Ajv with coerceTypes, its nearest setting) and
// with coerce "none" (beside Ajv's default).
import { initialize } from "toolgate/core";
import Ajv2020 from "ajv/dist/2020.js";
import { Validator } from "@cfworker/json-schema";
import { usPerCallEach, rng, row, emit, versionOf } from "../common.mjs";

const CASES = 1000;

/** Five properties: a string with minLength, an integer with minimum, an enum, an array of strings, a closed nested object. */
const SCHEMA = {
  type: "object",
  properties: {
    query: { type: "string", minLength: 1 },
    limit: { type: "integer", minimum: 1 },
    order: { enum: ["asc", "desc", "relevance"] },
    tags: { type: "array", items: { type: "string" } },
    filter: {
      type: "object",
      properties: { field: { type: "string" }, exact: { type: "boolean" } },
      required: ["field"],
      additionalProperties: false,
    },
  },
  required: ["query", "limit"],
};

const WORDS = ["oslo", "weather", "rust", "go", "wasm", "tool", "model", "gate", "json", "schema", "ünïcødé", "日本"];

function validObject(rand) {
  const word = () => WORDS[Math.floor(rand() * WORDS.length)];
  const o = { query: Array.from({ length: 1 + Math.floor(rand() * 4) }, word).join(" "), limit: 1 + Math.floor(rand() * 500) };
  if (rand() < 0.8) o.order = SCHEMA.properties.order.enum[Math.floor(rand() * 3)];
  if (rand() < 0.7) o.tags = Array.from({ length: Math.floor(rand() * 5) }, word);
  if (rand() < 0.6) {
    o.filter = { field: word() };
    if (rand() < 0.5) o.filter.exact = rand() < 0.5;
  }
  return o;
}

/** Each breaks one rule of SCHEMA; every tenth object gets the next one. */
const BREAKERS = [
  (o) => (o.query = ""),
  (o) => (o.limit = 0),
  (o) => (o.limit = 2.5),
  (o) => (o.order = "random"),
  (o) => (o.tags = ["a", 7]),
  (o) => (o.filter = { field: "x", extra: true }),
  (o) => (o.filter = { exact: true }),
  (o) => delete o.query,
  (o) => (o.limit = "10"),
  (o) => (o.filter = "field"),
];

function makeCases() {
  const rand = rng(20260101);
  return Array.from({ length: CASES }, (_, i) => {
    const args = validObject(rand);
    const valid = i % 10 !== 9;
    const breaker = valid ? -1 : Math.floor(i / 10) % BREAKERS.length;
    if (!valid) BREAKERS[breaker](args);
    return { args, text: JSON.stringify(args), valid, breaker };
  });
}

/** Lax coercion turns limit: "10" into 10; Ajv's coerceTypes does too, and turns the 7 of tags into "7". */
const LAX_REPAIRS = [8];
const AJV_COERCE_REPAIRS = [4, 8];

/**
 * The three validators of one configuration, each as {object(case), text(case)} → verdict and
 * expect(case) → the verdict it must give. `lax`: toolgate with default options and Ajv with
 * coerceTypes; cfworker has no coercion, so it refuses the cases they repair.
 */
function validators(tg, lax) {
  const opts = lax ? {} : { coerce: "none" };
  const b = tg.branch({ tools: [tg.tool({ name: "search", parameters: SCHEMA, handler: (a) => a, ...opts })] });
  const ajv = new Ajv2020({ strict: false, coerceTypes: lax }).compile(SCHEMA);
  const cf = new Validator(SCHEMA, "2020-12");
  const strict = (c) => c.valid;
  const expect = (repairs) => (lax ? (c) => c.valid || repairs.includes(c.breaker) : strict);
  return {
    toolgate: {
      expect: expect(LAX_REPAIRS),
      object: (c) => b.validate({ function: "search", arguments: c.args }).ok,
      text: (c) => b.validate({ function: "search", arguments: c.text }).ok,
    },
    // Ajv's coerceTypes rewrites the object it is given: hand it a copy of the one case it changes
    ajv: {
      expect: expect(AJV_COERCE_REPAIRS),
      object: lax ? (c) => ajv(c.valid ? c.args : structuredClone(c.args)) : (c) => ajv(c.args),
      text: (c) => ajv(JSON.parse(c.text)),
    },
    cfworker: { expect: strict, object: (c) => cf.validate(c.args).valid, text: (c) => cf.validate(JSON.parse(c.text)).valid },
  };
}

/** Every validator must give each case its expected verdict, or the timings compare unlike work. */
function checkVerdicts(vs, cases) {
  for (const [lib, v] of Object.entries(vs)) {
    for (const form of ["object", "text"]) {
      const wrong = cases.findIndex((c) => v[form](c) !== v.expect(c));
      if (wrong >= 0) throw new Error(`${lib} (${form}) disagrees on case ${wrong}: ${cases[wrong].text}, expected valid=${v.expect(cases[wrong])}`);
    }
  }
}

/** µs per call of every validator and form, their samples taken in turn. */
function timeAll(vs, cases) {
  const batches = {};
  let sink = 0;
  for (const [lib, v] of Object.entries(vs)) {
    for (const form of ["object", "text"]) {
      const f = v[form];
      batches[`${lib}.${form}`] = () => {
        for (const c of cases) sink += f(c) ? 1 : 0;
      };
    }
  }
  return usPerCallEach(batches, cases.length);
}

const tg = await initialize();
const cases = makeCases();
const cfName = `@cfworker/json-schema ${versionOf("@cfworker/json-schema")}`;
const ajvName = `Ajv ${versionOf("ajv")} (ajv/dist/2020)`;
const rows = [];
for (const lax of [true, false]) {
  const vs = validators(tg, lax);
  checkVerdicts(vs, cases);
  const us = await timeAll(vs, cases);
  const common = { figure: 1, unit: "µs/call" };
  // the default configuration's rows keep the ids the goals name; coerce "none" gets its own
  const id = (s) => (lax ? `validate-${s}` : `validate-none-${s}`);
  const config = lax ? 'default options (lax coercion)' : 'coerce "none"';
  const ajv = lax ? `${ajvName}, coerceTypes` : ajvName;
  const note = `${CASES} generated objects, 10% invalid; median of 15 samples; typed tool, ${config}` +
    (lax ? '; lax coercion accepts limit: "10" (Ajv\'s coerceTypes also tags: ["a", 7]), cfworker refuses both' : "");
  const what = lax ? "" : ', coerce "none"';
  rows.push(
    row({ ...common, id: id("object-cfworker"), name: `b.validate, typical schema, object arguments${what}`, toolgate: us["toolgate.object"], peer: cfName, peerValue: us["cfworker.object"], note }),
    row({ ...common, id: id("object-ajv"), name: `b.validate, typical schema, object arguments${what}`, toolgate: us["toolgate.object"], peer: ajv, peerValue: us["ajv.object"] }),
    row({ ...common, id: id("text-cfworker"), name: `b.validate, typical schema, JSON text arguments${what}`, toolgate: us["toolgate.text"], peer: `JSON.parse + ${cfName}`, peerValue: us["cfworker.text"] }),
    row({ ...common, id: id("text-ajv"), name: `b.validate, typical schema, JSON text arguments${what}`, toolgate: us["toolgate.text"], peer: `JSON.parse + ${ajv}`, peerValue: us["ajv.text"] }),
  );
}
emit(rows);
process.exit(0); // the Go instance keeps a timer pending
