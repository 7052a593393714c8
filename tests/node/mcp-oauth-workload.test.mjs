// Workload identity through the packed package (auth.workloadIdentity, docs/oauth.md): the
// workload's platform JWT sent as the assertion of the JWT bearer grant (RFC 7523) to a local
// authorization server (oauth-servers.mjs) that judges it as the conformance suite's
// auth/wif-jwt-bearer does: a JWT of another audience or an expired one is invalid_grant, a client
// it does not allow unauthorized_client. Each refusal is auth-failed after one token request, with
// no retry and no other grant; a function assertion is asked again for each token request; the
// JWT is never in an error, a record or anything printed.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { startOAuthWorld, JWT_BEARER, PLANTED } from "./oauth-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
/** Compact JWTs as a platform hands them out; PLANTED marks them, so a test finds them where they must never be. */
const jwt = (what) => `eyJhbGciOiJFUzI1NiJ9.${PLANTED}${what}.c2ln`;
const VALID = jwt("valid");

/** The authorization server's verdict on a JWT bearer grant, as auth/wif-jwt-bearer gives it. */
function judge(form) {
  const a = form.get("assertion") ?? "";
  if (form.get("client_id") === "not-allowed") return { error: "unauthorized_client", error_description: "Client not authorized for JWT-bearer grant" };
  if (a.includes("wrongaud")) return { error: "invalid_grant", error_description: `JWT assertion audience is invalid: ${a}` };
  if (a.includes("expired")) return { error: "invalid_grant", error_description: `JWT assertion is expired: ${a}` };
  if (!a.includes("valid")) return { error: "invalid_grant", error_description: "JWT assertion verification failed" };
  return undefined;
}

/** Everything the process prints while fn runs, as text (and fn's result). */
async function printed(fn) {
  const out = [];
  const writes = [process.stdout.write, process.stderr.write];
  const keep = (orig) => function (chunk, ...rest) {
    out.push(String(chunk));
    return orig.call(this, chunk, ...rest);
  };
  process.stdout.write = keep(writes[0]);
  process.stderr.write = keep(writes[1]);
  try {
    return { value: await fn(), text: out.join("") };
  } finally {
    [process.stdout.write, process.stderr.write] = writes;
  }
}

async function refusal(promise) {
  try {
    await promise;
  } catch (e) {
    assert.ok(tg.ToolgateError.isInstance(e), `got ${e}`);
    const text = JSON.stringify({ ...e, message: e.message, cause: String(e.cause ?? "") });
    assert.ok(!text.includes(PLANTED), `the error quotes the assertion: ${text}`);
    return e;
  }
  assert.fail("the registration succeeded");
}

describe("MCP OAuth: workload identity (JWT bearer grant)", () => {
  let world;
  before(async () => {
    world = await startOAuthWorld();
    world.state.judgeAssertion = judge;
  });
  after(async () => {
    await tg.mcp.cleanup();
    await world.close();
  });

  test("the workload's JWT is the grant's assertion: no user, no registration, and the token is used", async () => {
    const from = world.state.grants.length;
    const b = tg.branch();
    const { value: names, text } = await printed(() =>
      b.registerMcpServer({ name: "wl", url: world.url }, { security: LOOPBACK, auth: { workloadIdentity: { clientId: "my-workload", assertion: VALID } } }));
    assert.deepEqual(names, ["mcp__wl__read", "mcp__wl__write"]);
    assert.deepEqual(world.state.grants.slice(from), [
      { grant_type: JWT_BEARER, assertion: VALID, client_id: "my-workload", scope: "read", resource: world.url },
    ]);
    assert.equal(world.state.registrations, 0);
    assert.deepEqual(world.state.authorizations, []);
    const fc = await b.invoke({ function: "mcp__wl__read", arguments: {} });
    assert.equal(fc.status, "completed");
    assert.ok(!JSON.stringify(fc.toDict()).includes(PLANTED), "the call's record quotes the assertion or a token");
    assert.ok(!text.includes(PLANTED), "the assertion was printed");
  });

  const refusals = [
    ["a JWT for another audience", { assertion: jwt("wrongaud") }, "invalid_grant"],
    ["an expired JWT", { assertion: jwt("expired") }, "invalid_grant"],
    ["a client the server does not allow", { assertion: VALID, clientId: "not-allowed" }, "unauthorized_client"],
  ];
  for (const [name, workloadIdentity, oauthError] of refusals) {
    test(`${name} is auth-failed after one token request: no retry, no other grant`, async () => {
      const from = world.state.grants.length;
      let calls = 0;
      const fetched = { ...workloadIdentity, assertion: () => (calls++, workloadIdentity.assertion) };
      const { value: e, text } = await printed(() =>
        refusal(tg.branch().registerMcpServer({ name: "wl-refused", url: world.url }, { security: LOOPBACK, auth: { workloadIdentity: fetched } })));
      assert.equal(e.code, "auth-failed");
      assert.equal(e.auth?.step, "token");
      assert.equal(e.auth?.oauthError, oauthError);
      const sent = world.state.grants.slice(from);
      assert.equal(sent.length, 1, `token requests: ${JSON.stringify(sent.map((g) => g.grant_type))}`);
      assert.equal(sent[0].grant_type, JWT_BEARER);
      assert.equal(calls, 1, "the assertion was fetched again for a retry");
      assert.ok(!text.includes(PLANTED), "the assertion was printed");
      await tg.mcp.cleanup();
    });
  }

  test("a function assertion is asked before each token request: a token the server forgot gets a fresh JWT", async () => {
    const from = world.state.grants.length;
    let calls = 0;
    const auth = { workloadIdentity: { assertion: async () => jwt(`valid${++calls}`) } };
    const b = tg.branch();
    await b.registerMcpServer({ name: "wl-fresh", url: world.url }, { security: LOOPBACK, auth });
    assert.equal(calls, 1);
    const first = world.state.grants.at(-1);
    world.state.valid.delete(world.state.mcpAuthorizations.at(-1).replace(/^Bearer /, "")); // the server forgets the token
    const fc = await b.invoke({ function: "mcp__wl-fresh__read", arguments: {} });
    assert.equal(fc.status, "completed", JSON.stringify(fc.error));
    assert.equal(calls, 2);
    const sent = world.state.grants.slice(from);
    assert.deepEqual(sent.map((g) => [g.grant_type, g.assertion, g.client_id]), [
      [JWT_BEARER, jwt("valid1"), undefined],
      [JWT_BEARER, jwt("valid2"), undefined],
    ]);
    assert.equal(first.assertion, jwt("valid1"));
    assert.equal(world.state.refreshes, 0, "a refresh token was used instead of a fresh JWT");
  });

  test("an assertion function that throws or answers no JWT is auth-failed before anything is sent, quoting nothing", async () => {
    const cases = [
      [() => { throw new Error(`platform said ${VALID} is revoked`); }, /function failed/],
      [() => 42, /a number, not a string/],
      [() => `opaque-${PLANTED}`, /not a compact JWT/],
    ];
    for (const [assertion, message] of cases) {
      const from = world.state.grants.length;
      const e = await refusal(tg.branch().registerMcpServer({ name: "wl-bad", url: world.url }, { security: LOOPBACK, auth: { workloadIdentity: { assertion } } }));
      assert.equal(e.code, "auth-failed");
      assert.equal(e.auth?.step, "token");
      assert.match(e.message, message);
      assert.equal(world.state.grants.length, from, "a token request was sent");
      await tg.mcp.cleanup();
    }
  });

  test("workloadIdentity is checked when registered: its keys, the assertion's type, one grant only", async () => {
    const cases = [
      [{ workloadIdentity: { assertion: VALID, clientSecret: "s" } }, /unknown key "clientSecret"/],
      [{ workloadIdentity: { assertion: 1 } }, /assertion must be/],
      [{ workloadIdentity: { assertion: VALID, clientId: 7 } }, /clientId must be a string/],
      [{ workloadIdentity: VALID }, /workloadIdentity must be/],
      [{ workloadIdentity: { assertion: VALID }, clientCredentials: { clientId: "c", clientSecret: "s" } }, /one grant/],
    ];
    for (const [auth, message] of cases) {
      const e = await refusal(tg.branch().registerMcpServer({ name: "wl-shape", url: world.url }, { security: LOOPBACK, auth }));
      assert.equal(e.code, "unsupported-type");
      assert.match(e.message, message);
    }
  });
});
