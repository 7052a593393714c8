// Plans: tool validation compiled ahead of time (tg.buildPlans, plan-build.js) and run from data in
// JS alone, with no WebAssembly (the toolgate/plan entry). A plan is a tool's name, its provider
// schema and the program Go exported for its arguments; its evaluator (evaluator.js) gives every
// verdict Go would. Node and browser.
import { ToolgateError, describe, readInput } from "./errors.js";
import { compileEvaluator } from "./evaluator.js";
import { checkRequestArguments, checkRequestText } from "./size-limits.js";
import { VERSION } from "./version.js";

/** The `format` of a plans document. @internal */
export const PLAN_FORMAT = "toolgate-plans";

/**
 * The `version` of the plans format this toolgate writes and reads: raised whenever the document's
 * shape or the exported program's meaning changes. @internal
 */
export const PLAN_VERSION = 1;

/** The JSON kind of a JS value, in Go's words (jsontext.Described). */
function described(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  switch (typeof v) {
    case "string":
      return "a string";
    case "number":
    case "bigint":
      return "a number";
    case "boolean":
      return "a boolean";
  }
  return "an object";
}

/** White space Go's bytes.TrimSpace removes (unicode.IsSpace). */
const SPACE = /^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g;

/** Whether a string holds no lone surrogate. */
const wellFormed = typeof String.prototype.isWellFormed === "function" ? (s) => s.isWellFormed() : (s) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

/** Whether text is one JSON value. */
function isJSON(text) {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A refusal of a plans document: `code`, one issue naming the rule (`keyword`) at `path`. */
function planError(code, path, keyword, message, tool) {
  return new ToolgateError(code, `loadPlans: ${message}`, { tool, issues: [{ path, keyword, message }] });
}

/** Checks one plan entry of a document and compiles its evaluator. */
function loadEntry(p, i, seen) {
  const at = `/tools/${i}`;
  if (p === null || typeof p !== "object" || Array.isArray(p)) throw planError("unsupported-type", at, "planShape", `tools[${i}] must be an object, got ${describe(p)}`);
  if (typeof p.name !== "string" || p.name === "") throw planError("unsupported-type", `${at}/name`, "planShape", `tools[${i}].name must be a non-empty string`);
  const name = p.name;
  if (seen.has(name)) throw planError("duplicate-tool", `${at}/name`, "planShape", `the tool ${name} has two plans`, name);
  const prog = p.program;
  if (prog === null || typeof prog !== "object" || !Array.isArray(prog.nodes) || !Number.isInteger(prog.root) || prog.root < 0 || prog.root >= prog.nodes.length) {
    throw planError("unsupported-type", `${at}/program`, "planShape", `the program of ${name} is not one toolgate wrote`, name);
  }
  if (p.toolSchema === null || typeof p.toolSchema !== "object" || Array.isArray(p.toolSchema)) {
    throw planError("unsupported-type", `${at}/toolSchema`, "planShape", `the tool schema of ${name} must be an object`, name);
  }
  let evaluator;
  try {
    evaluator = compileEvaluator(prog, name);
  } catch (e) {
    throw new ToolgateError("unsupported-type", `loadPlans: the program of ${name} cannot be compiled (${e?.message})`, {
      tool: name,
      issues: [{ path: `${at}/program`, keyword: "planShape", message: "the program cannot be compiled" }],
      cause: e,
    });
  }
  seen.add(name);
  return { name, toolSchema: p.toolSchema, evaluator };
}

/**
 * Reads a plans document (the object tg.buildPlans returned, or its JSON text) and refuses one
 * that is not a toolgate plans document (unsupported-type, keyword planFormat or planShape), of
 * another format version or toolgate version (unsupported, keyword planVersion), or that names a
 * tool twice (duplicate-tool).
 */
function readDocument(data) {
  let doc = data;
  if (typeof data === "string") {
    try {
      doc = JSON.parse(data);
    } catch (e) {
      throw planError("unsupported-type", "", "planFormat", `the plans text is not JSON (${e.message})`);
    }
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc) || doc.format !== PLAN_FORMAT) {
    throw planError("unsupported-type", "/format", "planFormat", `expected a plans document ({format: "${PLAN_FORMAT}", …}, from tg.buildPlans or toolgate-plans), got ${doc?.format === undefined ? describe(doc) : `format ${JSON.stringify(doc.format)}`}`);
  }
  if (doc.version !== PLAN_VERSION) {
    throw planError("unsupported", "/version", "planVersion", `these plans are format version ${JSON.stringify(doc.version)}; this toolgate reads version ${PLAN_VERSION}: build them again with toolgate ${VERSION}`);
  }
  if (doc.toolgate !== VERSION) {
    throw planError("unsupported", "/toolgate", "planVersion", `these plans were built by toolgate ${JSON.stringify(doc.toolgate)}; this is toolgate ${VERSION}: build them again with it`);
  }
  if (!Array.isArray(doc.tools)) throw planError("unsupported-type", "/tools", "planShape", `tools must be an array, got ${describe(doc.tools)}`);
  return doc;
}

/**
 * Tool calls validated from plans, in JS alone: what `loadPlans` returns. Node and browser.
 * @example const plans = loadPlans(data); plans.validate({ function: "add", arguments: { a: 1, b: 2 } })
 */
export class Plans {
  #byName = new Map(); // name -> {name, toolSchema, evaluator}
  /** Checks a plans document (an object or JSON text) and compiles its plans; loadPlans calls it. */
  constructor(data) {
    const doc = readDocument(data);
    const seen = new Set();
    doc.tools.forEach((p, i) => {
      const e = loadEntry(p, i, seen);
      this.#byName.set(e.name, e);
    });
  }
  /** The names of the tools the plans hold, in their order. */
  get tools() {
    return [...this.#byName.keys()];
  }
  /** The tools' provider schemas, in order (fresh copies each time), as a branch's schemaList. */
  get schemaList() {
    return [...this.#byName.values()].map((e) => structuredClone(e.toolSchema));
  }
  /**
   * Validates a `{function, arguments}` call (arguments an object or JSON text of one); never
   * throws: {ok: true, function, arguments, conversions?} | {ok: false, error}, what a live
   * branch holding the same tools answers.
   */
  validate(request) {
    try {
      return this.#validate(request);
    } catch (e) {
      return { ok: false, error: ToolgateError.isInstance(e) ? e : new ToolgateError("internal", String(e && e.message), { cause: e }) };
    }
  }
  #validate(request) {
    const { name, args } = readInput("a call", "request", "invalid-request", () => readRequest(request)); // a throwing getter or a revoked Proxy, as a branch reports it
    const entry = this.#byName.get(name);
    if (!entry) return { ok: false, error: this.#notFound(name, args) };
    const r = typeof args === "string" ? entry.evaluator.text(args) : entry.evaluator.object(args);
    if (r === undefined) {
      const message = `the plan of ${name} cannot decide these arguments in JS (the evaluator does not model them); validate this call with a live branch`;
      return { ok: false, error: new ToolgateError("unsupported", message, { tool: name }) };
    }
    if (!r.ok) return r;
    const out = { ok: true, function: name, arguments: r.arguments };
    if (r.conversions) out.conversions = r.conversions;
    return out;
  }
  /**
   * Go's answer for a name no plan holds: tool-not-found, unless the arguments are text that is
   * not JSON, which Go refuses while reading the request, before it looks the name up; then the
   * reading error, as any evaluator gives it (it does not depend on the tool).
   */
  #notFound(name, args) {
    if (typeof args === "string" && (!isJSON(args) || !wellFormed(args))) {
      const any = this.#byName.values().next().value;
      const r = any?.evaluator.text(args);
      if (r && !r.ok) {
        return new ToolgateError(r.error.code, r.error.message, { ...r.error, tool: name, cause: undefined }); // Go's reading errors do not name the tool in their message
      }
    }
    return new ToolgateError("tool-not-found", `Function ${name} is not registered.`, { tool: name });
  }
}

/**
 * Reads a plain {function, arguments} request as Go's request parser would, refusing what it
 * refuses with its messages; any other shape is refused with invalid-request saying what plans
 * take. Returns {name, args}: args an object, or JSON text whose first character is "{".
 */
function readRequest(request) {
  if (request === null || typeof request !== "object" || Array.isArray(request) || typeof request === "function") {
    throw new ToolgateError("invalid-request", `plans validate a {function, arguments} object, got ${typeof request === "string" ? "a string" : describe(request)}`);
  }
  const keys = Object.keys(request).filter((k) => request[k] !== undefined);
  const other = keys.filter((k) => k !== "function" && k !== "arguments");
  if (other.length) {
    throw new ToolgateError("invalid-request", `plans validate a {function, arguments} object; this request also has ${other.map((k) => JSON.stringify(k)).join(", ")} (provider call shapes and call ids need a live branch)`);
  }
  const name = request.function;
  if (typeof name !== "string") throw new ToolgateError("invalid-request", `"function" of the request ${name === undefined ? "is missing" : `must be a string, got ${described(name)}`}.`);
  if (name === "") throw new ToolgateError("invalid-request", `"function" of the request is empty.`);
  const args = request.arguments;
  if (args === undefined || typeof args === "function" || typeof args === "symbol") {
    throw new ToolgateError("invalid-request", `the request for ${name} has no "arguments".`, { tool: name });
  }
  checkRequestArguments(request);
  checkRequestText(request, "the request");
  if (typeof args === "string") {
    if (!wellFormed(args)) return { name, args }; // Go refuses a lone surrogate first: the evaluator says how
    const t = args.replace(SPACE, "");
    if (t[0] === "{") return { name, args };
    if (t !== "" && isJSON(t)) {
      throw new ToolgateError("invalid-request", `"arguments" of ${name} must hold a JSON object, got ${described(JSON.parse(t))}.`, { tool: name });
    }
    throw new ToolgateError("invalid-request", `"arguments" of ${name} is a string that is not a JSON object.`, { tool: name });
  }
  if (args === null || typeof args !== "object" || Array.isArray(args)) {
    throw new ToolgateError("invalid-request", `"arguments" of ${name} must be an object or a JSON string of one, got ${described(args)}.`, { tool: name });
  }
  return { name, args };
}

/**
 * Loads plans (the document tg.buildPlans or the toolgate-plans command wrote, as an object or JSON
 * text) for validating tool calls with no WebAssembly. Throws a ToolgateError for a document that
 * is not toolgate plans (unsupported-type), of another format or toolgate version (unsupported), or
 * that names a tool twice (duplicate-tool). Node and browser.
 * @example import { loadPlans } from "toolgate/plan"; const plans = loadPlans(data); plans.validate(call)
 */
export function loadPlans(data) {
  return new Plans(data);
}
