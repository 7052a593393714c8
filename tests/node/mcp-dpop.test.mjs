// DPoP (RFC 9449) through the packed package, against a local authorization server and MCP server
// that verify every proof with node:crypto (dpop-servers.mjs): proofs on the token requests and on
// every MCP request with the DPoP scheme, the nonces of both servers, a new key for each new
// authorization and the same key for a refresh, the `dpop` option's three values, and the private
// key nowhere: not extractable, and neither it nor the token nor a proof in any error, record or
// count.
import { test, describe, before, after, beforeEach } from "node:test";
import assert from "node:assert/strict";
import { tg } from "./helpers.mjs";
import { startDPoPWorld, checkProof, PLANTED } from "./dpop-servers.mjs";

const LOOPBACK = Object.freeze({ allowUrls: true, allowLoopbackHttp: true });
const debug = tg[Symbol.for("toolgate.debug")];

/** A provider storing in `store`, whose user follows the redirect at once. */
function provider(store, extra = {}) {
  return {
    redirectUrl: "http://localhost:8765/callback",
    clientMetadata: { client_name: "toolgate-dpop-test" },
    tokens: () => store.tokens,
    saveTokens: (t) => void (store.tokens = t),
    redirectToAuthorization: async (url) => {
      store.redirects = (store.redirects ?? 0) + 1;
      const res = await fetch(url, { redirect: "manual" });
      return res.headers.get("location");
    },
    ...extra,
  };
}

async function refusal(promise) {
  try {
    await promise;
  } catch (e) {
    assert.ok(tg.ToolgateError.isInstance(e), `got ${e}`);
    return e;
  }
  assert.fail("the call succeeded");
}

describe("MCP DPoP", () => {
  let world;
  /** The token requests made since index `from`, their proofs checked ({grant, proof, p}). */
  const tokenRequests = (from) =>
    world.state.tokenRequests.slice(from).map((r) => ({ ...r, p: r.proof === undefined ? undefined : checkProof(r.proof, "POST", world.tokenEndpoint) }));

  before(async () => {
    world = await startDPoPWorld();
  });
  beforeEach(() => {
    Object.assign(world.state, { dpopAlgs: ["ES256"], asNonce: undefined, rsNonce: undefined });
  });
  after(async () => {
    await tg.mcp.cleanup();
    await world.close();
  });

  test("by default a server advertising ES256 gets proofs on the token request and on every MCP request, each nonce asked for once", async () => {
    Object.assign(world.state, { asNonce: "as-nonce-1", rsNonce: "rs-nonce-1" });
    const store = {};
    const b = tg.branch();
    const from = world.state.tokenRequests.length;
    const schemes = world.state.mcpSchemes.length;
    const challenges = world.state.rsNonceChallenges;
    await b.registerMcpServer({ name: "bound", url: world.url }, { security: LOOPBACK, auth: provider(store) });
    const fc = await b.invoke({ function: "mcp__bound__read", arguments: {} });
    assert.equal(fc.status, "completed", JSON.stringify(fc.error));
    const reqs = tokenRequests(from);
    assert.equal(reqs.length, 2, "one token request, sent again once with the authorization server's nonce");
    assert.ok(reqs.every((r) => r.p?.ok), JSON.stringify(reqs.map((r) => r.p)));
    assert.deepEqual(reqs.map((r) => r.p.claims.nonce), [undefined, "as-nonce-1"]);
    assert.notEqual(reqs[0].p.claims.jti, reqs[1].p.claims.jti);
    assert.equal(store.tokens.token_type, "DPoP");
    assert.equal(store.tokens.dpop_jkt, reqs[1].p.jkt, "the stored tokens name the key they are bound to");
    assert.equal(world.state.rsNonceChallenges - challenges, 1, "the MCP server's nonce is asked for once, then remembered");
    assert.deepEqual(world.state.badProofs, []);
    const sent = world.state.mcpSchemes.slice(schemes).filter(Boolean);
    assert.ok(sent.length >= 3 && sent.every((s) => s === "DPoP"), `schemes ${sent}`);
  });

  test("a refresh proves the tokens' key; a new authorization makes a new key", async () => {
    const store = {};
    const b = tg.branch();
    const from = world.state.tokenRequests.length;
    await b.registerMcpServer({ name: "keys", url: world.url }, { security: LOOPBACK, auth: provider(store) });
    const first = store.tokens;
    world.state.valid.delete(first.access_token); // the server forgets the access token: a refresh
    assert.equal((await b.invoke({ function: "mcp__keys__read", arguments: {} })).status, "completed");
    const refreshed = store.tokens;
    assert.equal(refreshed.dpop_jkt, first.dpop_jkt);
    world.state.valid.delete(refreshed.access_token); // and now the refresh token too: a new authorization
    world.state.refresh.delete(refreshed.refresh_token);
    assert.equal((await b.invoke({ function: "mcp__keys__read", arguments: {} })).status, "completed");
    assert.notEqual(store.tokens.dpop_jkt, first.dpop_jkt, "a new authorization binds a new key");
    const reqs = tokenRequests(from);
    assert.deepEqual(reqs.map((r) => r.grant), ["authorization_code", "refresh_token", "refresh_token", "authorization_code"]);
    assert.deepEqual(reqs.map((r) => r.p.jkt), [first.dpop_jkt, first.dpop_jkt, first.dpop_jkt, store.tokens.dpop_jkt]);
    assert.equal(store.redirects, 2);
  });

  test("dpop: false sends Bearer tokens; dpop: true refuses a server that does not advertise ES256; another value is refused", async () => {
    const off = {};
    const from = world.state.tokenRequests.length;
    const b = tg.branch();
    await b.registerMcpServer({ name: "off", url: world.url }, { security: LOOPBACK, auth: provider(off, { dpop: false }) });
    assert.equal(off.tokens.token_type, "Bearer");
    assert.equal(tokenRequests(from)[0].proof, undefined);
    assert.equal((await b.invoke({ function: "mcp__off__read", arguments: {} })).status, "completed");

    world.state.dpopAlgs = undefined;
    const auto = {};
    await tg.branch().registerMcpServer({ name: "auto", url: world.url }, { security: LOOPBACK, auth: provider(auto) });
    assert.equal(auto.tokens.token_type, "Bearer", "auto uses Bearer where the server advertises no DPoP");

    const required = {};
    const before = world.state.tokenRequests.length;
    const e = await refusal(tg.branch().registerMcpServer({ name: "req", url: world.url }, { security: LOOPBACK, auth: provider(required, { dpop: true }) }));
    assert.equal(e.code, "auth-failed");
    assert.equal(e.auth?.step, "discovery");
    assert.equal(world.state.tokenRequests.length, before, "nothing was sent to the token endpoint");
    assert.equal(required.redirects, undefined, "the user was not asked");

    const bad = await refusal(tg.branch().registerMcpServer({ name: "bad", url: world.url }, { security: LOOPBACK, auth: provider({}, { dpop: "yes" }) }));
    assert.equal(bad.code, "unsupported-type");
  });

  test("the private key is not extractable, and no key, token or proof appears in an error, a record or a count", async () => {
    const made = [];
    const subtle = globalThis.crypto.subtle;
    const generateKey = subtle.generateKey;
    subtle.generateKey = async function (...args) {
      const pair = await generateKey.apply(this, args);
      made.push(pair);
      return pair;
    };
    let fc, failed, err, branch;
    const store = {};
    try {
      Object.assign(world.state, { rsNonce: "rs-nonce-2" });
      const b = (branch = tg.branch());
      await b.registerMcpServer({ name: "planted", url: world.url }, { security: LOOPBACK, auth: provider(store) });
      fc = await b.invoke({ function: "mcp__planted__read", arguments: {} });
      assert.equal(fc.status, "completed");
      world.state.asNonce = "rotate"; // and a refusal: the token endpoint keeps asking for a new nonce
      world.state.valid.delete(store.tokens.access_token);
      const from = world.state.tokenRequests.length;
      failed = await b.invoke({ function: "mcp__planted__read", arguments: {} });
      assert.equal(failed.status, "failed");
      err = failed.error;
      assert.equal(err.code, "auth-failed");
      assert.equal(err.auth?.oauthError, "use_dpop_nonce");
      assert.deepEqual(world.state.tokenRequests.slice(from).map((r) => r.grant),
        ["refresh_token", "refresh_token", "authorization_code", "authorization_code"], "one nonce retry per token request");
    } finally {
      subtle.generateKey = generateKey;
    }
    assert.ok(made.length >= 1, "no DPoP key was made through WebCrypto");
    for (const { privateKey } of made) {
      assert.equal(privateKey.extractable, false);
      await assert.rejects(subtle.exportKey("jwk", privateKey), "the DPoP private key could be exported");
      await assert.rejects(subtle.exportKey("pkcs8", privateKey));
    }
    const seen = [
      JSON.stringify(fc.toDict()), JSON.stringify(fc.toDict("db")), JSON.stringify(fc), JSON.stringify(failed.toDict()),
      JSON.stringify(err), String(err?.message),
      JSON.stringify(debug.mcpStats()), JSON.stringify(branch), JSON.stringify(tg.toProvider(branch, "openai-chat")),
    ].join("\n");
    assert.ok(!/"d"\s*:/.test(seen), "a JWK private member appears");
    assert.ok(!seen.includes(PLANTED), "a token or a code appears");
    for (const proof of world.state.proofs) assert.ok(!seen.includes(proof.split(".")[2]), "a proof appears");
  });
});
