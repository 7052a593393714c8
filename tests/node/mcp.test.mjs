// MCP over URLs through the packed package: a real server (server-everything)
// in both transports, a hostile server, the URL policy table. Everything runs
// on 127.0.0.1; servers are child processes or in-process node:http servers,
// stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { tg, tgCore, fixture } from "./helpers.mjs";
import { eventually, CEILING_MS } from "./waits.mjs";
import { startEverything } from "./mcp-servers.mjs";
import { startHostile, startCounter, HOSTILE, FLOOD_PINGS } from "./hostile-server.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const PROVIDER_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
// Planted in a header of every config: no error message may contain it.
const SECRET = "tg-planted-secret-5f0c1e";
const debug = tg[Symbol.for("toolgate.debug")];

/** Awaits a rejection with a ToolgateError of `code` that leaks no header value; returns it. */
async function rejectsWith(promise, code, what = "") {
  let err;
  try {
    await promise;
  } catch (e) {
    err = e;
  }
  assert.ok(err, `${what}: got no error, want a ToolgateError ${code}`);
  assert.ok(tg.ToolgateError.isInstance(err), `${what}: got ${err}, want a ToolgateError`);
  assert.equal(err.code, code, `${what}: got code ${err.code} (${err.message}), want ${code}`);
  assert.ok(!err.message.includes(SECRET), `${what}: the message leaks a header value: ${err.message}`);
  return err;
}

/** An invoke that must complete; returns its response. */
async function call(b, name, args) {
  const fc = await b.invoke({ function: name, arguments: args });
  assert.equal(fc.status, "completed", `${name}: got status ${fc.status} (${fc.error?.code}: ${fc.error?.message}), want completed`);
  return fc.response;
}

/** Polls fetch-transport counters until they are back to zero (up to the ceiling); returns those two. */
async function fetchSettled() {
  let s;
  await eventually("the fetch transport is idle", () => {
    s = debug.mcpStats();
    return s.fetchLiveFuncs === 0 && s.fetchInFlight === 0;
  }).catch(() => {}); // the caller's assertion names the counters left over
  return { fetchLiveFuncs: s.fetchLiveFuncs, fetchInFlight: s.fetchInFlight };
}

/** What mcpStats counted since `before` (a previous mcpStats()). */
function statsSince(before) {
  const now = debug.mcpStats();
  return Object.fromEntries(Object.keys(now).map((k) => [k, now[k] - before[k]]));
}

/** The most answers to server requests the limiter lets through in elapsedMs: 4 at once, then one per second. */
const answerBound = (elapsedMs) => 4 + Math.ceil(elapsedMs / 1000);

for (const mode of ["streamable-http", "sse"]) {
  describe(`server-everything over ${mode}`, () => {
    let server;
    before(async () => {
      server = await startEverything(mode);
    });
    after(async () => {
      await tg.mcp.cleanup();
      await server?.stop();
    });
    const config = (name = "everything") => ({ name, url: server.url, transport: mode, headers: { "X-Toolgate-Test": SECRET } });

    test("discovers every tool under a qualified, provider-safe name", async () => {
      const b = tg.branch();
      const names = await b.registerMcpServer(config(), { security: LOOPBACK });
      assert.ok(names.includes("mcp__everything__echo"), `got ${names}, want mcp__everything__echo among them`);
      assert.ok(names.some((n) => /^mcp__everything__(get-sum|add)$/.test(n)), `got ${names}, want get-sum or add`);
      assert.ok(names.length >= 5, `got ${names.length} tools, want server-everything's full set`);
      for (const n of names) {
        assert.match(n, PROVIDER_NAME);
        assert.ok(n.startsWith("mcp__everything__"), `got ${n}, want the mcp__everything__ prefix`);
      }
      assert.deepEqual([...b.tools.keys()], names, "b.tools holds exactly the returned names, in order");
      assert.equal(b.schemaList.length, names.length);
    });

    test("keeps the server's schemas, renamed, with no strict key", async () => {
      const b = tg.branch();
      await b.registerMcpServer(config(), { security: LOOPBACK });
      const echo = b.tools.get("mcp__everything__echo");
      assert.equal(echo.function, "mcp__everything__echo");
      const fn = echo.toolSchema.function;
      assert.equal(echo.toolSchema.type, "function");
      assert.equal(fn.name, "mcp__everything__echo");
      assert.equal(fn.description, "Echoes back the input string");
      assert.equal(fn.parameters.type, "object");
      assert.equal(fn.parameters.properties.message.type, "string");
      assert.deepEqual(fn.parameters.required, ["message"]);
      for (const [name, t] of b.tools) {
        assert.ok(!("strict" in t.toolSchema.function), `${name}: got a strict key, want none (LionAGI's discovered schemas have none)`);
      }
      assert.deepEqual(echo.minimumAcceptableFields, [], "an MCP proxy requires nothing locally");
    });

    test("calls echo and get-sum and unwraps one text item", async () => {
      const b = tg.branch();
      const names = await b.registerMcpServer(config(), { security: LOOPBACK });
      assert.equal(await call(b, "mcp__everything__echo", { message: "hello" }), "Echo: hello");
      const sum = names.find((n) => /__(get-sum|add)$/.test(n));
      assert.equal(await call(b, sum, { a: 2, b: 3 }), "The sum of 2 and 3 is 5.");
      const fc = await b.invoke({ id: "call_1", type: "function", function: { name: "mcp__everything__echo", arguments: '{"message":"via openai"}' } });
      assert.equal(fc.response, "Echo: via openai");
      assert.ok(b.validate({ function: "mcp__everything__echo", arguments: { message: "x" } }).ok);
    });

    test("toolNames skips discovery; qualify: false keeps bare names", async () => {
      const b = tg.branch();
      const names = await b.registerMcpServer(config(), { security: LOOPBACK, toolNames: ["echo"], qualify: false });
      assert.deepEqual(names, ["echo"]);
      assert.deepEqual([...b.tools.keys()], ["echo"]);
      assert.equal(await call(b, "echo", { message: "bare" }), "Echo: bare");
    });

    test("requestOptions validate locally, keyed by the wire name; an unknown key registers nothing", async () => {
      const b = tg.branch();
      const echoSchema = { type: "object", properties: { message: { type: "string" } }, required: ["message"], additionalProperties: false };
      await b.registerMcpServer(config(), { security: LOOPBACK, requestOptions: { echo: echoSchema } });
      const r = b.validate({ function: "mcp__everything__echo", arguments: { message: 5 } });
      assert.equal(r.ok, false, "a number where the request options want a string");
      assert.equal(r.error.code, "invalid-arguments");
      assert.equal(await call(b, "mcp__everything__echo", { message: "typed" }), "Echo: typed");

      const b2 = tg.branch();
      const err = await rejectsWith(
        b2.registerMcpServer(config(), { security: LOOPBACK, requestOptions: { nope: echoSchema } }),
        "invalid-tool",
        "unknown requestOptions key",
      );
      assert.match(err.message, /nope/);
      assert.equal(b2.tools.size, 0, "nothing registered");
    });

    test("a second registration is duplicate-tool unless update", async () => {
      const b = tg.branch();
      const names = await b.registerMcpServer(config(), { security: LOOPBACK });
      await rejectsWith(b.registerMcpServer(config(), { security: LOOPBACK }), "duplicate-tool", "re-register");
      assert.deepEqual([...b.tools.keys()], names, "registry unchanged");
      assert.deepEqual(await b.registerMcpServer(config(), { security: LOOPBACK, update: true }), names);
    });

    test("loadMcpConfig registers a .mcp.json (object or text) and reports a failing server to onWarning", async () => {
      const b = tg.branch();
      const cfg = { mcpServers: { everything: { url: server.url, transport: mode, headers: { "X-Toolgate-Test": SECRET } } } };
      const out = await b.loadMcpConfig(JSON.stringify(cfg), { security: LOOPBACK });
      assert.deepEqual(Object.keys(out), ["everything"]);
      assert.ok(out.everything.includes("mcp__everything__echo"));
      assert.deepEqual([...b.tools.keys()], out.everything);

      const warnings = [];
      const b2 = tg.branch();
      const dead = { url: "http://127.0.0.1:1/mcp", headers: { Authorization: `Bearer ${SECRET}` } };
      const out2 = await b2.loadMcpConfig(
        { mcpServers: { down: dead, everything: cfg.mcpServers.everything } },
        { security: LOOPBACK, onWarning: (server, error) => warnings.push({ server, error }) },
      );
      assert.deepEqual(out2.down, [], "a failing server registers nothing");
      assert.ok(out2.everything.length > 0, "the other server is unaffected");
      assert.equal(warnings.length, 1, `got ${warnings.length} warnings, want 1`);
      assert.equal(warnings[0].server, "down");
      assert.ok(tg.ToolgateError.isInstance(warnings[0].error));
      assert.equal(warnings[0].error.code, "transport");
      assert.ok(!warnings[0].error.message.includes(SECRET), "warning leaks a header value");

      const warned = [];
      const realWarn = console.warn;
      console.warn = (...args) => warned.push(args.join(" "));
      try {
        const out3 = await tg.branch().loadMcpConfig({ mcpServers: { down: dead } }, { security: LOOPBACK });
        assert.deepEqual(out3, { down: [] });
      } finally {
        console.warn = realWarn;
      }
      assert.equal(warned.length, 1, "onWarning defaults to console.warn");
      assert.match(warned[0], /down/);
      assert.ok(!warned[0].includes(SECRET));
    });

    test("loadMcpTools returns tools a branch can register and call", async () => {
      const tools = await tg.loadMcpTools(
        { mcpServers: { everything: { url: server.url, transport: mode } } },
        { security: LOOPBACK, serverNames: ["everything"] },
      );
      assert.ok(tools.length >= 5);
      assert.ok(tools.every((t) => t instanceof tg.Tool));
      const names = tools.map((t) => t.function);
      assert.ok(names.includes("mcp__everything__echo"));
      const b = tg.branch({ tools });
      assert.equal(await call(b, "mcp__everything__echo", { message: "loaded" }), "Echo: loaded");
    });

    test("a one-entry config registers a proxy under the bare key", async () => {
      const b = tg.branch();
      b.register({ echo: { url: server.url, transport: mode, security: LOOPBACK } });
      assert.deepEqual([...b.tools.keys()], ["echo"]);
      assert.equal(await call(b, "echo", { message: "proxy" }), "Echo: proxy");
      const bare = tg.branch();
      bare.register({ echo: { url: server.url, transport: mode } });
      const fc = await bare.invoke({ function: "echo", arguments: { message: "x" } });
      assert.equal(fc.status, "failed", "without its own security the proxy fails closed");
      assert.equal(fc.error.code, "policy-denied");
      assert.equal(fc.error.rule, "no-policy", "the refusal carries its rule as data");
    });

    test("every request goes to fetch with redirect error, credentials omit and an AbortSignal, on the configured origin", async () => {
      const seen = [];
      const realFetch = globalThis.fetch;
      globalThis.fetch = (input, init) => {
        seen.push({ url: String(input), init });
        return realFetch(input, init);
      };
      try {
        const b = tg.branch();
        await b.registerMcpServer(config("spied"), { security: LOOPBACK });
        assert.equal(await call(b, "mcp__spied__echo", { message: "spy" }), "Echo: spy");
      } finally {
        globalThis.fetch = realFetch;
      }
      const origin = new URL(server.url).origin;
      assert.ok(seen.length >= 3, `got ${seen.length} fetch calls, want the handshake, the listing and the call`);
      for (const { url, init } of seen) {
        assert.equal(new URL(url).origin, origin, `a request left the server's origin: ${url}`);
        assert.equal(init.redirect, "error", `${init.method} ${url}: redirect`);
        assert.equal(init.credentials, "omit", `${init.method} ${url}: credentials`);
        assert.ok(init.signal instanceof AbortSignal, `${init.method} ${url}: an AbortSignal`);
        assert.equal(init.headers.get("x-toolgate-test"), SECRET, "the configured header is sent");
        assert.ok(tg.mcp.checkUrl(url, LOOPBACK).allowed, `${url} is allowed by the policy`);
      }
    });

    test("cleanup closes the pool and later calls reconnect", async () => {
      const b = tg.branch();
      await b.registerMcpServer(config(), { security: LOOPBACK });
      await tg.mcp.cleanup();
      assert.equal(await call(b, "mcp__everything__echo", { message: "again" }), "Echo: again");
      await tg.mcp.cleanup();
      const s = await fetchSettled();
      assert.deepEqual(s, { fetchLiveFuncs: 0, fetchInFlight: 0 }, "the fetch transport released every js.Func and stream");
    });
  });
}

describe("policy and refusals", () => {
  const url = "http://127.0.0.1:9/mcp";

  test("without security everything is refused and nothing registered", async () => {
    for (const security of [undefined, null]) {
      const b = tg.branch();
      const err = await rejectsWith(b.registerMcpServer({ name: "srv", url }, { security }), "policy-denied", `security ${security}`);
      assert.match(err.message, /srv/, "the message names the server");
      assert.equal(err.rule, "no-policy", "the refusal carries its rule as data");
      assert.equal(b.tools.size, 0);
      await rejectsWith(b.loadMcpConfig({ mcpServers: { srv: { url } } }), "policy-denied", "loadMcpConfig");
      assert.equal(b.tools.size, 0);
    }
    await rejectsWith(tg.loadMcpTools({ mcpServers: { srv: { url } } }), "policy-denied", "loadMcpTools");
    const b = tg.branch();
    const scheme = await rejectsWith(b.registerMcpServer({ name: "srv", url }, { security: tg.mcp.trusted() }), "policy-denied", "trusted() is not loopback http");
    assert.equal(scheme.rule, "scheme");
  });

  test("a command config is unsupported whatever the policy", async () => {
    const b = tg.branch();
    const all = { allowUrls: true, allowCommands: true };
    await rejectsWith(b.registerMcpServer({ name: "local", command: "npx", args: ["-y", "x"] }, { security: all }), "unsupported", "registerMcpServer");
    await rejectsWith(b.loadMcpConfig({ mcpServers: { local: { command: "npx" } } }, { security: all, strict: true }), "unsupported", "loadMcpConfig strict");
    const warned = [];
    assert.deepEqual(await b.loadMcpConfig({ mcpServers: { local: { command: "npx" } } }, { security: all, onWarning: (s, e) => warned.push([s, e.code]) }), { local: [] });
    assert.deepEqual(warned, [["local", "unsupported"]], "without strict a command server is skipped and warned");
    assert.throws(() => b.register({ local: { command: "npx" } }), (e) => e.code === "unsupported");
    assert.equal(b.tools.size, 0);
  });

  test("an option value JSON cannot carry is refused in JS, naming the key; other values are Go's to check", async () => {
    const b = tg.branch();
    const cfg = { name: "srv", url };
    for (const [p, key] of [
      [() => b.registerMcpServer(cfg, { security: LOOPBACK, update: () => true }), "update"],
      [() => b.registerMcpServer(cfg, { security: LOOPBACK, filter: { readOnlyHint: () => true } }), "filter.readOnlyHint"],
      [() => b.loadMcpConfig({ mcpServers: {} }, { security: LOOPBACK, approvalTimeoutMs: NaN }), "approvalTimeoutMs"],
      [() => tg.loadMcpTools({ mcpServers: {} }, { security: { ...LOOPBACK, timeoutMs: Infinity } }), "security.timeoutMs"],
      [() => tg.loadMcpTools({ mcpServers: {} }, { security: LOOPBACK, requestOptionsMap: { srv: Symbol("x") } }), 'requestOptionsMap["srv"]'],
      [() => b.loadMcpConfig({ mcpServers: {} }, { security: LOOPBACK, approvalTimeoutMs: 1.5 }), "approvalTimeoutMs"],
      [() => b.registerMcpServer(cfg, { security: LOOPBACK, toolNames: new Set([1]) }), "toolNames"],
      [() => b.registerMcpServer(cfg, { security: LOOPBACK, result: "raw" }), "result"],
    ]) {
      const err = await rejectsWith(p(), "unsupported-type", key);
      assert.ok(err.message.includes(`option ${key} `), `${err.message} names ${key}`);
    }
    assert.equal(b.tools.size, 0);
  });

  test("unknown option keys are refused, naming the key", async () => {
    const b = tg.branch();
    const cfg = { name: "srv", url };
    for (const [p, key] of [
      [b.registerMcpServer(cfg, { securty: LOOPBACK }), "securty"],
      [b.loadMcpConfig({ mcpServers: {} }, { security: LOOPBACK, bogus: 1 }), "bogus"],
      [tg.loadMcpTools({ mcpServers: {} }, { update: true }), "update"],
    ]) {
      const err = await rejectsWith(p, "unsupported-type", key);
      assert.match(err.message, new RegExp(`"${key}"`));
    }
  });

  test("a malformed security object is unsupported-type", async () => {
    const b = tg.branch();
    for (const security of [{ allowUrls: "true" }, { allowUrl: true }, { allowUrls: true, timeoutMs: -1 }]) {
      await rejectsWith(b.registerMcpServer({ name: "srv", url }, { security }), "unsupported-type", JSON.stringify(security));
    }
    assert.throws(() => tg.mcp.checkUrl(url, { allowUrls: 1 }), (e) => e.code === "unsupported-type");
    assert.equal(b.tools.size, 0);
  });

  test("trusted() and checkUrl", () => {
    assert.deepEqual(tg.mcp.trusted(), { allowUrls: true });
    assert.notEqual(tg.mcp.trusted(), tg.mcp.trusted(), "a fresh object each call");
    assert.deepEqual(tg.mcp.checkUrl("https://api.example.com/mcp", tg.mcp.trusted()), { allowed: true });
    const denied = tg.mcp.checkUrl("https://api.example.com/mcp");
    assert.equal(denied.allowed, false);
    assert.equal(denied.rule, "no-policy");
    const set = { allowUrls: true, urlAllowlist: new Set(["api.example.com"]) };
    assert.equal(tg.mcp.checkUrl(new URL("https://api.example.com/x"), set).allowed, true, "a Set allowlist and a URL object");
    assert.equal(tg.mcp.checkUrl("https://other.example.com/x", set).allowed, false);
    assert.throws(() => tg.mcp.checkUrl(42, LOOPBACK), (e) => e.code === "unsupported-type");
  });

  test("the core build has no MCP surface", () => {
    assert.equal(tgCore.mcp, undefined);
    assert.equal(tgCore.loadMcpTools, undefined);
    const b = tgCore.branch();
    assert.equal(b.registerMcpServer, undefined);
    assert.equal(b.loadMcpConfig, undefined);
    assert.throws(() => b.register({ srv: { url: "https://api.example.com/mcp", security: { allowUrls: true } } }), (e) => e.code === "unsupported");
    assert.equal(typeof tg.branch().registerMcpServer, "function", "the full build has it");
  });

  test("a clone keeps its build's surface", () => {
    const full = tg.branch().clone();
    assert.equal(typeof full.registerMcpServer, "function");
    assert.equal(typeof full.loadMcpConfig, "function");
    assert.equal(typeof full.clone().loadMcpConfig, "function", "a clone of a clone too");
    const core = tgCore.branch().clone();
    assert.equal(core.registerMcpServer, undefined);
    assert.equal(core.loadMcpConfig, undefined);
  });
});

describe("URL policy table", () => {
  const { cases } = fixture("policy", "urls.json").data;

  test(`checkUrl gives every verdict of tests/fixtures/policy/urls.json (${cases.length} URLs)`, () => {
    assert.ok(cases.length >= 40, `got ${cases.length} cases, want at least 40`);
    for (const c of cases) {
      const v = tg.mcp.checkUrl(c.url, c.security);
      assert.equal(v.allowed, c.allowed, `${c.name} (${JSON.stringify(c.url)}): got allowed ${v.allowed} (${v.reason}), want ${c.allowed}`);
      if (c.allowed) {
        assert.equal(v.reason, undefined, `${c.name}: an allowed URL has no reason`);
      } else {
        assert.equal(typeof v.reason, "string", `${c.name}: a refusal has a reason`);
        assert.equal(v.rule, c.rule, `${c.name}: got rule ${v.rule} (${v.reason}), want ${c.rule}`);
      }
    }
  });

  test("for every allowed URL, WHATWG's hostname is the host Go checked", () => {
    const canonical = (h) => (h.includes(":") ? new URL(`http://[${h}]/`).hostname : h);
    let n = 0;
    for (const c of cases.filter((c) => c.allowed)) {
      const goHost = debug.urlHost(c.url);
      const whatwg = new URL(c.url).hostname;
      assert.equal(canonical(goHost), whatwg, `${c.name} (${c.url}): Go checked ${goHost}, fetch would reach ${whatwg}`);
      n++;
    }
    assert.ok(n > 10, `got ${n} allowed URLs, want a meaningful sample`);
  });
});

describe("a hostile server", () => {
  let hostile, target;
  before(async () => {
    target = await startCounter();
    hostile = await startHostile({ redirectTo: target.url });
  });
  after(async () => {
    await tg.mcp.cleanup();
    await hostile?.close();
    await target?.close();
  });
  const security = (extra) => ({ ...LOOPBACK, timeoutMs: CEILING_MS, ...extra });
  const config = (scenario) => ({ name: `hostile-${scenario}`, url: hostile.url(scenario), headers: { Authorization: `Bearer ${SECRET}` } });
  const local = tg.tool(function add(a, b) { return a + b; });

  test("the control scenario registers and calls (the server speaks MCP)", async () => {
    const b = tg.branch();
    const names = await b.registerMcpServer(config("ok"), { security: security() });
    assert.deepEqual(names, ["mcp__hostile-ok__lookup"]);
    assert.equal(hostile.state.lastHeaders.authorization, `Bearer ${SECRET}`, "the configured header reached the server");
    assert.equal(await call(b, "mcp__hostile-ok__lookup", { q: "x" }), "called lookup");
  });

  const expected = {
    big: "transport",
    "endless-sse": "transport",
    silent: "timeout",
    redirect: "transport",
    cursor: "transport",
    duplicate: "duplicate-tool",
    "invalid-name": "invalid-tool",
    "empty-name": "invalid-tool",
    "unicode-name": "invalid-tool",
    "ref-file": "left out", // one badly described tool is left out, reported to onWarning (below)
    html: "transport",
    "wrong-id": "transport",
    "ping-flood-silent": "timeout",
    "sse-end": "transport",
  };
  const timeouts = { silent: 300, "ping-flood-silent": 1000 };
  test("every hostile scenario has an expected code", () => {
    assert.deepEqual(Object.keys(expected).sort(), [...HOSTILE].sort());
  });

  test("ref-file: the tool whose schema refers to a file is left out with an invalid-schema warning, nothing read", async () => {
    const b = tg.branch({ tools: [local] });
    const warned = [];
    const names = await b.registerMcpServer(config("ref-file"), { security: security({}), onWarning: (server, e) => warned.push([server, e]) });
    assert.deepEqual(names, []);
    assert.deepEqual([...b.tools.keys()], ["add"]);
    assert.equal(warned.length, 1);
    const [server, e] = warned[0];
    assert.equal(server, "hostile-ref-file");
    assert.ok(tg.ToolgateError.isInstance(e));
    assert.equal(e.code, "invalid-schema");
    assert.equal(e.tool, "reader");
    assert.ok(!e.message.includes("root:"), "the file was never read");
  });

  for (const scenario of HOSTILE) {
    if (expected[scenario] === "left out") continue;
    test(`${scenario}: a typed error, nothing registered, the instance still working`, { timeout: CEILING_MS }, async () => {
      const b = tg.branch({ tools: [local] });
      const sec = security(scenario in timeouts ? { timeoutMs: timeouts[scenario] } : {});
      const before = debug.mcpStats();
      const started = Date.now();
      const err = await rejectsWith(b.registerMcpServer(config(scenario), { security: sec }), expected[scenario], scenario);
      const elapsed = Date.now() - started;
      const counted = statsSince(before);
      assert.ok(err.message.includes(`hostile-${scenario}`), `${scenario}: got ${err.message}, want the server named`);
      assert.deepEqual([...b.tools.keys()], ["add"], `${scenario}: nothing registered`);
      const r = b.validate({ function: "add", arguments: { a: 1, b: 2 } });
      assert.ok(r.ok, `${scenario}: validate after the failure: ${r.error?.message}`);
      assert.equal((await b.invoke({ function: "add", arguments: { a: 1, b: 2 } })).response, 3);
      if (scenario === "redirect") {
        assert.ok(hostile.state.requests.redirect > 0, "the redirecting server was asked");
        assert.equal(target.counter.hits, 0, "no request reached the redirect target");
        assert.equal(target.counter.connections ?? 0, 0, "no connection reached the redirect target");
      }
      if (scenario === "cursor") {
        assert.ok(hostile.state.pages <= 65, `got ${hostile.state.pages} pages served, want the repeated cursor stopped`);
      }
      if (scenario === "ref-file") {
        assert.ok(!err.message.includes("root:"), "the file's content must not appear");
      }
      if (scenario === "wrong-id") {
        assert.equal(counted.answersDropped, 1, "the answer with another id is dropped and counted");
        assert.ok(!err.message.includes("evil"));
      }
      if (scenario === "ping-flood-silent") {
        const { serverRequestsAnswered: answered, serverRequestsDropped: dropped } = counted;
        assert.ok(answered >= 1 && answered <= answerBound(elapsed), `got ${answered} pings answered in ${elapsed} ms, want 1 to ${answerBound(elapsed)}`);
        assert.ok(answered + dropped <= FLOOD_PINGS, `got ${answered} + ${dropped} pings counted, want at most ${FLOOD_PINGS}`);
        await eventually("the server got every answer", () => hostile.state.answers[scenario] === answered);
      }
      if (scenario === "sse-end") {
        assert.equal(hostile.state.resumes, 5, `got ${hostile.state.resumes} resumed streams, want 5`);
        assert.equal(counted.streamResumes, 5);
        assert.equal(counted.streamResumesRefused, 1, "the sixth resume is refused");
        assert.match(err.message, /5 times/);
      }
    });
  }

  test("an answer with another id on the stream is dropped; the right one registers", async () => {
    const b = tg.branch();
    const before = debug.mcpStats();
    const names = await b.registerMcpServer(config("wrong-id-sse"), { security: security() });
    assert.deepEqual(names, ["mcp__hostile-wrong-id-sse__good"]);
    assert.equal(statsSince(before).answersDropped, 1);
    assert.equal(await call(b, "mcp__hostile-wrong-id-sse__good", { q: "x" }), "called good", "the instance keeps working");
  });

  test(`${FLOOD_PINGS} pings on a stream get a bounded number of answers`, async () => {
    const b = tg.branch();
    const before = debug.mcpStats();
    const started = Date.now();
    const names = await b.registerMcpServer(config("ping-flood"), { security: security({ maxConnectionsPerServer: 2 }) });
    const elapsed = Date.now() - started;
    assert.deepEqual(names, ["mcp__hostile-ping-flood__lookup"]);
    const counted = statsSince(before);
    assert.equal(counted.serverRequestsAnswered + counted.serverRequestsDropped, FLOOD_PINGS, "every ping is answered or dropped");
    assert.ok(counted.serverRequestsAnswered >= 1 && counted.serverRequestsAnswered <= answerBound(elapsed),
      `got ${counted.serverRequestsAnswered} pings answered in ${elapsed} ms, want 1 to ${answerBound(elapsed)}`);
    await eventually("the server got every answer", () => hostile.state.answers["ping-flood"] === counted.serverRequestsAnswered);
    assert.equal(await call(b, "mcp__hostile-ping-flood__lookup", { q: "x" }), "called lookup", "the instance keeps working");
  });

  test("names that sanitise alike stay distinct and provider-safe", async () => {
    const b = tg.branch();
    const names = await b.registerMcpServer(config("collision"), { security: security() });
    assert.equal(names.length, 3);
    assert.equal(new Set(names).size, 3, `got ${names}, want three distinct names`);
    assert.ok(names.includes("mcp__hostile-collision__search-a") && names.includes("mcp__hostile-collision__search_a"), `got ${names}`);
    for (const n of names) assert.match(n, PROVIDER_NAME);
  });

  test("a tool name another server registered is duplicate-tool, even with update", async () => {
    const b = tg.branch();
    const a = await b.registerMcpServer({ ...config("ok"), name: "alpha" }, { security: security(), qualify: false });
    assert.deepEqual(a, ["lookup"]);
    for (const update of [false, true]) {
      await rejectsWith(b.registerMcpServer({ ...config("ok"), name: "beta" }, { security: security(), qualify: false, update }), "duplicate-tool", `update ${update}`);
    }
    b.register(tg.tool(function lookalike() {}, { name: "mcp__beta__lookup" }));
    await rejectsWith(b.registerMcpServer({ ...config("ok"), name: "beta" }, { security: security(), update: true }), "duplicate-tool", "over a local tool");
    assert.deepEqual([...b.tools.keys()], ["lookup", "mcp__beta__lookup"]);
  });

  test("the loaders report hostile servers per server and keep the good one", async () => {
    const b = tg.branch();
    const warnings = [];
    const out = await b.loadMcpConfig(
      { mcpServers: { "hostile-html": { url: hostile.url("html") }, "hostile-ok": { url: hostile.url("ok") } } },
      { security: security(), onWarning: (server, error) => warnings.push([server, error.code]) },
    );
    assert.deepEqual(out, { "hostile-html": [], "hostile-ok": ["mcp__hostile-ok__lookup"] });
    assert.deepEqual(warnings, [["hostile-html", "transport"]]);
  });

  test("after all of it the fetch transport holds nothing", async () => {
    await tg.mcp.cleanup();
    const s = await fetchSettled();
    assert.deepEqual(s, { fetchLiveFuncs: 0, fetchInFlight: 0 });
    const st = debug.stats();
    assert.equal(st.pendingAsync, 0, "no async call left pending");
  });
});
