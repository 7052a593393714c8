// The era test servers (mcp-era-servers.mjs) checked with the official TypeScript clients, not
// with toolgate: the SDK v2 client in its dual-era mode (versionNegotiation auto: it probes
// server/discover and falls back to initialize) and the SDK v1 client (2025 only). A failure here
// is the fixture's, never toolgate's; mcp-eras.test.mjs then holds toolgate to the same answers.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client as ClientV2, StreamableHTTPClientTransport as HttpV2, SSEClientTransport as SseV2 } from "@modelcontextprotocol/client";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as HttpV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport as SseV1 } from "@modelcontextprotocol/sdk/client/sse.js";
import { ElicitRequestSchema, CreateMessageRequestSchema, ListRootsRequestSchema, ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { KINDS, SPEC, startEraServer } from "./mcp-era-servers.mjs";
import { CEILING_MS } from "./waits.mjs";

const BOUND = { timeout: CEILING_MS };
const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: { listChanged: false } };

/** What each client lands on, per kind: the era and version, or the JSON-RPC code it is refused with. */
const EXPECT = {
  "v2-dual": { v2: { era: "modern", version: "2026-07-28" }, v1: { version: "2025-11-25", asks: false } },
  "v2-modern": { v2: { era: "modern", version: "2026-07-28" }, v1: { refused: -32022 } },
  "v1-stateful": { v2: { era: "legacy", version: "2025-11-25" }, v1: { version: "2025-11-25" } },
  "v1-sse": { v2: { era: "legacy", version: "2025-11-25" }, v1: { version: "2025-11-25" } },
};

/** A connected client of the SDK (v2 or v1) whose handlers answer as the toolgate tests' hooks do. */
async function connect(sdk, srv) {
  const seen = [];
  let changed;
  const listChanged = new Promise((resolve) => (changed = resolve));
  const answers = {
    elicit: async (r) => (seen.push(r.params), { action: "accept", content: { name: "Ada" } }),
    sample: async () => ({ role: "assistant", model: "m", content: { type: "text", text: "model says hi" } }),
    roots: async () => ({ roots: [{ uri: "file:///srv/a" }, { uri: "file:///srv/b" }] }),
  };
  const url = new URL(srv.url);
  let client;
  if (sdk === "v2") {
    client = new ClientV2({ name: "check", version: "1" }, { capabilities: CAPABILITIES, versionNegotiation: { mode: "auto" } });
    client.setRequestHandler("elicitation/create", answers.elicit);
    client.setRequestHandler("sampling/createMessage", answers.sample);
    client.setRequestHandler("roots/list", answers.roots);
    client.setNotificationHandler("notifications/tools/list_changed", async () => changed());
    await client.connect(srv.transport === "sse" ? new SseV2(url) : new HttpV2(url));
    if (client.getProtocolEra() === "modern") await client.listen({ toolsListChanged: true });
  } else {
    client = new ClientV1({ name: "check", version: "1" }, { capabilities: CAPABILITIES });
    client.setRequestHandler(ElicitRequestSchema, answers.elicit);
    client.setRequestHandler(CreateMessageRequestSchema, answers.sample);
    client.setRequestHandler(ListRootsRequestSchema, answers.roots);
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed());
    const transport = srv.transport === "sse" ? new SseV1(url) : new HttpV1(url);
    const set = transport.setProtocolVersion?.bind(transport); // the version initialize negotiated
    transport.setProtocolVersion = (v) => ((client.negotiated = v), set?.(v));
    await client.connect(transport);
  }
  return { client, seen, listChanged };
}

const text = async (client, name, args = {}) => (await client.callTool({ name, arguments: args })).content[0].text;

for (const kind of Object.keys(KINDS)) {
  for (const sdk of ["v2", "v1"]) {
    test(`${kind} answers the official ${sdk === "v2" ? "SDK v2 client (dual-era)" : "SDK v1 client"}`, BOUND, async (t) => {
      const want = EXPECT[kind][sdk];
      const srv = await startEraServer(kind);
      t.after(() => srv.stop());
      if (want.refused) {
        await assert.rejects(connect(sdk, srv), (e) => e.message.includes(`"code":${want.refused}`));
        return;
      }
      const { client, seen, listChanged } = await connect(sdk, srv);
      t.after(() => client.close());
      if (sdk === "v2") assert.equal(client.getProtocolEra(), want.era);
      assert.equal(sdk === "v2" ? client.getNegotiatedProtocolVersion() : client.negotiated, want.version);
      assert.deepEqual((await client.listTools()).tools.map((x) => x.name).sort(), SPEC.tools);
      assert.equal(await text(client, "echo", { text: "hi" }), "hi");
      assert.equal(await text(client, "add", { a: 2, b: 40 }), "42");
      if (want.asks === false) {
        // Stateless 2025 serving cannot carry a server→client request: the tool reports an error.
        const r = await client.callTool({ name: "ask", arguments: {} });
        assert.equal(r.isError, true);
        return;
      }
      assert.equal(await text(client, "ask"), "hello Ada");
      assert.equal(seen[0].message, SPEC.ask.message);
      assert.equal(await text(client, "sample"), "model says hi");
      assert.equal(await text(client, "roots"), ["file:///srv/a", "file:///srv/b"].join(SPEC.rootsSeparator));
      assert.equal(await text(client, "grow"), "grown");
      await listChanged; // bounded by the test's timeout
      assert.ok((await client.listTools()).tools.some((x) => x.name === SPEC.grown));
    });
  }
}
