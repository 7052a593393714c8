// The client the official MCP conformance runner drives (make
// test-conformance): the runner starts a test server for one scenario, then
// runs `node client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO set, and
// judges what the client sent. It uses the packed toolgate package as a user
// would: registerMcpServer, then the scenario's tool call.
import { initialize } from "toolgate";

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const security = { allowUrls: true, allowLoopbackHttp: true };

/** What each scenario calls once the server is registered: [tool, arguments]. */
const CALLS = {
  tools_call: ["add_numbers", { a: 2, b: 3 }],
  "sse-retry": ["test_reconnection", {}],
};

const tg = await initialize();
let failed = false;
try {
  const b = tg.branch();
  const names = await b.registerMcpServer({ name: "conformance", url }, { security });
  console.log(`registered ${names.join(", ")}`);
  const call = CALLS[scenario];
  if (call) {
    const fc = await b.invoke({ function: `mcp__conformance__${call[0]}`, arguments: call[1] });
    console.log(`${call[0]}: ${fc.status} ${JSON.stringify(fc.response ?? fc.error?.message)}`);
    if (fc.status !== "completed") failed = true;
  }
} catch (e) {
  console.error(`${scenario}: ${e?.code ?? ""} ${e?.message ?? e}`);
  failed = true;
} finally {
  await tg.mcp.cleanup();
}
// The Go instance keeps a JS timer pending: exit instead of waiting for it.
process.exit(failed ? 1 : 0);
