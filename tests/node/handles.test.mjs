// A Go tool's JS wrapper can be garbage-collected while its tool stays registered: the branch
// must keep answering with a wrapper that works, whatever the collector's timing. Its own file,
// so its own process: it forces collections with the V8 flag it sets. Node only.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import v8 from "node:v8";
import vm from "node:vm";
import { tg } from "./helpers.mjs";
import { startEraServer } from "./mcp-era-servers.mjs";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc");
const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });

let srv;
after(async () => {
  await tg.mcp.cleanup();
  await srv?.stop();
});

/** Collects what nothing holds, then lets the FinalizationRegistry callbacks that follow run. */
async function collect() {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((r) => setImmediate(r));
  }
}

test("an MCP tool read from b.tools after its earlier wrappers were collected still answers (tool.info, toDict, invoke)", { timeout: 120000 }, async () => {
  srv = await startEraServer("v1-stateful");
  const b = tg.branch();
  const names = await b.registerMcpServer({ name: "h", url: srv.url }, { security: LOOPBACK });
  const name = names.find((n) => n.endsWith("echo"));
  assert.ok(name, `an echo tool among ${names.join(", ")}`);
  for (let round = 0; round < 6; round++) {
    // A wrapper nothing keeps: the collector may take it, and its handle with it, at any time.
    assert.equal(b.tools.get(name).function, name);
    await collect();
    // The list is read again, from its cache or from Go: each tool in it must still be usable.
    const t = b.tools.get(name);
    assert.equal(t.function, name, `round ${round}`);
    assert.equal(t.toDict().function, name, `round ${round}: toDict`);
    const fc = await b.invoke({ function: name, arguments: { text: `r${round}` } });
    assert.equal(fc.status, "completed", `round ${round}: ${fc.error?.message}`);
  }
});

test("a wrapper collected after a newer one took its handle does not release the newer one's handle", { timeout: 120000 }, async () => {
  const b = tg.branch();
  const names = await b.registerMcpServer({ name: "h2", url: srv.url }, { security: LOOPBACK });
  const name = names.find((n) => n.endsWith("echo"));
  for (let round = 0; round < 6; round++) {
    b.tools.get(name); // wrapper 1, dropped
    gc(); // taken now; its release callback runs only after this turn
    const held = b.tools.get(name); // wrapper 2, made for the same handle before that callback runs
    await collect(); // wrapper 1's callback runs now
    assert.equal(held.toDict().function, name, `round ${round}: the newer wrapper's handle is still Go's`);
  }
});
