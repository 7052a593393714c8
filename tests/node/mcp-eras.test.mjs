// Both MCP protocol eras through the packed package, with no era option: toolgate probes
// server/discover and falls back to initialize on legacy evidence (docs: the spec's
// basic/versioning "Backward Compatibility"). Each server of tests/node/mcp-era-servers.mjs (the
// official TypeScript SDK v2 serving both eras or 2026-07-28 only, v1 with sessions over
// Streamable HTTP and over SSE) offers the tool set of tests/fixtures/mcp-eras/tools.json; the
// same table runs against each: registration and the era it landed on (tool.mcp.protocolVersion),
// plain calls, the three client hooks (server→client requests on 2025, input_required rounds on
// 2026-07-28), a tools list change, and a cleanup that lets the process end. server-everything
// (legacy only) answers the probe too. Everything listens on 127.0.0.1 and is stopped at the end.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tg, fixture } from "./helpers.mjs";
import { CEILING_MS } from "./waits.mjs";
import { KINDS, startEraServer } from "./mcp-era-servers.mjs";
import { startEverything } from "./mcp-servers.mjs";
import { runProgram } from "./child-program.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const SPEC = fixture("mcp-eras", "tools.json").data;
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25"; // what the SDK v1 servers and server-everything negotiate
/** Each test's own bound: a wait for an event that never comes fails the test here, nothing else. */
const BOUND = { timeout: CEILING_MS };

/** The era toolgate must land on for each kind: 2026-07-28 wherever the server serves it. */
const WANT_VERSION = { "v2-dual": MODERN, "v2-modern": MODERN, "v1-stateful": LEGACY, "v1-sse": LEGACY };

/** The server name of a kind in toolgate (qualified names are mcp__<name>__<tool>). */
const serverName = (kind) => kind.replaceAll("-", "");

/** "completed" with its response, or the status, code and message of what it was instead. */
function outcome(fc) {
  return fc.status === "completed" ? { status: fc.status, response: fc.response } : { status: fc.status, code: fc.error?.code, message: fc.error?.message };
}

/** Hooks that record each call; what the elicitation answers is the test's to set. */
function recordingHooks() {
  const h = {
    calls: { elicitation: [], sampling: [], roots: [] },
    elicitAnswer: { action: "accept", content: { name: "Ada" } },
    changes: [],
    changed: null,
  };
  h.reset = () => {
    for (const k of Object.keys(h.calls)) h.calls[k] = [];
  };
  h.options = {
    elicitation: async (params) => {
      h.calls.elicitation.push(params);
      return h.elicitAnswer;
    },
    sampling: async (params) => {
      h.calls.sampling.push(params);
      return { role: "assistant", model: "app-model", content: { type: "text", text: "the app's model says hi" }, stopReason: "endTurn" };
    },
    roots: async (params) => {
      h.calls.roots.push(params);
      return [{ uri: "file:///srv/a", name: "a" }, { uri: "file:///srv/b" }];
    },
    onToolsChanged: (e) => {
      h.changes.push(e);
      h.changed?.(e);
    },
  };
  /** Resolves with the first change event (from now on) that adds name. */
  h.nextChangeAdding = (name) =>
    new Promise((resolve) => {
      const seen = h.changes.find((e) => e.added?.includes(name));
      if (seen) return resolve(seen);
      h.changed = (e) => {
        if (e.added?.includes(name)) resolve(e);
      };
    });
  return h;
}

for (const kind of Object.keys(KINDS)) {
  const name = serverName(kind);
  const q = (tool) => `mcp__${name}__${tool}`;
  describe(`MCP eras: ${kind} (${KINDS[kind].transport}, serves ${KINDS[kind].eras.join(" and ")})`, () => {
    let srv;
    let b;
    let hooks;
    before(async () => {
      srv = await startEraServer(kind);
    });
    after(async () => {
      await tg.mcp.cleanup();
      await srv?.stop();
    });

    /** The call's outcome; the test fails first when registration did. */
    async function call(tool, args = {}) {
      assert.ok(b?.has(q(tool)), `${q(tool)} is not registered (registration failed above)`);
      return outcome(await b.invoke({ function: q(tool), arguments: args }));
    }

    test("registers the tool set with no era option", BOUND, async () => {
      hooks = recordingHooks();
      const branch = tg.branch();
      const config = { name, url: srv.url, ...(KINDS[kind].transport === "sse" ? { transport: "sse" } : {}) };
      const names = await branch.registerMcpServer(config, { security: LOOPBACK, ...hooks.options });
      b = branch;
      assert.deepEqual([...names].sort(), SPEC.tools.map(q));
    });

    test(`lands on ${WANT_VERSION[kind]}: tool.mcp.protocolVersion, and the era the server served`, BOUND, async () => {
      assert.ok(b, "registration failed above");
      const seen = `requests seen: ${srv.state.requests.join(" | ")}`;
      for (const tool of SPEC.tools) assert.equal(b.tools.get(q(tool)).mcp?.protocolVersion, WANT_VERSION[kind], `${q(tool)}; ${seen}`);
      if (kind.startsWith("v2-")) assert.deepEqual([...new Set(srv.state.eras)], [WANT_VERSION[kind] === MODERN ? "modern" : "legacy"], seen);
    });

    test("echo and add complete with the server's answers", BOUND, async () => {
      assert.deepEqual(await call("echo", { text: "hi there" }), { status: "completed", response: "hi there" });
      assert.deepEqual(await call("add", { a: 2, b: 40 }), { status: "completed", response: "42" });
    });

    test("ask: the elicitation hook gets the server's form once and its accept completes the call", BOUND, async () => {
      hooks.reset();
      hooks.elicitAnswer = { action: "accept", content: { name: "Ada" } };
      assert.deepEqual(await call("ask"), { status: "completed", response: "hello Ada" });
      assert.equal(hooks.calls.elicitation.length, 1, "the hook is called once");
      const [params] = hooks.calls.elicitation;
      assert.equal(params.message, SPEC.ask.message);
      assert.deepEqual(params.requestedSchema, SPEC.ask.requestedSchema);
    });

    test("ask: a declined elicitation gives the server's answer to a decline", BOUND, async () => {
      hooks.reset();
      hooks.elicitAnswer = { action: "decline" };
      assert.deepEqual(await call("ask"), { status: "completed", response: "declined" });
      assert.equal(hooks.calls.elicitation.length, 1, "the hook is called once");
    });

    test("sample: the sampling hook gets the server's messages once and its text is the tool's answer", BOUND, async () => {
      hooks.reset();
      assert.deepEqual(await call("sample"), { status: "completed", response: "the app's model says hi" });
      assert.equal(hooks.calls.sampling.length, 1, "the hook is called once");
      const [params] = hooks.calls.sampling;
      assert.deepEqual(params.messages, SPEC.sample.messages);
      assert.equal(params.maxTokens, SPEC.sample.maxTokens);
    });

    test("roots: the roots hook is asked once and the server joins the URIs it gave", BOUND, async () => {
      hooks.reset();
      assert.deepEqual(await call("roots"), { status: "completed", response: ["file:///srv/a", "file:///srv/b"].join(SPEC.rootsSeparator) });
      assert.equal(hooks.calls.roots.length, 1, "the hook is called once");
    });

    test("grow: the server's tools list change reaches onToolsChanged with the added tool", BOUND, async () => {
      const event = hooks.nextChangeAdding(q(SPEC.grown));
      assert.deepEqual(await call("grow"), { status: "completed", response: "grown" });
      const e = await event; // bounded by BOUND: no event fails the test
      assert.equal(e.server, name);
      assert.equal(e.error, undefined);
      assert.deepEqual(e.added, [q(SPEC.grown)]);
      assert.ok(b.has(q(SPEC.grown)), "the branch has the added tool");
      assert.deepEqual(await call(SPEC.grown), { status: "completed", response: SPEC.grown });
    });
  });
}

describe("MCP eras: server-everything (legacy only)", () => {
  const ev = {};
  before(async () => {
    [ev["streamable-http"], ev.sse] = await Promise.all([startEverything("streamable-http"), startEverything("sse")]);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all([ev["streamable-http"]?.stop(), ev.sse?.stop()]);
  });
  for (const mode of ["streamable-http", "sse"]) {
    test(`over ${mode} toolgate lands on the negotiated legacy version`, BOUND, async () => {
      const b = tg.branch();
      const names = await b.registerMcpServer({ name: "ev", url: ev[mode].url, transport: mode }, { security: LOOPBACK });
      assert.ok(names.includes("mcp__ev__echo"), `got ${names.join(", ")}`);
      assert.equal(b.tools.get("mcp__ev__echo").mcp?.protocolVersion, LEGACY);
      assert.deepEqual(outcome(await b.invoke({ function: "mcp__ev__echo", arguments: { message: "hi" } })), { status: "completed", response: "Echo: hi" });
    });
  }
});

// A program that used toolgate ends when its work is done (exit.test.mjs). Here the server runs in
// the program and closes gracefully: its close() resolves only once every request has ended, so the
// program gets past it only if cleanup() closed what toolgate held open (the GET stream on 2025,
// the subscriptions/listen stream on 2026-07-28, both opened because onToolsChanged is given).
const here = dirname(fileURLToPath(import.meta.url));

for (const kind of Object.keys(KINDS)) {
  test(`${kind}: with hooks and onToolsChanged, after a call tg.mcp.cleanup() lets the process exit`, { timeout: CEILING_MS }, async () => {
    const out = await runProgram(
      `eras-${kind}`,
      `import { initialize } from "toolgate";
import { startEraServer } from ${JSON.stringify(join(here, "mcp-era-servers.mjs"))};
const srv = await startEraServer(${JSON.stringify(kind)});
const tg = await initialize();
const b = tg.branch();
const security = { allowUrls: true, allowLoopbackHttp: true, timeoutMs: 600000 };
const config = { name: "x", url: srv.url${KINDS[kind].transport === "sse" ? ', transport: "sse"' : ""} };
let fc;
try {
  await b.registerMcpServer(config, {
    security,
    elicitation: async () => ({ action: "accept", content: { name: "Ada" } }),
    sampling: async () => ({ role: "assistant", model: "m", content: { type: "text", text: "hi" } }),
    roots: [{ uri: "file:///srv/a" }],
    onToolsChanged: () => {},
  });
  fc = await b.invoke({ function: "mcp__x__echo", arguments: { text: "bye" } });
} catch (e) {
  fc = { status: "register-failed", error: { code: e.code } };
} finally {
  await tg.mcp.cleanup();
  await srv.stop({ graceful: true });
}
console.log(JSON.stringify({ status: fc.status, response: fc.response, code: fc.error?.code }));
`,
    );
    // It exited (runProgram rejects otherwise); what it printed shows it got that far having worked.
    assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)), { status: "completed", response: "bye" });
  });
}
