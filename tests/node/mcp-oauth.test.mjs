// MCP OAuth through the packed package, against a local authorization server and an MCP server
// that requires its Bearer tokens (oauth-servers.mjs): the authorization code grant with dynamic
// registration and PKCE, tokens kept with the provider's saveTokens and used again through its
// tokens(), refresh instead of a new authorization, step-up on 403 insufficient_scope, a redirect
// finished later with tg.mcp.finishAuth, the redirect's iss checked against the authorization
// server's issuer (RFC 9207) on both paths, the URL policy over every URL of the flow (an
// allowlist that does not name the token endpoint's origin, a private address), and no token or
// code in any error or record.
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { startOAuthWorld, followRedirect, PLANTED } from "./oauth-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const REDIRECT = "http://localhost:8765/callback";

/** A provider that stores in `store` and whose user follows the redirect by hand. */
function provider(store, extra = {}) {
  return {
    redirectUrl: REDIRECT,
    clientMetadata: { client_name: "toolgate-test" },
    tokens: () => store.tokens,
    saveTokens: (t) => {
      store.tokens = t;
      store.saved = (store.saved ?? 0) + 1;
    },
    clientInformation: () => store.client,
    saveClientInformation: (ci) => {
      store.client = ci;
    },
    redirectToAuthorization: async (url) => {
      store.redirects = (store.redirects ?? 0) + 1;
      return followRedirect(url);
    },
    ...extra,
  };
}

/** Fails when `text` holds a token, a refresh token or a code the servers planted. */
function noSecrets(text, what) {
  assert.ok(!String(text).includes(PLANTED), `${what} quotes a secret: ${text}`);
}

async function refusal(promise) {
  try {
    await promise;
  } catch (e) {
    assert.ok(tg.ToolgateError.isInstance(e), `got ${e}`);
    noSecrets(JSON.stringify({ ...e, message: e.message }), "the error");
    return e;
  }
  assert.fail("the call succeeded");
}

describe("MCP OAuth", () => {
  let world;
  before(async () => {
    world = await startOAuthWorld();
  });
  after(async () => {
    await tg.mcp.cleanup();
    await world.close();
  });

  test("the code flow registers, authorizes with PKCE, stores the tokens and calls with the Bearer", async () => {
    const store = {};
    const b = tg.branch();
    const names = await b.registerMcpServer({ name: "docs", url: world.url }, { security: LOOPBACK, auth: provider(store) });
    assert.deepEqual(names, ["mcp__docs__read", "mcp__docs__write"]);
    assert.equal(store.redirects, 1);
    assert.equal(world.state.registrations, 1);
    assert.match(store.tokens.access_token, /^at-/);
    assert.match(store.client.client_id, /^client-/);
    assert.deepEqual(world.state.authorizations, ["read"]);
    const fc = await b.invoke({ function: "mcp__docs__read", arguments: {} });
    assert.equal(fc.status, "completed");
    assert.equal(fc.response, "read done");
    noSecrets(JSON.stringify(fc.toDict ? fc.toDict() : fc), "the call's record");
  });

  test("stored tokens are used again without asking the user (persistence through tokens())", async () => {
    const first = {};
    await tg.branch().registerMcpServer({ name: "keep", url: world.url }, { security: LOOPBACK, auth: provider(first) });
    const again = { tokens: first.tokens, client: first.client };
    await tg.mcp.cleanup();
    const names = await tg.branch().registerMcpServer({ name: "keep", url: world.url }, { security: LOOPBACK, auth: provider(again) });
    assert.equal(names.length, 2);
    assert.equal(again.redirects, undefined, "the user was asked again");
  });

  test("a rejected access token is refreshed before a new authorization", async () => {
    const store = {};
    const b = tg.branch();
    await b.registerMcpServer({ name: "fresh", url: world.url }, { security: LOOPBACK, auth: provider(store) });
    world.state.valid.delete(store.tokens.access_token); // the server forgets it
    const refreshes = world.state.refreshes;
    const fc = await b.invoke({ function: "mcp__fresh__read", arguments: {} });
    assert.equal(fc.status, "completed");
    assert.equal(world.state.refreshes, refreshes + 1);
    assert.equal(store.redirects, 1, "a refresh must not ask the user");
  });

  test("403 insufficient_scope steps up with the challenge's scope", async () => {
    const store = {};
    const b = tg.branch();
    await b.registerMcpServer({ name: "up", url: world.url }, { security: LOOPBACK, auth: provider(store) });
    const before = world.state.authorizations.length;
    const fc = await b.invoke({ function: "mcp__up__write", arguments: {} });
    assert.equal(fc.status, "completed", JSON.stringify(fc.error));
    assert.deepEqual(world.state.authorizations.slice(before), ["read write"]);
    assert.equal(store.tokens.scope, "read write");
  });

  test("a redirect the provider cannot wait for is finished later with tg.mcp.finishAuth", async () => {
    let pendingUrl;
    const store = {};
    const auth = provider(store, { redirectToAuthorization: (url) => void (pendingUrl = url) });
    const e = await refusal(tg.branch().registerMcpServer({ name: "later", url: world.url }, { security: LOOPBACK, auth }));
    assert.equal(e.code, "auth-failed");
    assert.equal(e.auth?.step, "authorization");
    assert.match(e.message, /finishAuth/);
    const back = await followRedirect(pendingUrl);
    const forged = new URL(back);
    forged.searchParams.set("state", "forged");
    const bad = await refusal(tg.mcp.finishAuth("later", forged.href));
    assert.equal(bad.code, "auth-failed");
    await tg.mcp.finishAuth("later", back);
    assert.match(store.tokens.access_token, /^at-/);
    const names = await tg.branch().registerMcpServer({ name: "later", url: world.url }, { security: LOOPBACK, auth });
    assert.equal(names.length, 2);
  });

  test("the redirect's iss must be the authorization server's issuer, exactly (RFC 9207), before the code is used", async () => {
    const cases = [
      ["another issuer", () => "https://evil.example.com"],
      ["the issuer with a trailing slash", (issuer) => `${issuer}/`],
      ["none, from a server that says it always sends one", () => null],
    ];
    try {
      for (const [what, iss] of cases) {
        world.state.redirectIss = iss;
        const tokenRequests = world.state.tokenRequests;
        const store = {};
        const e = await refusal(tg.branch().registerMcpServer({ name: "mixup", url: world.url }, { security: LOOPBACK, auth: provider(store) }));
        assert.equal(e.code, "auth-failed", what);
        assert.equal(e.auth?.step, "authorization", what);
        assert.equal(world.state.tokenRequests, tokenRequests, `${what}: the code went to the token endpoint`);
        assert.equal(store.tokens, undefined, what);
        await tg.mcp.cleanup();
      }
    } finally {
      world.state.redirectIss = undefined;
    }
  });

  test("iss travels in a {code, state, iss} answer; the same answer without it is refused where the server promised one", async () => {
    const asObject = (withIss) => async (url) => {
      const back = new URL(await followRedirect(url));
      const r = { code: back.searchParams.get("code"), state: back.searchParams.get("state") };
      return withIss ? { ...r, iss: back.searchParams.get("iss") } : r;
    };
    const e = await refusal(tg.branch().registerMcpServer({ name: "object", url: world.url },
      { security: LOOPBACK, auth: provider({}, { redirectToAuthorization: asObject(false) }) }));
    assert.equal(e.auth?.step, "authorization");
    await tg.mcp.cleanup();
    world.state.issSupported = undefined; // a server that does not say so: no iss is taken
    try {
      const names = await tg.branch().registerMcpServer({ name: "object", url: world.url },
        { security: LOOPBACK, auth: provider({}, { redirectToAuthorization: asObject(false) }) });
      assert.equal(names.length, 2);
    } finally {
      world.state.issSupported = true;
    }
    await tg.mcp.cleanup();
    const names = await tg.branch().registerMcpServer({ name: "object", url: world.url },
      { security: LOOPBACK, auth: provider({}, { redirectToAuthorization: asObject(true) }) });
    assert.equal(names.length, 2);
  });

  test("tg.mcp.finishAuth checks the redirect's iss, even of an error response, and keeps waiting for the right one", async () => {
    let pendingUrl;
    const store = {};
    const auth = provider(store, { redirectToAuthorization: (url) => void (pendingUrl = url) });
    await refusal(tg.branch().registerMcpServer({ name: "mixlater", url: world.url }, { security: LOOPBACK, auth }));
    const back = new URL(await followRedirect(pendingUrl));
    const tokenRequests = world.state.tokenRequests;
    const wrong = new URL(back);
    wrong.searchParams.set("iss", "https://evil.example.com");
    const missing = new URL(back);
    missing.searchParams.delete("iss");
    const denied = new URL(wrong);
    denied.searchParams.delete("code");
    denied.searchParams.set("error", "access_denied");
    denied.searchParams.set("error_description", `sent by ${PLANTED}`);
    for (const redirect of [wrong.href, missing.href, denied, { code: back.searchParams.get("code"), state: back.searchParams.get("state"), iss: "" }]) {
      const e = await refusal(tg.mcp.finishAuth("mixlater", redirect));
      assert.equal(e.code, "auth-failed");
      assert.equal(e.auth?.step, "authorization");
      assert.equal(e.auth?.oauthError, undefined, "an error response of the wrong issuer is acted on");
      assert.ok(!e.message.includes("access_denied"), e.message);
    }
    assert.equal(world.state.tokenRequests, tokenRequests, "a refused redirect's code went to the token endpoint");
    await tg.mcp.finishAuth("mixlater", { code: back.searchParams.get("code"), state: back.searchParams.get("state"), iss: back.searchParams.get("iss") });
    assert.match(store.tokens.access_token, /^at-/);
  });

  test("a resource that moves to another authorization server gets a new registration there, and nothing of the old one", async () => {
    const { as: as2, state: s2 } = await world.addAuthServer("as2-client");
    const store = {}; // provider() keeps one registration whatever the issuer: the stamp tells them apart
    const b = tg.branch();
    await b.registerMcpServer({ name: "moving", url: world.url }, { security: LOOPBACK, auth: provider(store) });
    assert.equal(store.client.issuer, world.as.origin);
    assert.equal(store.tokens.issuer, world.as.origin);
    world.state.issuer = as2.origin;
    world.state.valid.delete(store.tokens.access_token); // the MCP server no longer takes the old server's token
    try {
      const fc = await b.invoke({ function: "mcp__moving__read", arguments: {} });
      assert.equal(fc.status, "completed", JSON.stringify(fc.error));
    } finally {
      world.state.issuer = world.as.origin;
    }
    assert.equal(s2.registrations, 1, "no registration at the new authorization server");
    assert.ok(s2.authorizeClients.every((id) => id.startsWith("as2-client-")), `the new server saw ${s2.authorizeClients}`);
    assert.equal(s2.refreshes, 0, "the old server's refresh token went to the new one");
    assert.equal(store.client.issuer, as2.origin);
    assert.equal(store.tokens.issuer, as2.origin);
  });

  test("a pre-registered client is sent only to the authorization server clientIssuer names", async () => {
    const authorizations = world.state.authorizeClients.length;
    const elsewhere = provider({}, { clientId: "pre-client", clientIssuer: "https://other-as.example" });
    const e = await refusal(tg.branch().registerMcpServer({ name: "pre", url: world.url }, { security: LOOPBACK, auth: elsewhere }));
    assert.equal(e.code, "auth-failed");
    assert.equal(e.auth?.step, "registration");
    assert.equal(world.state.authorizeClients.length, authorizations, "the client id went to the authorization server");
    await tg.mcp.cleanup();
    const here = provider({}, { clientId: "pre-client", clientIssuer: world.as.origin });
    await tg.branch().registerMcpServer({ name: "pre", url: world.url }, { security: LOOPBACK, auth: here });
    assert.deepEqual(world.state.authorizeClients.slice(authorizations), ["pre-client"]);
    await assert.rejects(
      tg.branch().registerMcpServer({ name: "pre2", url: world.url }, { security: LOOPBACK, auth: { ...here, clientIssuer: 1 } }),
      (err) => err.code === "unsupported-type",
    );
  });

  test("the policy covers the flow: an allowlist without the authorization server's origin refuses it", async () => {
    const security = { ...LOOPBACK, urlAllowlist: [new URL(world.url).host] };
    const e = await refusal(tg.branch().registerMcpServer({ name: "walled", url: world.url }, { security, auth: provider({}) }));
    assert.equal(e.code, "policy-denied");
    assert.equal(e.rule, "allowlist");
  });

  test("a token endpoint on a private address is refused before anything is sent to it", async () => {
    world.state.tokenEndpoint = "https://10.1.2.3/token";
    try {
      const e = await refusal(tg.branch().registerMcpServer({ name: "private", url: world.url }, { security: LOOPBACK, auth: provider({}) }));
      assert.equal(e.code, "policy-denied", e.message);
      assert.match(e.message, /10\.1\.2\.3/);
      assert.notEqual(e.rule, "scheme");
    } finally {
      world.state.tokenEndpoint = undefined;
    }
  });

  test("a refused token request is auth-failed with the server's OAuth error, and quotes no code or verifier", async () => {
    const store = {};
    const auth = provider(store, {
      // a code the authorization server never issued (it quotes it back in error_description)
      redirectToAuthorization: async (url) => ({ code: `code-${PLANTED}-forged`, state: url.searchParams.get("state"), iss: world.as.origin }),
    });
    const e = await refusal(tg.branch().registerMcpServer({ name: "bad", url: world.url }, { security: LOOPBACK, auth }));
    assert.equal(e.code, "auth-failed");
    assert.equal(e.auth?.step, "token");
    assert.equal(e.auth?.oauthError, "invalid_grant");
    assert.equal(store.tokens, undefined);
  });

  test("every request to the MCP server with a token carried one the authorization server issued", () => {
    for (const h of world.state.mcpAuthorizations) {
      if (h) assert.match(h, /^Bearer at-/);
    }
  });
});
