// Tools: the Tool class, tg.tool() (the raw function path and the typed path), and the Tool
// objects of Go-made tools. Node and browser.
import { approvalOf } from "./approval.js";
import { ToolgateError, checkOptions, describe } from "./errors.js";
import { toJSON, parseExact, recordValue } from "./json.js";
import { jsonSchemaOf } from "./schema.js";
import { OP, TOOL_OPTIONS, TYPED_TOOL_OPTIONS } from "./contract.js";
import { compileEvaluator } from "./evaluator.js";
import { checkSchemaText } from "./size-limits.js";

/** The longest delay setTimeout honours (2^31−1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const H = Symbol("toolgate.handle");
const GEN = Symbol("toolgate.generation");

/**
 * A tool: a live callable beside its provider schema. Built by `tg.tool()`.
 * Node and browser.
 */
export class Tool {
  #ctx;
  #info;
  #spec;
  #program; // undefined until first asked (tool.program); null when Go exports none
  #evaluator; // undefined until first asked; null when Go exported no program (or one this build cannot run)
  constructor(ctx, spec, info) {
    this.#ctx = ctx;
    this.#spec = spec;
    this.#attach(info);
  }
  #attach(info) {
    const ctx = this.#ctx;
    this.#info = info;
    this.#program = undefined;
    this.#evaluator = undefined;
    this[H] = info.id;
    this[GEN] = ctx.inst.generation;
    const ref = new WeakRef(this);
    ctx.tools.set(info.id, ref);
    ctx.track(this, OP.toolRelease, info.id, ref);
  }
  /** The Go handle, rebuilt if the instance restarted. @internal */
  _handle() {
    const ctx = this.#ctx;
    if (ctx.stale(this[GEN])) {
      ctx.inst._ensure();
      if (!this.#spec.payload) throw new ToolgateError("internal", "this tool belonged to a stopped instance and cannot be rebuilt");
      this.#attach(ctx.inst.callJSON(OP.toolCreate, 0, this.#spec.payload));
    }
    return this[H];
  }
  /** Whether this tool was made by the API of `ctx`. @internal */
  _of(ctx) {
    return this.#ctx === ctx;
  }
  /** @internal */ get _spec() {
    return this.#spec;
  }
  /**
   * The JS evaluator of this typed JS tool's arguments (evaluator.js), or null when Go exported no
   * program. @internal
   */
  get _evaluator() {
    if (this.#evaluator === undefined) {
      const p = this.#exported();
      this.#evaluator = p ? compileEvaluator(p, this.function) : null;
    }
    return this.#evaluator;
  }
  /**
   * The program Go exported for this typed JS tool's arguments (a fresh copy, for a plan), or null
   * when it exported none or the tool is not typed. @internal
   */
  get _program() {
    const p = this.#exported();
    return p ? structuredClone(p) : null;
  }
  /**
   * The program of a typed tool, asked of Go once (tool.program) the first time it is needed rather
   * than sent with every tool.create; null for other tools and when Go exports none.
   */
  #exported() {
    if (this.#program === undefined) this.#program = this.#spec.kind === "typed" ? this.#ctx.inst.callJSON(OP.toolProgram, this._handle(), "") : null;
    return this.#program;
  }
  /** @internal */ get _signature() {
    return this.#info.signature;
  }
  /** The tool's name, from its schema. */
  get function() {
    return this.#info.function;
  }
  /** The provider schema (a fresh copy each time). */
  get toolSchema() {
    return structuredClone(this.#info.toolSchema);
  }
  /** The input examples as checked at creation (a fresh copy each time); [] when it has none. */
  get inputExamples() {
    return structuredClone(this.#info.inputExamples ?? []);
  }
  /** The schema's `required`, in order; throws invalid-schema when it has none. */
  get requiredFields() {
    const e = this.#info.requiredFieldsError;
    if (e) throw new ToolgateError(e.code, e.message, { tool: e.tool || this.function });
    return [...this.#info.requiredFields];
  }
  /** The keys the non-strict check requires. */
  get minimumAcceptableFields() {
    return [...this.#info.minimumAcceptableFields];
  }
  get strictFuncCall() {
    return this.#info.strictFuncCall;
  }
  get id() {
    return this.#info.uuid;
  }
  get createdAt() {
    return this.#info.createdAt;
  }
  get metadata() {
    return structuredClone(this.#info.metadata);
  }
  /**
   * For a tool of an MCP server: {server, tool, annotations, protocolVersion} (the server's name,
   * the tool's name on it, its annotations as the server sent them or null, the protocol version it
   * was discovered with or null), a fresh copy each time; null otherwise.
   */
  get mcp() {
    return this.#info.mcpTool ? structuredClone(this.#info.mcpTool) : null;
  }
  /** The declaration record (LionAGI's keys and order); never a callable. */
  toDict(mode = "python") {
    const options = toJSON({ mode }, { code: "unsupported-type", what: "toDict's mode" });
    return recordValue(parseExact(this.#ctx.inst.call(OP.toolToDict, this._handle(), options)));
  }
  /** Always throws not-restorable: a record cannot bring back a callable. */
  static fromDict() {
    throw new ToolgateError("not-restorable", "`Tool.fromDict` is not supported: a record holds no callable; build the tool from code");
  }
  get [Symbol.toStringTag]() {
    return "Tool";
  }
}

/** Whether x is a Tool of the API of `ctx` (a Tool of another instance is not). Node and browser. */
export function isToolOf(ctx, x) {
  return x instanceof Tool && x._of(ctx);
}

/** Wraps a tool Go made (an MCP tool) from its info; Go holds its callable. Node and browser. */
export function goToolFromInfo(ctx, info) {
  return new Tool(ctx, { kind: "go" }, info);
}

/**
 * The Tool object of a Go tool handle: the one already known, or a new wrapper. A Tool of a stopped
 * instance (or one rebuilt since under another handle) never answers for a handle the new instance
 * reuses. Node and browser.
 */
export function goTool(ctx, handle) {
  const known = ctx.tools.get(handle)?.deref();
  if (known && known[H] === handle && !ctx.stale(known[GEN])) return known;
  return goToolFromInfo(ctx, ctx.inst.callJSON(OP.toolInfo, handle, ""));
}

/** The raw path: a named JS function, its source parsed by Go. */
function functionSpec(fn, opts) {
  const o = { ...checkOptions(opts, TOOL_OPTIONS, "tg.tool") };
  if (!fn.name && !o.name) {
    throw new ToolgateError(
      "invalid-tool",
      "Function must have a name: pass {name} for an anonymous function. (Minifiers rename functions and parameters too: in bundled code prefer the typed path {name, parameters, handler}.)",
    );
  }
  return { kind: "function", fn, handler: undefined, name: fn.name, source: Function.prototype.toString.call(fn), o };
}

/** The typed path: {name, parameters, handler, …options}. */
function typedSpec(spec, opts) {
  if (opts !== undefined) throw new ToolgateError("unsupported-type", "tg.tool({…}): pass options inside the object, not as a second argument");
  const o = { ...checkOptions(spec, TYPED_TOOL_OPTIONS, "tg.tool") };
  const handler = o.handler;
  delete o.handler;
  if (typeof handler !== "function") throw new ToolgateError("invalid-tool", "tg.tool({…}): handler must be a function", { tool: o.name });
  if (typeof o.name !== "string" || o.name === "") throw new ToolgateError("invalid-tool", "tg.tool({…}): name must be a non-empty string");
  o.parameters = jsonSchemaOf(o.parameters, `tool ${o.name}`);
  return { kind: "typed", fn: undefined, handler, name: o.name, source: "", o };
}

/** A lone surrogate: a UTF-16 half with no other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Refuses a name holding a lone surrogate with invalid-tool (keyword utf8, Go's rule for a name
 * that is not valid UTF-8): it would reach Go as U+FFFD, under another name. Go checks every other
 * rule of names (core.CheckToolName).
 */
function checkNameText(name) {
  if (typeof name !== "string") return;
  const m = LONE_SURROGATE.exec(name);
  if (!m) return;
  const message = `the tool name holds a lone surrogate U+${name.charCodeAt(m.index).toString(16).toUpperCase()} at UTF-16 unit ${m.index}, which is no Unicode text`;
  throw new ToolgateError("invalid-tool", `${message}.`, { tool: name, issues: [{ path: "/function/name", keyword: "utf8", message }] });
}

/**
 * Refuses the values of the options that stay in JS: the processors must be functions and
 * timeoutMs a finite number (Go refuses a negative one, and every other option's value, itself).
 */
function checkValues(o) {
  for (const k of ["preprocessor", "postprocessor"]) {
    if (o[k] !== undefined && typeof o[k] !== "function") throw new ToolgateError("unsupported-type", `tg.tool: option ${k} must be a function`);
  }
  if (o.timeoutMs !== undefined && !Number.isFinite(o.timeoutMs)) {
    throw new ToolgateError("unsupported-type", `tg.tool: option timeoutMs must be a finite number of milliseconds, got ${describe(o.timeoutMs)}`);
  }
  if (o.timeoutMs > MAX_TIMER_MS) {
    throw new ToolgateError("invalid-tool", `tg.tool: option timeoutMs is ${o.timeoutMs}; a JS timer waits at most ${MAX_TIMER_MS} ms`);
  }
}

/**
 * Builds a tool from a JS function (the raw path) or from `{name, parameters, handler}` (the
 * typed path), in the API of `ctx`. Node and browser.
 * @example const add = tool(ctx, function add(a, b) { return a + b })
 */
export function tool(ctx, fnOrSpec, opts) {
  let s;
  if (typeof fnOrSpec === "function") s = functionSpec(fnOrSpec, opts);
  else if (fnOrSpec && typeof fnOrSpec === "object" && !Array.isArray(fnOrSpec)) s = typedSpec(fnOrSpec, opts);
  else throw new ToolgateError("invalid-tool", `tg.tool: expected a function or {name, handler, …}, got ${describe(fnOrSpec)}`);
  const { kind, fn, handler, name, source, o } = s;
  checkNameText(o.name ?? name);
  checkValues(o);
  const { preprocessor, postprocessor, preprocessorKwargs, postprocessorKwargs, requireApproval, approve, approvalTimeoutMs, toModelOutput, ...goOpts } = o;
  if (toModelOutput !== undefined && typeof toModelOutput !== "function") {
    throw new ToolgateError("unsupported-type", `tg.tool: option toModelOutput must be a function (response, {function, callId}) => what the model is sent, got ${describe(toModelOutput)}`, { tool: o.name ?? name });
  }
  const approval = approvalOf({ requireApproval, approve, approvalTimeoutMs }, o.name ?? name);
  if (goOpts.parameters !== undefined) {
    // Over the schema limit on its length: refused before the payload is built or crosses.
    checkSchemaText(goOpts.parameters, goOpts.name || name);
    checkSchemaText(toJSON(goOpts.parameters, { code: "invalid-schema", what: `the parameters schema of ${name}` }) ?? "", goOpts.name || name);
  }
  const payload = toJSON({ kind, name, source, options: goOpts }, { code: "invalid-tool", what: `tg.tool(${name})` });
  const info = ctx.inst.callJSON(OP.toolCreate, 0, payload);
  return new Tool(
    ctx,
    {
      kind,
      fn,
      handler,
      payload,
      preprocessor,
      postprocessor,
      preprocessorKwargs: preprocessorKwargs ?? {},
      postprocessorKwargs: postprocessorKwargs ?? {},
      timeoutMs: o.timeoutMs,
      approval,
      toModelOutput,
    },
    info,
  );
}
