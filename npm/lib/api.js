// The public API over one GoInstance. Node and browser. Only assembly: the work is in the modules it imports.
import { ToolgateError } from "./errors.js";
import { Context } from "./context.js";
import { Tool, tool } from "./tool.js";
import { FunctionCalling } from "./function-calling.js";
import { Branch, branch } from "./branch.js";
import { reviveRecord, toJSON } from "./json.js";
import { parseToolCalls } from "./provider-calls.js";
import { toolResult } from "./provider-result.js";
import { ToolCallStream } from "./stream-calls.js";
import { OP } from "./contract.js";
import { toProvider } from "./provider-export.js";
import { buildPlans } from "./plan-build.js";

const DEBUG = Symbol.for("toolgate.debug");

// The tests' debug hooks (tg[Symbol.for("toolgate.debug")]): stats, exit, grow, echo, sleep, generation, jsRefs
// (JS values Go holds), validatorSchemas (schemas the validator module holds), restartValidator (drops the
// validator module's instance, as a failed call does), laxProgram(tool) (its lax plan).
function debugHooks(ctx) {
  const inst = ctx.inst;
  return {
    stats: () => inst.callJSON(OP.debugStats, 0, ""),
    exit: () => inst.call(OP.debugExit, 0, ""),
    grow: (mib) => inst.callJSON(OP.debugGrow, 0, String(mib)),
    echo: (v, signal) => inst.callAsync(OP.debugEcho, 0, toJSON(v), signal),
    sleep: (ms, signal) => inst.callAsync(OP.debugSleep, 0, String(ms), signal),
    host: (fn, v, signal) => inst.callAsync(OP.debugHost, inst.hostFunction(fn, "test"), toJSON(v), signal),
    hostNotify: (fn, v) => inst.callJSON(OP.debugHostNotify, inst.hostFunction(fn, "test"), toJSON(v)),
    hostsInFlight: () => inst.hosts.inFlight,
    jsRefs: () => inst.liveRefs(),
    validatorSchemas: () => inst.validatorModule?.held() ?? 0,
    restartValidator: () => inst.validatorModule?.restart(),
    laxProgram: (tool) => inst.callJSON(OP.debugLaxProgram, tool._handle(), ""),
    get generation() {
      return inst.generation;
    },
  };
}

/** tg.ready(part): the promise that `part` (only "validator" for now) is loaded and started. */
function ready(inst, part) {
  if (part !== "validator") return Promise.reject(new ToolgateError("unsupported-type", `tg.ready: part must be "validator", got ${typeof part === "string" ? JSON.stringify(part) : typeof part}`));
  const v = inst.validatorModule;
  if (!v) return Promise.reject(new ToolgateError("unsupported", "tg.ready: this instance has no validator module"));
  return v.ready();
}

/**
 * Builds the API object of one started GoInstance. `build` is what a build adds to the core
 * (the full build's is mcp.js's mcpBuild): `Branch`, the class tg.branch() makes; `api(ctx)`,
 * members added to the API; `debug(ctx)`, hooks added to the debug object. Node and browser.
 */
export function createApi(inst, flavor, build = {}) {
  const ctx = new Context(inst);
  const Kind = build.Branch ?? Branch;
  const debug = Object.assign(debugHooks(ctx), build.debug?.(ctx));
  const api = {
    [DEBUG]: debug,
    version: inst.expectedVersion,
    flavor,
    tool: (fnOrSpec, opts) => tool(ctx, fnOrSpec, opts),
    branch: (opts) => branch(ctx, opts, Kind),
    toProvider: (branchOrTools, target, opts) => toProvider(ctx, branchOrTools, target, opts),
    parseToolCalls: (response) => parseToolCalls(ctx, response),
    toolResult: (callOrError, target) => toolResult(ctx, callOrError, target),
    toolCallStream: (b) => new ToolCallStream(ctx, b),
    buildPlans: (tools) => buildPlans(ctx, tools),
    Tool,
    FunctionCalling,
    ToolgateError,
    reviveRecord,
    ready: (part) => ready(inst, part),
    ...build.api?.(ctx),
  };
  ctx.api = api; // the SDK adapters (lib/adapters/) reach tg from a branch through its context
  return api;
}
