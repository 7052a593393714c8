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
  "elicitation-sep1034-client-defaults": ["test_client_elicitation_defaults", {}],
};

/**
 * The client capabilities of each scenario, as a user gives them. The SEP-1034 server asks for a
 * form and checks that every field it left to its default arrives with that default: the user
 * accepts without filling anything in, and toolgate applies the schema's defaults.
 */
const HOOKS = {
  "elicitation-sep1034-client-defaults": {
    elicitation: async (params) => {
      console.log(`elicitation: ${params.message}`);
      return { action: "accept", content: {} };
    },
  },
};

/**
 * The auth provider of an auth/* scenario, as a user gives one: the runner's context
 * (MCP_CONFORMANCE_CONTEXT) for the grants without a user, else the authorization code grant
 * whose "user" fetches the authorization URL without following its redirect and returns the
 * redirect's URL (its code and state), as the runner's own example client does.
 */
function authFor(name) {
  if (!name.startsWith("auth/")) return undefined;
  const ctx = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
  switch (ctx.name) {
    case "auth/client-credentials-basic":
      return { clientCredentials: { clientId: ctx.client_id, clientSecret: ctx.client_secret } };
    case "auth/client-credentials-jwt":
      return { clientCredentials: { clientId: ctx.client_id, privateKey: ctx.private_key_pem, algorithm: ctx.signing_algorithm } };
    case "auth/cross-app-access-complete-flow":
      return {
        crossApp: {
          idpTokenEndpoint: ctx.idp_token_endpoint, idToken: ctx.idp_id_token, idpClientId: ctx.idp_client_id,
          clientId: ctx.client_id, clientSecret: ctx.client_secret,
        },
      };
  }
  const redirectUrl = "http://localhost:3000/callback";
  return {
    redirectUrl,
    clientMetadata: { client_name: "toolgate-conformance", redirect_uris: [redirectUrl] },
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    ...(ctx.name === "auth/pre-registration" ? { clientId: ctx.client_id, clientSecret: ctx.client_secret } : {}),
    redirectToAuthorization: async (authUrl) => {
      const res = await fetch(authUrl, { redirect: "manual" });
      const location = res.headers.get("location");
      if (!location) throw new Error(`no redirect from the authorization endpoint (HTTP ${res.status})`);
      return location;
    },
  };
}

const tg = await initialize();
let failed = false;
try {
  const b = tg.branch();
  const names = await b.registerMcpServer({ name: "conformance", url }, { security, ...HOOKS[scenario], auth: authFor(scenario) });
  console.log(`registered ${names.join(", ")}`);
  // Every auth/* server has one tool, test-tool, which the runner's own client calls after listing.
  const call = CALLS[scenario] ?? (scenario.startsWith("auth/") ? ["test-tool", {}] : undefined);
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
