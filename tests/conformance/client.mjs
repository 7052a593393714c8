// The client the official MCP conformance runner drives (make
// test-conformance, docs/conformance.md): for each scenario the runner starts a
// test server, runs `node client.mjs <server-url>` with MCP_CONFORMANCE_SCENARIO
// (and, for some, MCP_CONFORMANCE_CONTEXT) set, and judges what the client sent.
// It uses the packed toolgate package as a user would: registerMcpServer with
// the hooks and the auth provider the scenario calls for, then the scenario's
// tool calls through b.invoke. It never builds a request, a header or a _meta
// itself, and never says which protocol revision to speak: toolgate finds the
// server's. It exits 0 when toolgate did what the scenario asks of a client
// (for the scenarios where the client must refuse, when toolgate refused), else
// 1.
import { initialize } from "toolgate";

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT || "{}");
const security = { allowUrls: true, allowLoopbackHttp: true };
const SERVER = "conformance";

/** Registers the scenario's server, with these options besides the policy that lets toolgate reach it. */
async function register(b, options = {}) {
  const names = await b.registerMcpServer({ name: SERVER, url }, { security, ...options });
  console.log(`registered: ${names.join(", ") || "(no tools)"}`);
  return names;
}

/** Calls a registered tool by its registered name; throws (the call's ToolgateError when it has one) unless it completed. */
async function invoke(b, name, args = {}) {
  const fc = await b.invoke({ function: name, arguments: args });
  console.log(`${name}: ${fc.status} ${JSON.stringify(fc.response ?? fc.error?.message ?? null)}`);
  if (fc.status === "completed") return fc.response;
  throw fc.error instanceof Error ? fc.error : new Error(`${name}: ${fc.status}`);
}

/** Calls one of the server's tools by its name on the server. */
const call = (b, tool, args) => invoke(b, `mcp__${SERVER}__${tool}`, args);

/**
 * Arguments for a tool the client knows nothing about, the way a model fills in a schema: each
 * required property with a value of its type.
 */
function argumentsFor(tool) {
  const params = tool.toolSchema.function.parameters ?? {};
  const sample = { string: "value", integer: 1, number: 1, boolean: true, object: {}, array: [], null: null };
  const args = {};
  for (const key of params.required ?? []) {
    const type = params.properties?.[key]?.type;
    args[key] = sample[Array.isArray(type) ? type[0] : type] ?? "value";
  }
  return args;
}

/** An elicitation hook that accepts with `content` (fields left out get the schema's defaults). */
const acceptWith = (content) => async (params) => {
  console.log(`elicitation: ${params.message}`);
  return { action: "accept", content };
};

/** Every client capability, as an application offering all three declares them. */
const EVERY_HOOK = {
  roots: [{ uri: "file:///tmp/conformance", name: "conformance" }],
  sampling: async () => ({ role: "assistant", content: { type: "text", text: "no model here" }, model: "none" }),
  elicitation: async () => ({ action: "decline" }),
};

/**
 * SEP-2322: each of the first two tools asks for input (an elicitation) and is sent again with
 * the answer, the first with the state its server sent, the second without any; the third answers
 * without a resultType. While the first waits for its answer, another tool is called: that call
 * must carry nothing of the first one's round.
 */
async function requestState(b) {
  let unrelated;
  const elicitation = async (params) => {
    console.log(`elicitation: ${params.message}`);
    unrelated ??= call(b, "test_mrtr_unrelated");
    await unrelated;
    return { action: "accept", content: { confirmed: true } };
  };
  await register(b, { elicitation });
  await call(b, "test_mrtr_echo_state");
  await call(b, "test_mrtr_no_state");
  await call(b, "test_mrtr_no_result_type");
  if (!unrelated) throw new Error("test_mrtr_echo_state completed without asking for input");
}

/**
 * SEP-2243: the server lists one valid tool and ten whose x-mcp-header annotations are invalid.
 * toolgate leaves those out, reporting each to onWarning; the client then calls every tool it
 * kept, as a model might.
 */
async function invalidToolHeaders(b) {
  const warnings = [];
  const onWarning = (server, error) => {
    console.log(`left out by toolgate: ${error.tool} (${error.code}, ${error.rule}): ${error.message}`);
    warnings.push(error);
  };
  const names = await register(b, { onWarning });
  for (const name of names) await invoke(b, name, argumentsFor(b.tools.get(name)));
  if (warnings.length === 0) throw new Error("toolgate reported no tool left out");
  const other = warnings.filter((w) => w.code !== "invalid-tool" || w.rule !== "x-mcp-header");
  if (other.length) throw new Error(`warnings other than invalid-tool/x-mcp-header: ${other.map((w) => w.code).join(", ")}`);
}

/** SEP-1613/SEP-2106: the schema toolgate holds for the focal tool, sent back through the echo tool. */
async function schemaPreservation(b) {
  await register(b);
  const focal = b.tools.get(`mcp__${SERVER}__json_schema_2020_12_tool`);
  if (!focal) throw new Error("json_schema_2020_12_tool was not registered");
  await call(b, "json_schema_echo", { schema: focal.toolSchema.function.parameters });
}

/** What the client does in each scenario that is not an auth/* one. */
const SCENARIOS = {
  initialize: (b) => register(b),
  tools_call: async (b) => {
    await register(b);
    await call(b, "add_numbers", { a: 2, b: 3 });
  },
  "sse-retry": async (b) => {
    await register(b);
    await call(b, "test_reconnection");
  },
  // SEP-1034: the user accepts without filling anything in; toolgate applies the schema's defaults.
  "elicitation-sep1034-client-defaults": async (b) => {
    await register(b, { elicitation: acceptWith({}) });
    await call(b, "test_client_elicitation_defaults");
  },
  // SEP-2575: every request carries the revision and the capabilities; the server refuses the
  // first one's revision and toolgate tries again with one the server lists.
  "request-metadata": (b) => register(b, EVERY_HOOK),
  "sep-2322-client-request-state": requestState,
  "http-standard-headers": async (b) => {
    await register(b);
    await call(b, "my-hyphenated-tool");
    await call(b, "test_headers");
  },
  // The runner gives the calls to make (context.toolCalls): their arguments are what a model sent.
  "http-custom-headers": async (b) => {
    await register(b);
    if (!context.toolCalls?.length) throw new Error("the runner gave no toolCalls");
    for (const { name, arguments: args } of context.toolCalls) await call(b, name, args);
  },
  "http-invalid-tool-headers": invalidToolHeaders,
  // SEP-2106: listing a tool whose schema has a network $ref must not fetch it.
  "json-schema-ref-no-deref": (b) => register(b),
  "json-schema-2020-12-preservation": schemaPreservation,
};

/**
 * The auth/* scenarios where toolgate must refuse, with the step of the flow that refuses
 * (error code auth-failed, its auth.step): the client passes when toolgate refuses there.
 */
const MUST_REFUSE = {
  // the resource metadata names another resource than the server
  "auth/resource-mismatch": "discovery",
  // the authorization server's metadata names another issuer than the one it was fetched for
  "auth/metadata-issuer-mismatch": "discovery",
  // the redirect's iss is missing though advertised, wrong, unexpected and wrong, or a normalized variant
  "auth/iss-supported-missing": "authorization",
  "auth/iss-wrong-issuer": "authorization",
  "auth/iss-unexpected": "authorization",
  "auth/iss-normalized": "authorization",
  // every token is refused 403 insufficient_scope: toolgate stops after three flows
  "auth/scope-retry-limit": "step-up",
};

/**
 * The auth provider of an auth/* scenario, as a user gives one: the runner's context for the
 * grants without a user, else the authorization code grant whose "user" fetches the authorization
 * URL without following its redirect and returns the redirect's URL whole (code, state, iss), as
 * the runner's own example client does.
 */
function authProvider() {
  switch (context.name) {
    case "auth/client-credentials-basic":
      return { clientCredentials: { clientId: context.client_id, clientSecret: context.client_secret } };
    case "auth/client-credentials-jwt":
      return { clientCredentials: { clientId: context.client_id, privateKey: context.private_key_pem, algorithm: context.signing_algorithm } };
    case "auth/enterprise-managed-authorization":
      return {
        crossApp: {
          idpTokenEndpoint: context.idp_token_endpoint, idToken: context.idp_id_token, idpClientId: context.idp_client_id,
          clientId: context.client_id, clientSecret: context.client_secret,
        },
      };
    // workload identity (SEP-1933): the workload's JWT as the JWT bearer grant's assertion
    case "auth/wif-jwt-bearer":
      return { workloadIdentity: { clientId: context.client_id, assertion: context.valid_jwt } };
  }
  const redirectUrl = "http://localhost:3000/callback";
  return {
    redirectUrl,
    clientMetadata: { client_name: "toolgate-conformance", redirect_uris: [redirectUrl] },
    clientMetadataUrl: "https://conformance-test.local/client-metadata.json",
    ...(context.name === "auth/pre-registration" ? { clientId: context.client_id, clientSecret: context.client_secret } : {}),
    redirectToAuthorization: async (authUrl) => {
      const res = await fetch(authUrl, { redirect: "manual" });
      const location = res.headers.get("location");
      if (!location) throw new Error(`no redirect from the authorization endpoint (HTTP ${res.status})`);
      return location;
    },
  };
}

/** An auth/* scenario: register with the provider, then call the server's one tool (test-tool). */
async function authorized(b) {
  await register(b, { auth: authProvider() });
  await call(b, "test-tool");
}

/** An auth/* scenario that toolgate must refuse: passes on auth-failed at the step that must refuse, fails on anything else. */
async function refused(b) {
  const step = MUST_REFUSE[scenario];
  try {
    await authorized(b);
  } catch (e) {
    if (e?.code !== "auth-failed" || e.auth?.step !== step) throw e;
    console.log(`refused as it must be: ${e.code} (${e.auth.step}): ${e.message}`);
    return;
  }
  throw new Error(`toolgate went through where it must refuse (at ${step})`);
}

function planFor(name) {
  if (SCENARIOS[name]) return SCENARIOS[name];
  if (MUST_REFUSE[name]) return refused;
  if (name.startsWith("auth/")) return authorized;
  return undefined;
}

const run = planFor(scenario);
if (!run) {
  console.error(`no plan for scenario "${scenario}"`);
  process.exit(1);
}
const tg = await initialize();
let failed = false;
try {
  await run(tg.branch());
} catch (e) {
  console.error(`${scenario}: ${e?.code ?? ""} ${e?.message ?? e}`);
  failed = true;
} finally {
  await tg.mcp.cleanup();
}
// The Go instance keeps a JS timer pending: exit instead of waiting for it.
process.exit(failed ? 1 : 0);
