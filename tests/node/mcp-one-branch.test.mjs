// One branch, four MCP servers of different eras, no era option: toolgate finds each server's era
// itself and keeps the four apart. The servers all offer the tool set of
// tests/fixtures/mcp-eras/tools.json:
//
//   legacy  SDK v1 with sessions over Streamable HTTP (2025-11-25 only; mcp-era-servers.mjs)
//   dual    SDK v2 serving both eras (toolgate must land on 2026-07-28)
//   modern  SDK v2 serving 2026-07-28 only
//   gosdk   the official Go SDK, stateless (tests/servers/gosdk; 2026-07-28 per request)
//
// A single tg.branch() registers all four at once, each with hooks of its own whose answers name
// their server, so a hook answering another server's request shows in the tool's answer and in the
// hook's call count. Then, per server: echo and add, the three hooks, and a tools list change that
// must reach that server's onToolsChanged only and leave the other servers' tools as they were.
// Last, tg.mcp.cleanup() must close every stream toolgate held (each server sees its GET or
// subscriptions/listen stream end) and, in a child program doing the same, let the process exit.
// Everything listens on 127.0.0.1 and is stopped at the end. Waits are for events and states; each
// test's timeout bounds them, nothing is timed.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tg, fixture } from "./helpers.mjs";
import { startEraServer } from "./mcp-era-servers.mjs";
import { buildGoSDKServer, startGoSDKServer } from "./gosdk-server.mjs";
import { runProgram } from "./child-program.mjs";
import { CEILING_MS } from "./waits.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const SPEC = fixture("mcp-eras", "tools.json").data;
const MODERN = "2026-07-28";
const LEGACY = "2025-11-25"; // what the SDK v1 server negotiates
/** Each test's own bound: a wait for an event that never comes fails the test here, nothing else. */
const BOUND = { timeout: CEILING_MS };

/** The four servers: toolgate's name for each, how it is started, and the era it must land on. */
const SERVERS = [
  { name: "legacy", kind: "v1-stateful", want: LEGACY },
  { name: "dual", kind: "v2-dual", want: MODERN },
  { name: "modern", kind: "v2-modern", want: MODERN },
  { name: "gosdk", kind: "gosdk-stateless", want: MODERN },
];

const q = (name, tool) => `mcp__${name}__${tool}`;

/** "completed" with its response, or the status, code and message of what it was instead. */
function outcome(fc) {
  return fc.status === "completed" ? { status: fc.status, response: fc.response } : { status: fc.status, code: fc.error?.code, message: fc.error?.message };
}

/** What each server's hooks answer: every answer names the server, so a crossed hook shows. */
const answers = (name) => ({
  who: `Ada of ${name}`,
  said: `the model of ${name} says hi`,
  roots: [`file:///srv/${name}/a`, `file:///srv/${name}/b`],
});

/** Hooks of one registration that record each call and each list change. */
function recordingHooks(name) {
  const a = answers(name);
  const h = { calls: { elicitation: [], sampling: [], roots: [] }, noSignal: [], elicitAnswer: null, changes: [], waiters: [] };
  h.reset = () => {
    for (const k of Object.keys(h.calls)) h.calls[k] = [];
    h.noSignal = [];
  };
  // Checked by the tests, not here: a hook that throws answers the server without its message.
  const record = (kind, params, ctx) => {
    h.calls[kind].push(params);
    if (!(ctx?.signal instanceof AbortSignal)) h.noSignal.push(kind);
  };
  h.options = {
    elicitation: async (params, ctx) => {
      record("elicitation", params, ctx);
      return h.elicitAnswer ?? { action: "accept", content: { name: a.who } };
    },
    sampling: async (params, ctx) => {
      record("sampling", params, ctx);
      return { role: "assistant", model: `model-${name}`, content: { type: "text", text: a.said }, stopReason: "endTurn" };
    },
    roots: async (params, ctx) => {
      record("roots", params, ctx);
      return a.roots.map((uri) => ({ uri }));
    },
    onToolsChanged: (e) => {
      h.changes.push(e);
      for (const w of h.waiters) w(e);
    },
  };
  /** Resolves with the first change event (seen already or to come) that adds tool. */
  h.changeAdding = (tool) =>
    new Promise((resolve) => {
      const seen = h.changes.find((e) => e.added?.includes(tool));
      if (seen) return resolve(seen);
      h.waiters.push((e) => {
        if (e.added?.includes(tool)) resolve(e);
      });
    });
  return h;
}

/** Resolves once srv has no GET or subscriptions/listen stream open (at once when it has none). */
function streamsClosed(srv) {
  return new Promise((resolve) => {
    const check = () => {
      if (srv.state.openStreams > 0) return;
      srv.state.events.off("stream-closed", check);
      resolve();
    };
    srv.state.events.on("stream-closed", check);
    check();
  });
}

/** The requests a server saw, for a failure's message. */
const seen = (srv) => `${srv.kind} saw: ${srv.state.requests.join(" | ")}`;

/** How many tools/list requests a server saw. */
const listsSeen = (srv) => srv.state.requests.filter((r) => r.split(" ")[1]?.split(",").includes("tools/list")).length;

/** tests/servers/gosdk, built once for this file (the first caller builds it), removed at its end. */
let building;
const builtGoSDK = () => (building ??= buildGoSDKServer());
after(async () => (await building?.catch(() => null))?.dispose());

describe("one branch, four servers of both eras, no era option", () => {
  const srv = {}; // name → the running server
  const hooks = {}; // name → its registration's hooks
  let b;
  let registered = false;

  before(
    async () => {
      const { bin } = await builtGoSDK();
      const started = await Promise.all(SERVERS.map((s) => (s.kind === "gosdk-stateless" ? startGoSDKServer(bin) : startEraServer(s.kind))));
      SERVERS.forEach((s, i) => (srv[s.name] = started[i]));
    },
    { timeout: 300000 }, // go build, on a shared machine
  );
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all(Object.values(srv).map((s) => s.stop()));
  });

  /** The call's outcome; the test fails first when registration did. */
  async function call(name, tool, args = {}) {
    assert.ok(registered && b.has(q(name, tool)), `${q(name, tool)} is not registered (registration failed above)`);
    return outcome(await b.invoke({ function: q(name, tool), arguments: args }));
  }

  /** Asserts that of all four servers' hooks, only name's kind hook was called, and once. */
  function onlyHookOf(name, kind) {
    for (const s of SERVERS) {
      const got = hooks[s.name].calls;
      const want = s.name === name ? 1 : 0;
      assert.equal(got[kind].length, want, `the ${kind} hook of ${s.name} was called ${got[kind].length} times for ${name}'s tool, want ${want}`);
      for (const other of Object.keys(got)) if (other !== kind) assert.equal(got[other].length, 0, `the ${other} hook of ${s.name} was called for ${name}'s ${kind}`);
    }
    assert.deepEqual(hooks[name].noSignal, [], "hooks called without ctx.signal");
  }
  const resetHooks = () => Object.values(hooks).forEach((h) => h.reset());

  test("tg.branch() registers all four at once, each with its own hooks and onToolsChanged", BOUND, async () => {
    b = tg.branch();
    for (const s of SERVERS) hooks[s.name] = recordingHooks(s.name);
    const results = await Promise.allSettled(
      SERVERS.map((s) => b.registerMcpServer({ name: s.name, url: srv[s.name].url }, { security: LOOPBACK, ...hooks[s.name].options })),
    );
    const failed = results.flatMap((r, i) => (r.status === "rejected" ? [`${SERVERS[i].name}: ${r.reason?.code} ${r.reason?.message}; ${seen(srv[SERVERS[i].name])}`] : []));
    assert.deepEqual(failed, [], "every registration succeeds");
    registered = true;
    results.forEach((r, i) => {
      const { name } = SERVERS[i];
      assert.deepEqual([...r.value].sort(), SPEC.tools.map((t) => q(name, t)), `the names ${name}'s registration returned`);
    });
    const all = SERVERS.flatMap((s) => SPEC.tools.map((t) => q(s.name, t))).sort();
    assert.deepEqual([...b.tools.keys()].sort(), all, "the branch holds the four tool sets");
  });

  for (const s of SERVERS) {
    test(`${s.name} (${s.kind}): every tool says protocolVersion ${s.want}, and the server was reached on that era`, BOUND, async () => {
      assert.ok(registered, "registration failed above");
      for (const tool of SPEC.tools) assert.equal(b.tools.get(q(s.name, tool)).mcp?.protocolVersion, s.want, `${q(s.name, tool)}; ${seen(srv[s.name])}`);
      const lines = srv[s.name].state.requests;
      if (s.kind.startsWith("v2-")) assert.deepEqual([...new Set(srv[s.name].state.eras)], ["modern"], seen(srv[s.name]));
      if (s.want === MODERN) assert.ok(!lines.some((l) => l.includes("initialize")), `no initialize on a modern server; ${seen(srv[s.name])}`);
      else assert.ok(lines.some((l) => l.includes("initialize")), `the legacy server got initialize; ${seen(srv[s.name])}`);
    });
  }

  for (const s of SERVERS) {
    describe(`${s.name} (${s.kind}) in the shared branch`, () => {
      const a = answers(s.name);

      test("echo and add complete with its answers", BOUND, async () => {
        assert.deepEqual(await call(s.name, "echo", { text: `hi ${s.name}` }), { status: "completed", response: `hi ${s.name}` });
        assert.deepEqual(await call(s.name, "add", { a: 2, b: 40 }), { status: "completed", response: "42" });
      });

      test("ask: its elicitation hook, and no other server's, gets the form once; accept and decline", BOUND, async () => {
        resetHooks();
        hooks[s.name].elicitAnswer = null;
        assert.deepEqual(await call(s.name, "ask"), { status: "completed", response: `hello ${a.who}` });
        onlyHookOf(s.name, "elicitation");
        const [params] = hooks[s.name].calls.elicitation;
        assert.equal(params.message, SPEC.ask.message);
        assert.deepEqual(params.requestedSchema, SPEC.ask.requestedSchema);
        resetHooks();
        hooks[s.name].elicitAnswer = { action: "decline" };
        assert.deepEqual(await call(s.name, "ask"), { status: "completed", response: "declined" });
        onlyHookOf(s.name, "elicitation");
      });

      test("sample: its sampling hook, and no other server's, gets the messages once", BOUND, async () => {
        resetHooks();
        assert.deepEqual(await call(s.name, "sample"), { status: "completed", response: a.said });
        onlyHookOf(s.name, "sampling");
        const [params] = hooks[s.name].calls.sampling;
        assert.deepEqual(params.messages, SPEC.sample.messages);
        assert.equal(params.maxTokens, SPEC.sample.maxTokens);
      });

      test("roots: its roots hook, and no other server's, is asked once with no params of substance", BOUND, async () => {
        resetHooks();
        assert.deepEqual(await call(s.name, "roots"), { status: "completed", response: a.roots.join(SPEC.rootsSeparator) });
        onlyHookOf(s.name, "roots");
        const [params] = hooks[s.name].calls.roots;
        assert.deepEqual(Object.keys(params ?? {}).filter((k) => k !== "_meta"), [], `roots params ${JSON.stringify(params)}`);
      });

      test("grow: the list change reaches its onToolsChanged only, and the other servers' tools stay as they were", BOUND, async () => {
        const grown = q(s.name, SPEC.grown);
        const before = [...b.tools.keys()];
        const event = hooks[s.name].changeAdding(grown);
        assert.deepEqual(await call(s.name, "grow"), { status: "completed", response: "grown" });
        const e = await event; // bounded by BOUND: no event fails the test
        assert.deepEqual({ server: e.server, error: e.error, added: e.added, removed: e.removed, changed: e.changed }, { server: s.name, error: undefined, added: [grown], removed: [], changed: [] });
        assert.deepEqual(
          [...b.tools.keys()].filter((n) => n !== grown),
          before,
          "the branch's other tools, in their order, are those it had before the change",
        );
        assert.deepEqual(await call(s.name, SPEC.grown), { status: "completed", response: SPEC.grown });
      });
    });
  }

  test("each list change reached only its own server's onToolsChanged, and refreshed only that server", BOUND, async () => {
    assert.ok(registered, "registration failed above");
    // One more round trip to every server, so that a refresh a change might have set off elsewhere
    // has been sent by now.
    for (const s of SERVERS) assert.deepEqual(await call(s.name, "echo", { text: "again" }), { status: "completed", response: "again" });
    for (const s of SERVERS) {
      const changes = hooks[s.name].changes.map((e) => ({ server: e.server, added: e.added, removed: e.removed, changed: e.changed, error: e.error?.code }));
      assert.deepEqual(changes, [{ server: s.name, added: [q(s.name, SPEC.grown)], removed: [], changed: [], error: undefined }], `the changes ${s.name}'s onToolsChanged got`);
      // tools/list once at registration and once after its own change.
      assert.equal(listsSeen(srv[s.name]), 2, `tools/list requests to ${s.name}; ${seen(srv[s.name])}`);
    }
  });

  test("each server holds one stream for its list changes: the GET on legacy, subscriptions/listen on the modern ones", BOUND, async () => {
    assert.ok(registered, "registration failed above");
    for (const s of SERVERS) {
      const { state } = srv[s.name];
      assert.equal(state.openStreams, 1, `open streams of ${s.name}; ${seen(srv[s.name])}`);
      const streams = state.requests.filter((l) => l === "GET" || l.includes("subscriptions/listen"));
      assert.deepEqual([...new Set(streams)], [s.want === LEGACY ? "GET" : "POST subscriptions/listen"], `the streams ${s.name} was asked for; ${seen(srv[s.name])}`);
    }
  });

  describe("tg.mcp.cleanup()", () => {
    before(async () => {
      await tg.mcp.cleanup(); // a cleanup that never resolves fails here, at BOUND
    }, BOUND);
    for (const s of SERVERS) {
      // A timeout here names the server whose stream cleanup() left open.
      test(`closes the stream ${s.name} (${s.kind}) held`, BOUND, async () => {
        await streamsClosed(srv[s.name]);
        assert.equal(srv[s.name].state.openStreams, 0);
      });
    }
    test("after it, the Go SDK server's graceful shutdown (it waits for every open request) ends", BOUND, async () => {
      assert.equal(await srv.gosdk.stop({ graceful: true }), 0, srv.gosdk.state.log.join("\n"));
    });
  });
});

// A program that used toolgate ends when its work is done (exit.test.mjs). The same four servers run
// in a child program and close gracefully, each only once every request to it has ended, so the
// program gets past them only if cleanup() closed the GET stream of the legacy server and the
// subscriptions/listen streams of the three modern ones; it prints each step, so a program that
// does not exit shows where it stopped.
const here = dirname(fileURLToPath(import.meta.url));

test("with all four in one branch, hooks and onToolsChanged, after calls tg.mcp.cleanup() lets the process exit", { timeout: 400000 }, async () => {
  const { bin } = await builtGoSDK();
  const out = await runProgram(
    "one-branch",
    `import { initialize } from "toolgate";
import { startEraServer } from ${JSON.stringify(join(here, "mcp-era-servers.mjs"))};
import { startGoSDKServer } from ${JSON.stringify(join(here, "gosdk-server.mjs"))};
const SERVERS = ${JSON.stringify(SERVERS)};
const started = await Promise.all(SERVERS.map((s) => (s.kind === "gosdk-stateless" ? startGoSDKServer(${JSON.stringify(bin)}) : startEraServer(s.kind))));
const tg = await initialize();
const b = tg.branch();
const security = { allowUrls: true, allowLoopbackHttp: true, timeoutMs: 600000 };
const result = {};
try {
  await Promise.all(SERVERS.map((s, i) => b.registerMcpServer({ name: s.name, url: started[i].url }, {
    security,
    elicitation: async () => ({ action: "accept", content: { name: "Ada" } }),
    sampling: async () => ({ role: "assistant", model: "m", content: { type: "text", text: "hi" } }),
    roots: [{ uri: "file:///srv/a" }],
    onToolsChanged: () => {},
  })));
  for (const s of SERVERS) {
    const fc = await b.invoke({ function: \`mcp__\${s.name}__echo\`, arguments: { text: "bye" } });
    result[s.name] = fc.status === "completed" ? fc.response : fc.status + " " + fc.error?.code;
  }
  // Each server's list-change stream is open (cleanup() has something to close).
  await Promise.all(started.map((srv) => srv.state.openStreams > 0 || new Promise((r) => srv.state.events.once("stream-opened", r))));
  console.log("streams open");
} catch (e) {
  result.registration = e.code + " " + e.message;
} finally {
  await tg.mcp.cleanup();
  console.log("cleaned up");
  for (const [i, s] of SERVERS.entries()) {
    await started[i].stop({ graceful: true });
    console.log("stopped", s.name);
  }
}
console.log(JSON.stringify(result));
`,
    { timeoutMs: 120000 },
  );
  // It exited (runProgram rejects otherwise); what it printed shows it got that far having worked.
  assert.deepEqual(JSON.parse(out.trim().split("\n").at(-1)), { legacy: "bye", dual: "bye", modern: "bye", gosdk: "bye" });
});
