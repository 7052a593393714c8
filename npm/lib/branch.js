// Branch: a conversation branch's tool registry (LionAGI's ActionManager), and tg.branch().
// Node and browser.
import { ToolgateError, checkOptions, describe, readInput } from "./errors.js";
import { toJSON, reviveBigints } from "./json.js";
import { tool, goTool, isToolOf } from "./tool.js";
import { FunctionCalling, run, checkSignal, awaitValidator } from "./function-calling.js";
import { PlanCache } from "./plan-cache.js";
import { checkRequestArguments, checkRequestText } from "./size-limits.js";
import { OP } from "./contract.js";
import { SEARCH_TOOL_NAME, searchTool, searchTools } from "./tool-search.js";

/**
 * A request as the JSON text Go parses; a Tool or function in `function` becomes its name. The size
 * limits are checked first on the lengths JS holds (size-limits.js): argument text over the limit,
 * or request text over it, is refused before anything is serialised or crosses.
 */
function requestText(ctx, request) {
  if (typeof request === "string") {
    checkRequestText(request, "the request");
    return request;
  }
  const text = readInput("a call", "request", "invalid-request", () => {
    if (request === null || typeof request !== "object" || Array.isArray(request)) {
      throw new ToolgateError("invalid-request", `a request must be an object or JSON text, got ${describe(request)}`);
    }
    let r = request;
    if (typeof r.function === "function" || isToolOf(ctx, r.function)) {
      r = { ...r, function: typeof r.function === "function" ? r.function.name : r.function.function };
    }
    checkRequestArguments(r);
    checkRequestText(r, "the request");
    return toJSON(r, { code: "invalid-request", what: "the request", depthCode: "invalid-arguments" });
  });
  checkRequestText(text, "the request");
  return text;
}

/**
 * Go's branch.match (or branch.validate) for a request, its big integers revived as BigInts. A
 * refusal Go says JS may answer next time carries the tool's handle as `plan`: it is handed to
 * `learn` and taken off the error.
 */
function matchJSON(ctx, handle, request, op, learn) {
  let text;
  try {
    text = ctx.inst.call(op, handle, requestText(ctx, request));
  } catch (e) {
    if (ToolgateError.isInstance(e) && Object.hasOwn(e, "plan")) {
      const tool = e.plan;
      delete e.plan;
      learn({ precheck: true, tool });
    }
    throw e;
  }
  const m = JSON.parse(text);
  if (m.bigints) reviveBigints(m.arguments, m.bigints);
  learn(m);
  return m;
}

/** A JS-evaluated refusal about to be thrown, given the stack of the throw where the engine can (V8). */
function withStack(e) {
  if (typeof Error.captureStackTrace === "function") Error.captureStackTrace(e, Branch.prototype.match);
  return e;
}

/**
 * A conversation branch's tool registry (LionAGI's ActionManager). Node and browser.
 * @example const b = tg.branch({ tools: [add] }); await b.invoke({ function: "add", arguments: { a: 1, b: 2 } })
 */
export class Branch {
  #ctx;
  #kind; // the class constructed (Branch or a subclass): clone() makes another of it
  #h;
  #gen;
  #held = new Map(); // Tool -> true: keeps JS tools alive while registered
  #lists = {}; // "tools" | "schemas" -> {version, text}: the last list Go sent
  #exports = []; // the toProvider payloads of this branch's exports, in order: replayed into a rebuilt branch
  #plans; // the JS evaluator's plans for this branch's names (plan-cache.js)
  #defers = []; // the branch.defer payloads of this branch, in order: replayed into a rebuilt branch
  #search; // this branch's search tool, once a tool is deferred
  constructor(ctx, handle) {
    this.#ctx = ctx;
    this.#kind = new.target;
    this.#h = handle;
    this.#gen = ctx.inst.generation;
    this.#plans = new PlanCache(ctx, () => (ctx.stale(this.#gen) ? NaN : ctx.inst.changes()));
    ctx.track(this, OP.branchRelease, handle);
  }
  #handle() {
    const ctx = this.#ctx;
    if (ctx.stale(this.#gen)) {
      ctx.inst._ensure();
      const items = [...this.#held.keys()].filter((t) => t._spec.payload).map((t) => ({ $tool: t._handle() }));
      this.#h = ctx.inst.callJSON(OP.branchCreate, 0, JSON.stringify({ items, update: true }));
      for (const p of this.#exports) ctx.inst.call(OP.toProvider, this.#h, p); // what the exports remembered: aliases, restores
      for (const p of this.#defers) ctx.inst.call(OP.branchDefer, this.#h, p); // which tools are deferred, which revealed
      this.#lists = {}; // versions of the old instance mean nothing in the new one
      this.#plans.clear(); // nor does what its names resolved to
      this.#gen = ctx.inst.generation;
    }
    return this.#h;
  }
  /** The Go handle, rebuilt if the instance restarted. @internal */
  _handle() {
    return this.#handle();
  }
  /** The context of the API this branch belongs to (the SDK adapters reach tg through it). @internal */
  get _ctx() {
    return this.#ctx;
  }
  /** Whether this branch was made by the API of `ctx`. @internal */
  _of(ctx) {
    return this.#ctx === ctx;
  }
  /**
   * After an export (provider-export.js): its payload, replayed into a rebuilt branch so that Go
   * remembers its aliases and restores again. @internal
   */
  _exported(payload) {
    this.#exports = this.#exports.filter((p) => p !== payload); // the same export again: its place is now last
    this.#exports.push(payload);
  }
  /** What register, has or getToolSchema was handed, as Go reads it (see ops_branch.go's ref). */
  #ref(x, mode, seen = new Set()) {
    return readInput(mode === "schema" ? "getToolSchema" : mode, "value", "unsupported-type", () => this.#refOf(x, mode, seen));
  }
  #refOf(x, mode, seen) {
    if (typeof x === "string" || typeof x === "boolean" || x === null) return x;
    if (x === undefined) return null;
    if (isToolOf(this.#ctx, x)) {
      if (mode !== "has") this.#held.set(x, true);
      return { $tool: x._handle() };
    }
    if (typeof x === "function") {
      if (mode === "has") return x.name;
      const t = tool(this.#ctx, x);
      this.#held.set(t, true);
      return { $callable: t._handle() };
    }
    if (Array.isArray(x)) {
      if (seen.has(x)) throw new ToolgateError("unsupported-type", `${mode}: the list holds itself`);
      seen.add(x);
      const out = x.map((e) => this.#refOf(e, mode, seen));
      seen.delete(x);
      return out;
    }
    if (typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
      return mode === "schema" ? { $schema: x } : { $mcp: x };
    }
    return { $type: typeof x === "object" ? (x.constructor?.name ?? "object") : typeof x };
  }
  /**
   * Registers a tool, function, one-entry MCP config, or a list of them. With `defer: true` the
   * tools are deferred: left out of `tg.toProvider` exports until the branch's `tool_search` tool
   * (or `searchTools` with `reveal`) finds them.
   */
  register(tools, opts) {
    const { update = false, defer = false } = checkOptions(opts, ["update", "defer"], "register");
    const list = Array.isArray(tools) ? tools : [tools];
    if (!Array.isArray(tools) && (tools === null || tools === undefined)) {
      throw new ToolgateError("unsupported-type", "Must provide a `Tool` object, a callable function, or an MCP config dict.");
    }
    const payload = { items: list.map((t) => this.#ref(t, "register")), update: !!update };
    if (defer) payload.defer = true;
    const names = this.#ctx.inst.call(OP.branchRegister, this.#handle(), toJSON(payload, { code: "unsupported-type", what: "register" }));
    if (defer) this._defer({ names: JSON.parse(names) }, true);
  }
  /**
   * Records a deferral in Go ({names?, servers?, reveal?}) and remembers it for a rebuilt branch;
   * the first one registers the branch's search tool. `applied`: Go has it already. @internal
   */
  _defer(payload, applied = false) {
    const text = JSON.stringify(payload);
    if (!applied) this.#ctx.inst.call(OP.branchDefer, this.#handle(), text);
    this.#defers.push(text);
    if (!this.#search && !payload.reveal) this.#addSearchTool();
  }
  /** Registers this branch's search tool (replacing a copy a clone inherited). */
  #addSearchTool() {
    this.#search = searchTool(this.#ctx, this);
    this.register(this.#search, { update: this.has(SEARCH_TOOL_NAME) && this.#inherited() });
    this._defer({ searchTool: SEARCH_TOOL_NAME });
  }
  /** Whether the tool named tool_search is the search tool of the branch this one was cloned from. */
  #inherited() {
    return this.#defers.some((p) => p.includes('"searchTool"'));
  }
  /**
   * Searches this branch's deferred tools by name, description and parameter names (BM25,
   * deterministic: ties by name); `{limit}` (default 5, at most 50), `{reveal: true}` to include the
   * hits in later exports, as the `tool_search` tool does. Node and browser.
   * @example b.searchTools("weather forecast", { limit: 3 }) // [{name, description, parameters}]
   */
  searchTools(query, opts) {
    const o = checkOptions(opts, ["limit", "reveal"], "searchTools");
    const hits = searchTools(this.#ctx, this.#handle(), query, o, false);
    if (o.reveal && hits.length) this._defer({ reveal: hits.map((h) => h.name) });
    return hits;
  }
  /** Whether a name, Tool, function or one-entry MCP config is registered. */
  has(ref) {
    let text;
    try {
      text = toJSON(this.#ref(ref, "has"), { code: "unsupported-type", what: "has" });
    } catch {
      return false; // what cannot cross to Go cannot be registered either
    }
    return JSON.parse(this.#ctx.inst.call(OP.branchHas, this.#handle(), text));
  }
  /** The registry: name → Tool, in insertion order. */
  get tools() {
    const pairs = JSON.parse(this.#list("tools", OP.branchTools));
    return new Map(pairs.map(([name, h]) => [name, goTool(this.#ctx, h)]));
  }
  /** Provider schemas in insertion order (fresh objects each time). */
  get schemaList() {
    return JSON.parse(this.#list("schemas", OP.branchSchemaList));
  }
  /**
   * The JSON text of a list Go keeps (tools or schemas), crossed again only when the registry
   * changed: Go answers its version alone when it matches the one held here.
   */
  #list(kind, op) {
    const h = this.#handle(); // first: a rebuilt branch starts with an empty cache
    const releases = this.#ctx.releases; // a tool handle released since makes a held list of handles stale
    const held = this.#lists[kind];
    const text = this.#ctx.inst.call(op, h, held && held.releases === releases ? held.version : "");
    if (text[0] !== "[") return held.text;
    const comma = text.indexOf(",");
    this.#lists[kind] = { version: text.slice(1, comma), text: text.slice(comma + 1, -1), releases };
    return this.#lists[kind].text;
  }
  /** LionAGI's get_tool_schema: true | false | name | Tool | fn | schema | list. */
  getToolSchema(selection, opts) {
    const { autoRegister = true, update = false } = checkOptions(opts, ["autoRegister", "update"], "getToolSchema");
    const payload = { autoRegister: !!autoRegister, update: !!update };
    if (selection !== undefined) payload.selection = this.#ref(selection, "schema");
    return this.#ctx.inst.callJSON(OP.branchGetToolSchema, this.#handle(), toJSON(payload, { code: "unsupported-type", what: "getToolSchema" }));
  }
  /** Resolves and validates a call; returns an un-invoked FunctionCalling. */
  match(request) {
    const fast = this.#plans.answer(request);
    if (fast) {
      const v = fast.verdict;
      if (!v.ok) throw withStack(v.error); // the evaluator makes its refusals without one
      return new FunctionCalling(fast.tool, { function: fast.tool.function, arguments: v.arguments, conversions: v.conversions }, this.#ctx);
    }
    const stamp = this.#plans.stamp();
    const m = matchJSON(this.#ctx, this.#handle(), request, OP.branchMatch, (a) => this.#plans.learn(request, a, stamp));
    return new FunctionCalling(goTool(this.#ctx, m.tool), m, this.#ctx);
  }
  /**
   * Like match, but never throws: {ok: true, arguments} | {ok: false, error}; and it also refuses
   * the keys the tool's function would refuse when it runs, so what it accepts, invoke runs.
   */
  validate(request) {
    const fast = this.#plans.answer(request);
    if (fast) {
      const v = fast.verdict;
      if (!v.ok) return v;
      const r = { ok: true, function: fast.tool.function, arguments: v.arguments };
      if (v.conversions) r.conversions = v.conversions;
      return r;
    }
    try {
      const stamp = this.#plans.stamp();
      const m = matchJSON(this.#ctx, this.#handle(), request, OP.branchValidate, (a) => this.#plans.learn(request, a, stamp));
      const r = { ok: true, function: m.function, arguments: m.arguments };
      if (m.conversions) r.conversions = m.conversions;
      return r;
    } catch (e) {
      return { ok: false, error: ToolgateError.isInstance(e) ? e : new ToolgateError("internal", String(e && e.message), { cause: e }) };
    }
  }
  /** How many matches and validations the JS evaluator answered. @internal */
  get _evaluated() {
    return this.#plans.answered;
  }
  /** false sends every call to Go (the differential tests' reference); true again uses the JS evaluator. @internal */
  set _jsEvaluator(on) {
    this.#plans.enabled = on;
  }
  /**
   * Matches and runs a call; resolves to the FunctionCalling whatever its status. `onProgress`
   * receives the progress notifications of an MCP tool's call (other tools report none);
   * `context`, any value, reaches a typed handler's second argument ({context, signal, callId,
   * function}) and a local tool's approve hook, and is never serialised or sent to Go.
   */
  async invoke(request, opts) {
    const o = checkOptions(opts, ["signal", "onProgress", "context"], "invoke");
    const signal = checkSignal(o.signal, "invoke");
    if (o.onProgress !== undefined && o.onProgress !== null && typeof o.onProgress !== "function") {
      throw new ToolgateError("unsupported-type", `invoke: option onProgress must be a function, got ${describe(o.onProgress)}`);
    }
    const fc = await awaitValidator(this.#ctx, () => this.match(request)); // waits for a validator still downloading
    await run(this.#ctx, fc, signal, o.onProgress ?? undefined, o.context);
    return fc;
  }
  /** A new registry holding the same Tool objects, of the same class as this one. */
  clone() {
    const b = new this.#kind(this.#ctx, this.#ctx.inst.callJSON(OP.branchClone, this.#handle(), ""));
    for (const t of this.#held.keys()) b.#held.set(t, true);
    b.#exports = [...this.#exports];
    b.#defers = [...this.#defers];
    if (this.#search) b.#addSearchTool(); // its own: the inherited one would search and reveal in this branch
    return b;
  }
}

/**
 * Creates a branch of class `Kind` (Branch or McpBranch) in the API of `ctx`, registering `tools`
 * (a repeated name is duplicate-tool). Node and browser.
 */
export function branch(ctx, opts, Kind = Branch) {
  const { tools = [], defer = [] } = checkOptions(opts, ["tools", "defer"], "tg.branch");
  const b = new Kind(ctx, ctx.inst.callJSON(OP.branchCreate, 0, ""));
  const list = (Array.isArray(tools) ? tools : [tools]).filter((t) => t !== null && t !== undefined);
  if (list.length) b.register(list);
  const deferred = (Array.isArray(defer) ? defer : [defer]).filter((t) => t !== null && t !== undefined);
  if (deferred.length) b.register(deferred, { defer: true });
  return b;
}
