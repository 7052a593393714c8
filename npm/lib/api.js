// The public API over one GoInstance: tool(), branch(), errors. Node and browser.
import { ToolgateError, checkOptions, describe } from "./errors.js";
import { toJSON, reviveBigints } from "./json.js";
import { jsonSchemaOf } from "./schema.js";

const TOOL_OPTIONS = [
  "name", "description", "parameterDescriptions", "parameters", "schema", "strict", "strictFuncCall",
  "preprocessor", "preprocessorKwargs", "postprocessor", "postprocessorKwargs", "schemaMode",
  "docstringStyle", "coerce", "timeoutMs", "metadata",
];
const TYPED_KEYS = ["handler", ...TOOL_OPTIONS];
const ENUMS = {
  schemaMode: ["lionagi", "accurate"],
  coerce: ["lax", "none"],
};

const H = Symbol("toolgate.handle");
const GEN = Symbol("toolgate.generation");

function newUUID() {
  if (globalThis.crypto && typeof globalThis.crypto.randomUUID === "function") return globalThis.crypto.randomUUID();
  const b = new Uint8Array(16);
  globalThis.crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

class Cancelled {
  constructor(reason) {
    this.reason = reason;
  }
}

export function createApi(inst, flavor) {
  const registry =
    typeof FinalizationRegistry === "function"
      ? new FinalizationRegistry(({ op, handle, gen }) => {
          if (gen === inst.generation && !inst.dead) {
            try {
              inst.call(op, handle, "");
            } catch {
              /* best effort */
            }
          }
        })
      : null;
  const toolsByHandle = new Map(); // handle -> WeakRef<Tool>

  /**
   * A tool: a live callable beside its provider schema. Built by `tg.tool()`.
   * Node and browser.
   */
  class Tool {
    #info;
    #spec;
    constructor(spec, info) {
      this.#spec = spec;
      this.#attach(info);
    }
    #attach(info) {
      this.#info = info;
      this[H] = info.id;
      this[GEN] = inst.generation;
      toolsByHandle.set(info.id, new WeakRef(this));
      registry?.register(this, { op: "tool.release", handle: info.id, gen: inst.generation });
    }
    /** The Go handle, rebuilt if the instance restarted. @internal */
    _handle() {
      if (this[GEN] !== inst.generation || inst.dead) {
        inst._ensure();
        if (!this.#spec.payload) throw new ToolgateError("internal", "this tool belonged to a stopped instance and cannot be rebuilt");
        this.#attach(inst.callJSON("tool.create", 0, this.#spec.payload));
      }
      return this[H];
    }
    /** @internal */ get _spec() {
      return this.#spec;
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
    /** The declaration record (LionAGI's keys and order); never a callable. */
    toDict(mode = "python") {
      if (!["python", "json", "db"].includes(mode)) {
        throw new ToolgateError("invalid-request", `toDict: mode must be "python", "json" or "db", got ${JSON.stringify(mode)}`);
      }
      return inst.callJSON("tool.toDict", this._handle(), JSON.stringify({ mode }));
    }
    /** Always throws not-restorable: a record cannot bring back a callable. */
    static fromDict() {
      throw new ToolgateError("not-restorable", "`Tool.fromDict` is not supported: a record holds no callable; build the tool from code");
    }
    get [Symbol.toStringTag]() {
      return "Tool";
    }
  }

  function goTool(handle) {
    const known = toolsByHandle.get(handle)?.deref();
    if (known) return known;
    const info = inst.callJSON("tool.info", handle, "");
    return new Tool({ kind: "go" }, info);
  }

  /**
   * Builds a tool from a JS function (the raw path) or from
   * `{name, parameters, handler}` (the typed path).
   * @example const add = tg.tool(function add(a, b) { return a + b })
   */
  function tool(fnOrSpec, opts) {
    let kind, fn, handler, name, source, o;
    if (typeof fnOrSpec === "function") {
      o = { ...checkOptions(opts, TOOL_OPTIONS, "tg.tool") };
      kind = "function";
      fn = fnOrSpec;
      name = fn.name;
      if (!name && !o.name) {
        throw new ToolgateError(
          "invalid-tool",
          "Function must have a name: pass {name} for an anonymous function. (Minifiers rename functions and parameters too: in bundled code prefer the typed path {name, parameters, handler}.)",
        );
      }
      source = Function.prototype.toString.call(fn);
    } else if (fnOrSpec && typeof fnOrSpec === "object" && !Array.isArray(fnOrSpec)) {
      if (opts !== undefined) throw new ToolgateError("unsupported-type", "tg.tool({…}): pass options inside the object, not as a second argument");
      o = { ...checkOptions(fnOrSpec, TYPED_KEYS, "tg.tool") };
      kind = "typed";
      handler = o.handler;
      delete o.handler;
      if (typeof handler !== "function") throw new ToolgateError("invalid-tool", "tg.tool({…}): handler must be a function", { tool: o.name });
      if (typeof o.name !== "string" || o.name === "") throw new ToolgateError("invalid-tool", "tg.tool({…}): name must be a non-empty string");
      name = o.name;
      source = "";
      o.parameters = jsonSchemaOf(o.parameters, `tool ${name}`);
    } else {
      throw new ToolgateError("invalid-tool", `tg.tool: expected a function or {name, handler, …}, got ${describe(fnOrSpec)}`);
    }
    for (const [k, allowed] of Object.entries(ENUMS)) {
      if (o[k] !== undefined && !allowed.includes(o[k])) {
        throw new ToolgateError("unsupported-type", `tg.tool: option ${k} must be one of ${allowed.join(", ")}, got ${JSON.stringify(o[k])}`);
      }
    }
    for (const k of ["preprocessor", "postprocessor"]) {
      if (o[k] !== undefined && typeof o[k] !== "function") throw new ToolgateError("unsupported-type", `tg.tool: option ${k} must be a function`);
    }
    if (o.timeoutMs !== undefined && !(typeof o.timeoutMs === "number" && o.timeoutMs > 0)) {
      throw new ToolgateError("unsupported-type", "tg.tool: option timeoutMs must be a positive number");
    }
    const { preprocessor, postprocessor, preprocessorKwargs, postprocessorKwargs, ...goOpts } = o;
    const payload = toJSON({ kind, name, source, options: goOpts });
    const info = inst.callJSON("tool.create", 0, payload);
    return new Tool(
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
      },
      info,
    );
  }

  /** The record of one call: status, response, error, duration. Node and browser. */
  class FunctionCalling {
    constructor(toolObj, m) {
      this.id = newUUID();
      this.createdAt = Date.now() / 1000;
      this.metadata = {};
      this.function = m.function;
      this.arguments = m.arguments;
      this.status = "pending";
      this.response = null;
      this.error = null;
      this.duration = null;
      if (m.conversions) this.conversions = m.conversions;
      if (m.id) this.callId = m.id;
      Object.defineProperty(this, "tool", { value: toolObj, enumerable: false });
    }
    /** The event record: {id, created_at, metadata, execution, function, arguments}. */
    toDict() {
      const err = this.error;
      let error = null;
      if (err != null) {
        if (ToolgateError.isInstance(err)) error = { error: "ToolgateError", code: err.code, message: err.message };
        else if (err instanceof Error) error = { error: err.name || "Error", message: err.message };
        else error = { error: typeof err, message: String(err) };
      }
      return {
        id: this.id,
        created_at: this.createdAt,
        metadata: { ...this.metadata, lion_class: "lionagi.protocols.action.function_calling.FunctionCalling" },
        execution: { status: this.status, duration: this.duration, response: this.response ?? null, error, retryable: null },
        function: this.function,
        arguments: this.arguments,
      };
    }
    /** Always throws not-restorable. */
    static fromDict() {
      throw new ToolgateError("not-restorable", "Cannot recreate an event once it's done.");
    }
  }

  function positional(spec, sig, args) {
    const out = [];
    const used = new Set();
    let takesRest = false;
    for (const p of sig.params) {
      if (p.kind === 3 /* destructured */) {
        const obj = {};
        const names = new Set();
        for (const f of p.fields || []) {
          if (f.kind === 2) takesRest = true;
          else names.add(f.name);
        }
        for (const k of Object.keys(args)) {
          if (names.has(k) || takesRest) {
            obj[k] = args[k];
            used.add(k);
          }
        }
        out.push(obj);
      } else if (p.kind === 1 /* rest */) {
        if (Object.hasOwn(args, p.name)) {
          used.add(p.name);
          const v = args[p.name];
          if (Array.isArray(v)) out.push(...v);
          else out.push(v);
        }
      } else {
        if (Object.hasOwn(args, p.name)) used.add(p.name);
        out.push(Object.hasOwn(args, p.name) ? args[p.name] : undefined);
      }
    }
    for (const k of Object.keys(args)) {
      if (!used.has(k)) throw new TypeError(`${sig.name}() got an unexpected keyword argument '${k}'`);
    }
    return out;
  }

  async function callTool(toolObj, args, signal) {
    const spec = toolObj._spec;
    if (spec.kind === "typed") return spec.handler(args);
    if (spec.kind === "function") return spec.fn(...positional(spec, toolObj._signature, args));
    return inst.callAsync("tool.invoke", toolObj._handle(), toJSON(args), signal);
  }

  /** Runs pre → handler → post for fc; total: every outcome becomes a status. */
  async function run(fc, signal) {
    if (fc.status !== "pending") return;
    const spec = fc.tool._spec;
    fc.status = "processing";
    const t0 = performance.now();
    const cancellable = !!signal || !!spec.timeoutMs;
    const ctrl = cancellable ? new AbortController() : null;
    let timer;
    let onAbort;
    try {
      const work = (async () => {
        let args = fc.arguments;
        if (spec.preprocessor) {
          args = await spec.preprocessor(args, spec.preprocessorKwargs);
          if (args === null || typeof args !== "object" || Array.isArray(args)) {
            throw new TypeError(`preprocessor of ${fc.function} must return an arguments object, got ${describe(args)}`);
          }
          fc.arguments = args;
        }
        let res = await callTool(fc.tool, args, ctrl?.signal);
        if (spec.postprocessor) res = await spec.postprocessor(res, spec.postprocessorKwargs);
        return res;
      })();
      if (!cancellable) {
        fc.response = await work;
      } else {
        const cancelled = new Promise((_, reject) => {
          if (signal) {
            onAbort = () => reject(new Cancelled(signal.reason));
            if (signal.aborted) onAbort();
            else signal.addEventListener("abort", onAbort, { once: true });
          }
          if (spec.timeoutMs) {
            timer = setTimeout(
              () => reject(new Cancelled(new ToolgateError("timeout", `tool ${fc.function} did not finish within ${spec.timeoutMs} ms`, { tool: fc.function }))),
              spec.timeoutMs,
            );
          }
        });
        work.catch(() => {}); // a late rejection after cancellation is not unhandled
        fc.response = await Promise.race([work, cancelled]);
      }
      fc.status = "completed";
    } catch (e) {
      if (e instanceof Cancelled) {
        ctrl.abort(e.reason);
        fc.status = "cancelled";
        fc.error = e.reason ?? new ToolgateError("timeout", "cancelled");
      } else {
        fc.status = "failed";
        fc.error = e;
      }
    } finally {
      clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener("abort", onAbort);
      fc.duration = (performance.now() - t0) / 1000;
    }
  }

  function requestText(request) {
    if (typeof request === "string") return request;
    if (request === null || typeof request !== "object" || Array.isArray(request)) {
      throw new ToolgateError("invalid-request", `a request must be an object or JSON text, got ${describe(request)}`);
    }
    let r = request;
    if (typeof r.function === "function" || r.function instanceof Tool) {
      r = { ...r, function: typeof r.function === "function" ? r.function.name : r.function.function };
    }
    return toJSON(r);
  }

  /**
   * A conversation branch's tool registry (LionAGI's ActionManager).
   * @example const b = tg.branch({ tools: [add] }); await b.invoke({ function: "add", arguments: { a: 1, b: 2 } })
   */
  class Branch {
    #h;
    #gen;
    #held = new Map(); // Tool -> true: keeps JS tools alive while registered
    constructor(handle) {
      this.#h = handle;
      this.#gen = inst.generation;
      registry?.register(this, { op: "branch.release", handle, gen: inst.generation });
    }
    #handle() {
      if (this.#gen !== inst.generation || inst.dead) {
        inst._ensure();
        const items = [...this.#held.keys()].filter((t) => t._spec.payload).map((t) => ({ $tool: t._handle() }));
        this.#h = inst.callJSON("branch.create", 0, JSON.stringify({ items, update: true }));
        this.#gen = inst.generation;
      }
      return this.#h;
    }
    /** The Go handle, rebuilt if the instance restarted. @internal */
    _handle() {
      return this.#handle();
    }
    #ref(x, mode) {
      if (typeof x === "string" || typeof x === "boolean" || x === null) return x;
      if (x === undefined) return null;
      if (x instanceof Tool) {
        if (mode !== "has") this.#held.set(x, true);
        return { $tool: x._handle() };
      }
      if (typeof x === "function") {
        if (mode === "has") return x.name;
        const t = tool(x);
        this.#held.set(t, true);
        return { $callable: t._handle() };
      }
      if (Array.isArray(x)) return x.map((e) => this.#ref(e, mode));
      if (typeof x === "object" && Object.getPrototypeOf(x) === Object.prototype) {
        return mode === "schema" ? { $schema: x } : { $mcp: x };
      }
      return { $type: typeof x === "object" ? (x.constructor?.name ?? "object") : typeof x };
    }
    /** Registers a tool, function, one-entry MCP config, or a list of them. */
    register(tools, opts) {
      const { update = false } = checkOptions(opts, ["update"], "register");
      const list = Array.isArray(tools) ? tools : [tools];
      if (!Array.isArray(tools) && (tools === null || tools === undefined)) {
        throw new ToolgateError("unsupported-type", "Must provide a `Tool` object, a callable function, or an MCP config dict.");
      }
      inst.call("branch.register", this.#handle(), toJSON({ items: list.map((t) => this.#ref(t, "register")), update: !!update }));
    }
    /** Whether a name, Tool, function or one-entry MCP config is registered. */
    has(ref) {
      return JSON.parse(inst.call("branch.has", this.#handle(), toJSON(this.#ref(ref, "has"))));
    }
    /** The registry: name → Tool, in insertion order. */
    get tools() {
      const pairs = inst.callJSON("branch.tools", this.#handle(), "");
      return new Map(pairs.map(([name, h]) => [name, goTool(h)]));
    }
    /** Provider schemas in insertion order. */
    get schemaList() {
      return inst.callJSON("branch.schemaList", this.#handle(), "");
    }
    /** LionAGI's get_tool_schema: true | false | name | Tool | fn | schema | list. */
    getToolSchema(selection, opts) {
      const { autoRegister = true, update = false } = checkOptions(opts, ["autoRegister", "update"], "getToolSchema");
      const payload = { autoRegister: !!autoRegister, update: !!update };
      if (selection !== undefined) payload.selection = this.#ref(selection, "schema");
      return inst.callJSON("branch.getToolSchema", this.#handle(), toJSON(payload));
    }
    /** Resolves and validates a call; returns an un-invoked FunctionCalling. */
    match(request) {
      const m = JSON.parse(inst.call("branch.match", this.#handle(), requestText(request)));
      if (m.bigints) reviveBigints(m.arguments, m.bigints);
      return new FunctionCalling(goTool(m.tool), m);
    }
    /** Like match, but never throws: {ok: true, arguments} | {ok: false, error}. */
    validate(request) {
      try {
        const m = JSON.parse(inst.call("branch.match", this.#handle(), requestText(request)));
        if (m.bigints) reviveBigints(m.arguments, m.bigints);
        const r = { ok: true, function: m.function, arguments: m.arguments };
        if (m.conversions) r.conversions = m.conversions;
        return r;
      } catch (e) {
        return { ok: false, error: ToolgateError.isInstance(e) ? e : new ToolgateError("internal", String(e && e.message), { cause: e }) };
      }
    }
    /** Matches and runs a call; resolves to the FunctionCalling whatever its status. */
    async invoke(request, opts) {
      const { signal } = checkOptions(opts, ["signal"], "invoke");
      const fc = this.match(request);
      await run(fc, signal);
      return fc;
    }
    /** A new registry holding the same Tool objects. */
    clone() {
      const b = new Branch(inst.callJSON("branch.clone", this.#handle(), ""));
      for (const t of this.#held.keys()) b.#held.set(t, true);
      return b;
    }
  }

  /** Creates a branch, registering `tools` (a repeated name is duplicate-tool). */
  function branch(opts) {
    const { tools = [] } = checkOptions(opts, ["tools"], "tg.branch");
    const b = new Branch(inst.callJSON("branch.create", 0, ""));
    const list = (Array.isArray(tools) ? tools : [tools]).filter((t) => t !== null && t !== undefined);
    if (list.length) b.register(list);
    return b;
  }

  const debug = {
    stats: () => inst.callJSON("debug.stats", 0, ""),
    exit: () => inst.call("debug.exit", 0, ""),
    echo: (v, signal) => inst.callAsync("debug.echo", 0, JSON.stringify(v), signal),
    sleep: (ms, signal) => inst.callAsync("debug.sleep", 0, String(ms), signal),
    get generation() {
      return inst.generation;
    },
  };
  const api = {
    [Symbol.for("toolgate.debug")]: debug,
    version: inst.expectedVersion,
    flavor,
    tool,
    branch,
    Tool,
    FunctionCalling,
    ToolgateError,
  };
  return { api, inst, toJSON, Tool, goTool, Branch, jsonSchemaOf };
}
