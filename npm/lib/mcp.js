// MCP over URLs (full build only): McpBranch (a Branch with registerMcpServer and
// loadMcpConfig), tg.loadMcpTools, tg.mcp and the MCP debug hooks. Node and browser. The work
// is done in Go (the mcp package, through the async ops of cmd/wasm/full); this file checks
// option keys, turns JS values into the JSON Go reads (functions into host function numbers,
// Sets into arrays, zod schemas into JSON Schemas), refuses what cannot cross as JSON, and wraps
// the results. Go checks every option value (jsbridge/mcpops), so each rule is written once.
import { ToolgateError, checkOptions, describe, errorFromData } from "./errors.js";
import { toJSON, checkCrosses } from "./json.js";
import { jsonSchemaOf } from "./schema.js";
import { goToolFromInfo } from "./tool.js";
import { Branch } from "./branch.js";
import { MCP_OPTIONS, OP } from "./contract.js";
import { policyOptions } from "./mcp-policy.js";
import { authOption, authMapOption, finishAuth } from "./mcp-auth.js";

/** The security object as JSON-ready data: Sets become arrays; null/undefined mean none (fail-closed). */
function securityJSON(security, call) {
  if (security === undefined || security === null) return null;
  if (typeof security !== "object" || Array.isArray(security)) return checkCrosses(security, call, "security"); // Go refuses it, naming the type
  const out = {};
  for (const [k, v] of Object.entries(security)) out[k] = checkCrosses(v instanceof Set ? [...v] : v, call, `security.${k}`);
  return out;
}

/**
 * The options Go reads: undefined values dropped (Go sees an omitted key), and a value JSON would
 * drop or turn into null refused, naming its key; the hooks are host function numbers by now.
 */
function compact(obj, call) {
  const out = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = checkCrosses(v, call, k);
  return out;
}

/** A list option that may be a Set, as an array (Go checks it holds strings). */
function list(v) {
  return v instanceof Set ? [...v] : v;
}

/** The onWarning option, or the default one. */
function checkOnWarning(v, call) {
  if (v === undefined) return defaultOnWarning;
  if (typeof v !== "function") {
    throw new ToolgateError("unsupported-type", `${call}: option onWarning must be a function, got ${describe(v)}`);
  }
  return v;
}

/** The default onWarning: one console.warn line per skipped server or left-out tool. */
function defaultOnWarning(server, error) {
  if (error.rule === "x-mcp-header" || (error.code === "invalid-schema" && error.tool)) {
    console.warn(`toolgate: MCP server ${JSON.stringify(server)}: a tool was left out: [${error.code}] ${error.message}`);
    return;
  }
  console.warn(`toolgate: MCP server ${JSON.stringify(server)} registered no tools: [${error.code}] ${error.message}`);
}

/** The onWarning wrapper of each handler (one per function, so Go gets one number for it): Go's {server, error} event as (server, ToolgateError). */
const warningWrappers = new WeakMap();
function warningListener(fn) {
  let w = warningWrappers.get(fn);
  if (!w) {
    w = (ev) => fn(ev.server, errorFromData(ev.error));
    warningWrappers.set(fn, w);
  }
  return w;
}

/** Refuses a listener option that is not a function (undefined: none). */
function checkListener(v, call, key) {
  if (v !== undefined && v !== null && typeof v !== "function") {
    throw new ToolgateError("unsupported-type", `${call}: option ${key} must be a function, got ${describe(v)}`);
  }
  return v ?? undefined;
}

/** The onToolsChanged wrapper of each listener (one per function, so Go gets one number for it): its event's error becomes a ToolgateError. */
const toolsChangedWrappers = new WeakMap();
function toolsChangedListener(fn) {
  let w = toolsChangedWrappers.get(fn);
  if (!w) {
    w = (ev) => fn(ev && ev.error ? { server: ev.server, error: errorFromData(ev.error) } : ev);
    toolsChangedWrappers.set(fn, w);
  }
  return w;
}

/**
 * The listener options as the numbers Go notifies (host calls): onProgress, and with `tools`
 * onToolsChanged (which opens the server's standalone stream: call tg.mcp.cleanup() to let a
 * Node process exit).
 */
function listeners(ctx, o, call, tools) {
  const progress = checkListener(o.onProgress, call, "onProgress");
  const changed = tools ? checkListener(o.onToolsChanged, call, "onToolsChanged") : undefined;
  return {
    onProgress: progress && ctx.inst.hostFunction(progress, "onProgress"),
    onToolsChanged: changed && ctx.inst.hostFunction(toolsChangedListener(changed), "onToolsChanged"),
  };
}

/** A config as Go reads it: anything JSON carries is passed on (Go checks it); a function or a symbol is refused. */
function configJSON(config, call, code) {
  if (config === undefined || config === null) return null;
  if (typeof config === "function" || typeof config === "symbol") {
    throw new ToolgateError(code, `${call}: the config must be JSON data, got ${typeof config}`);
  }
  return config;
}

/** The references a config's text may hold: ${NAME}, ${env:NAME}, ${NAME:-default} (Go reads them; this finds the names). */
const VARIABLE_REF = /\$\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)/g;

/**
 * A loader's env option as Go reads it: only the variables the config names, so the rest of the
 * environment never crosses. Default: Node's process.env; a browser has none (every reference is
 * then unset, and Go refuses it naming the variable).
 */
function envOption(env, config, call) {
  if (env === undefined) env = globalThis.process?.env ?? null;
  if (env === null) return undefined;
  if (typeof env !== "object" || Array.isArray(env)) {
    throw new ToolgateError("unsupported-type", `${call}: option env must be an object of strings {NAME: value}, got ${describe(env)}`);
  }
  let text;
  try {
    text = typeof config === "string" ? config : JSON.stringify(config ?? null);
  } catch {
    return {}; // Go refuses the config itself
  }
  const out = {};
  for (const [, name] of text.matchAll(VARIABLE_REF)) {
    const v = Object.hasOwn(env, name) ? env[name] : undefined;
    if (v === undefined) continue;
    if (typeof v !== "string") {
      throw new ToolgateError("unsupported-type", `${call}: option env.${name} must be a string, got ${describe(v)}`);
    }
    out[name] = v;
  }
  return out;
}

/** A loader's warnings from Go as {server, error: ToolgateError}. */
function warningsToErrors(warnings) {
  return (warnings ?? []).map((w) => ({
    server: w.server,
    error: errorFromData(w.error),
  }));
}

/** true for a plain object (not null, not an array), the only shape whose members JS rewrites. */
function isRecord(v) {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** requestOptions values may be JSON Schemas or zod 4 / Standard JSON Schema values: an object entry is exported, anything else goes to Go as it is. */
function schemas(map, call, key) {
  if (!isRecord(map)) return checkCrosses(map, call, key);
  const out = {};
  for (const [name, schema] of Object.entries(map)) {
    const where = `${key}[${JSON.stringify(name)}]`;
    out[name] = isRecord(schema) ? jsonSchemaOf(schema, `${call}: ${where}`) : checkCrosses(schema, call, where);
  }
  return out;
}

/** loadMcpTools' requestOptionsMap: server → tool name → schema. */
function schemaMaps(maps, call) {
  if (!isRecord(maps)) return checkCrosses(maps, call, "requestOptionsMap");
  const out = {};
  for (const [server, map] of Object.entries(maps)) out[server] = schemas(map, call, `requestOptionsMap[${JSON.stringify(server)}]`);
  return out;
}

/** A hook option: a function, handed to Go by its host-function number. */
function hookId(ctx, fn, call, key) {
  if (fn === undefined || fn === null) return undefined;
  if (typeof fn !== "function") {
    throw new ToolgateError("unsupported-type", `${call}: option ${key} must be a function, got ${describe(fn)}`);
  }
  return ctx.inst.hostFunction(fn, key);
}

/** The roots option: a fixed array of {uri, name?} (as JSON; Go checks each entry and the URIs) or a function. */
function rootsOption(ctx, roots, call) {
  return Array.isArray(roots) ? roots : hookId(ctx, roots, call, "roots");
}

/** The client capability options (roots, sampling, elicitation) as Go reads them. */
function hookOptions(ctx, o, call) {
  return {
    roots: rootsOption(ctx, o.roots, call),
    sampling: hookId(ctx, o.sampling, call, "sampling"),
    elicitation: hookId(ctx, o.elicitation, call, "elicitation"),
  };
}

/**
 * A branch of the full build: a Branch that also registers MCP servers. tg.branch() of the
 * full build makes these, and clone() gives another. Node and browser.
 */
export class McpBranch extends Branch {
  #ctx;
  constructor(ctx, handle) {
    super(ctx, handle);
    this.#ctx = ctx;
  }

  /**
   * Discovers a server's tools (or declares `toolNames`) and registers them all or none;
   * resolves to the registered names. The server's protocol era is found by toolgate (a
   * `server/discover` probe, cached per origin) unless `config.protocolVersion` pins it. A
   * discovered tool left out (its `x-mcp-header` annotations are invalid) goes to onWarning
   * (default console.warn), now and at each refresh. Node and browser.
   * @example await b.registerMcpServer({ name: "docs", url: "https://mcp.example.com/mcp" }, { security: tg.mcp.trusted() })
   */
  async registerMcpServer(config, opts) {
    const call = "registerMcpServer";
    const o = checkOptions(opts, MCP_OPTIONS.registerMcpServer, call);
    const onWarning = checkOnWarning(o.onWarning, call);
    const options = compact({
      onWarning: this.#ctx.inst.hostFunction(warningListener(onWarning), "onWarning"),
      toolNames: list(o.toolNames),
      requestOptions: schemas(o.requestOptions, call, "requestOptions"),
      update: o.update,
      security: securityJSON(o.security, call),
      qualify: o.qualify,
      result: o.result,
      tasks: o.tasks,
      ...policyOptions(this.#ctx, o, call),
      ...listeners(this.#ctx, o, call, true),
      ...hookOptions(this.#ctx, o, call),
      auth: authOption(this.#ctx, o.auth, call),
    }, call);
    const payload = { config: configJSON(config, call, "invalid-tool"), options };
    await this.#ctx.inst.validatorModule?.arriving(); // discovery compiles schemas: not without a validator on its way
    const out = await this.#ctx.inst.callAsync(OP.mcpRegisterServer, this._handle(), toJSON(payload, { code: "invalid-tool", what: call }));
    for (const w of warningsToErrors(out.warnings)) onWarning(w.server, w.error);
    if (o.defer) this._defer({ servers: [payload.config.name ?? JSON.parse(payload.config).name] }); // every tool of the server, now and after a refresh
    return out.names;
  }

  /**
   * Registers every server of an MCP config (object or JSON text: `{mcpServers}` as Claude Code and
   * Cursor write it, or VS Code's `{servers}`), `${NAME}` references in urls and headers expanded
   * from `env` (default process.env in Node, none in browsers); resolves to
   * {server: names}. A server that fails for a reason other than policy gets [] and is reported
   * to onWarning (default console.warn); a command (stdio) server is never started and is reported
   * as `unsupported`, unless `strict: true` refuses the whole config. Node and browser.
   */
  async loadMcpConfig(config, opts) {
    const call = "loadMcpConfig";
    const o = checkOptions(opts, MCP_OPTIONS.loadMcpConfig, call);
    const onWarning = checkOnWarning(o.onWarning, call);
    const options = compact({
      onWarning: this.#ctx.inst.hostFunction(warningListener(onWarning), "onWarning"),
      serverNames: list(o.serverNames),
      update: o.update,
      security: securityJSON(o.security, call),
      result: o.result,
      tasks: o.tasks,
      strict: o.strict,
      ...policyOptions(this.#ctx, o, call),
      ...listeners(this.#ctx, o, call, true),
      ...hookOptions(this.#ctx, o, call),
      auth: authMapOption(this.#ctx, o.auth, call),
      env: envOption(o.env, config, call),
    }, call);
    const payload = { config: configJSON(config, call, "invalid-request"), options };
    await this.#ctx.inst.validatorModule?.arriving(); // discovery compiles schemas: not without a validator on its way
    const out = await this.#ctx.inst.callAsync(OP.mcpLoadMcpConfig, this._handle(), toJSON(payload, { code: "invalid-request", what: call }));
    for (const w of warningsToErrors(out.warnings)) onWarning(w.server, w.error);
    if (o.defer) this._defer({ servers: Object.keys(out.result) }); // every tool of every server, now and after a refresh
    return out.result;
  }
}

/**
 * Builds the tools of a `.mcp.json` config (object or JSON text) in the API of `ctx` without
 * registering them anywhere; resolves to Tool[]. Node and browser.
 * @example const tools = await tg.loadMcpTools(cfg, { security: tg.mcp.trusted() }); tg.branch({ tools })
 */
export async function loadMcpTools(ctx, config, opts) {
  const call = "loadMcpTools";
  const o = checkOptions(opts, MCP_OPTIONS.loadMcpTools, call);
  const onWarning = checkOnWarning(o.onWarning, call);
  const options = compact({
    onWarning: ctx.inst.hostFunction(warningListener(onWarning), "onWarning"),
    serverNames: list(o.serverNames),
    requestOptionsMap: schemaMaps(o.requestOptionsMap, call),
    security: securityJSON(o.security, call),
    result: o.result,
    tasks: o.tasks,
    strict: o.strict,
    ...policyOptions(ctx, o, call),
    ...listeners(ctx, o, call, false),
    ...hookOptions(ctx, o, call),
    auth: authMapOption(ctx, o.auth, call),
    env: envOption(o.env, config, call),
  }, call);
  const payload = { config: configJSON(config, call, "invalid-request"), options };
  await ctx.inst.validatorModule?.arriving(); // discovery compiles schemas: not without a validator on its way
  const out = await ctx.inst.callAsync(OP.mcpLoadMcpTools, 0, toJSON(payload, { code: "invalid-request", what: call }));
  const tools = out.tools.map((info) => goToolFromInfo(ctx, info));
  for (const w of warningsToErrors(out.warnings)) onWarning(w.server, w.error);
  return tools;
}

/** tg.mcp.checkUrl: the policy check every MCP request gets, without a request: {allowed, rule?, reason?}. */
function checkUrl(ctx, url, security) {
  if (url instanceof URL) url = url.href;
  if (typeof url !== "string") {
    throw new ToolgateError("unsupported-type", `mcp.checkUrl: url must be a string, got ${describe(url)}`);
  }
  return ctx.inst.callJSON(OP.mcpCheckUrl, 0, toJSON({ url, security: securityJSON(security, "mcp.checkUrl") }, { code: "unsupported-type", what: "mcp.checkUrl" }));
}

/** The frozen tg.mcp of the API of `ctx`: checkUrl, trusted and cleanup. */
function mcpNamespace(ctx) {
  return Object.freeze({
    /**
     * The policy check every MCP request gets, without a request: {allowed, rule?, reason?}.
     * Synchronous. Node and browser.
     * @example tg.mcp.checkUrl("http://127.0.0.1:3001/mcp", { allowUrls: true, allowLoopbackHttp: true })
     */
    checkUrl: (url, security) => checkUrl(ctx, url, security),
    /** An explicit allow-all-URLs policy ({allowUrls: true}), for callers who mean it. A fresh object each call. Node and browser. */
    trusted: () => ({ allowUrls: true }),
    /** Closes every pooled MCP connection (and the standalone streams onToolsChanged opened). Node and browser. */
    cleanup: async () => {
      await ctx.inst.callAsync(OP.mcpCleanup, 0, "");
    },
    /**
     * Completes the OAuth authorization of `server` that waits for its redirect (a call failed
     * auth-failed, auth.step "authorization", because the auth provider's redirectToAuthorization
     * returned nothing): `redirect` is the URL the authorization server redirected to, or
     * {code, state}. The state must be the one sent. Node and browser.
     * @example await tg.mcp.finishAuth("docs", location.href)
     */
    finishAuth: (server, redirect) => finishAuth(ctx, OP.mcpFinishAuth, server, redirect),
  });
}

/**
 * The full build's part of the API, for createApi: its Branch class, the members it adds to
 * the API (loadMcpTools, mcp) and to the debug hooks. Node and browser.
 */
export const mcpBuild = Object.freeze({
  Branch: McpBranch,
  api: (ctx) => ({
    loadMcpTools: (config, opts) => loadMcpTools(ctx, config, opts),
    mcp: mcpNamespace(ctx),
  }),
  debug: (ctx) => ({
    mcpStats: () => ctx.inst.callJSON(OP.mcpDebugStats, 0, ""),
    urlHost: (url) => ctx.inst.callJSON(OP.mcpDebugHost, 0, JSON.stringify(url)),
  }),
});
