// A local DPoP world (RFC 9449) for the MCP DPoP tests (node:http on 127.0.0.1): an authorization
// server whose token endpoint verifies the DPoP proof with node:crypto and binds the token to the
// proof's key (or issues a Bearer token to a request without one), and an MCP server that takes
// those tokens with the DPoP scheme and a fresh proof of the bound key (ath, htm, htu, jti never
// reused). Either may demand a nonce (use_dpop_nonce). Tokens carry PLANTED so tests can look for
// them where they must never be. Every proof the servers received is kept in `state.proofs`.
import { createHash, createPublicKey, verify } from "node:crypto";

import { json, listen } from "./oauth-servers.mjs";

export const PLANTED = "tgdpopplanted";

const b64url = (buf) => Buffer.from(buf).toString("base64url");
const sha256 = (s) => createHash("sha256").update(s).digest();

/** The RFC 7638 thumbprint of an EC public JWK. */
export function thumbprint(jwk) {
  return b64url(sha256(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })));
}

/**
 * A DPoP proof checked as RFC 9449 §4.3 asks: {ok: true, claims, jkt, header} or {ok: false, why}.
 * htm and htu must be the request's; the signature verifies with the header's public JWK.
 */
export function checkProof(proof, htm, htu) {
  if (typeof proof !== "string" || proof.split(".").length !== 3) return { ok: false, why: "not a compact JWS" };
  const [h, c, s] = proof.split(".");
  let header, claims;
  try {
    header = JSON.parse(Buffer.from(h, "base64url"));
    claims = JSON.parse(Buffer.from(c, "base64url"));
  } catch {
    return { ok: false, why: "not JSON" };
  }
  if (header.typ !== "dpop+jwt" || header.alg !== "ES256") return { ok: false, why: "typ or alg" };
  const jwk = header.jwk;
  if (!jwk || jwk.d !== undefined || Object.keys(jwk).sort().join() !== "crv,kty,x,y") return { ok: false, why: "jwk is not a bare public key" };
  const key = createPublicKey({ key: jwk, format: "jwk" });
  if (!verify("sha256", Buffer.from(`${h}.${c}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(s, "base64url"))) {
    return { ok: false, why: "signature" };
  }
  if (typeof claims.jti !== "string" || claims.htm !== htm || claims.htu !== htu) return { ok: false, why: `claims ${JSON.stringify(claims)}` };
  if (Math.abs(Date.now() / 1000 - claims.iat) > 60) return { ok: false, why: "iat" };
  return { ok: true, claims, header, jkt: thumbprint(jwk) };
}

/** The token endpoint: a code (any) or a refresh token, with the proof checked and the nonce asked for. */
function token(state, as, req, res, body) {
  const form = new URLSearchParams(body);
  const proof = req.headers.dpop;
  state.tokenRequests.push({ grant: form.get("grant_type"), proof });
  let jkt;
  if (proof !== undefined) {
    state.proofs.push(proof);
    const p = checkProof(proof, "POST", `${as.origin}/token`);
    if (!p.ok) return json(res, 400, { error: "invalid_dpop_proof", error_description: p.why });
    if (state.asNonce === "rotate") {
      return json(res, 400, { error: "use_dpop_nonce" }, { "DPoP-Nonce": `as-nonce-${state.tokenRequests.length}` });
    }
    if (state.asNonce && p.claims.nonce !== state.asNonce) {
      return json(res, 400, { error: "use_dpop_nonce" }, { "DPoP-Nonce": state.asNonce });
    }
    jkt = p.jkt;
  }
  if (form.get("grant_type") === "refresh_token") {
    const bound = state.refresh.get(form.get("refresh_token"));
    if (bound === undefined || (bound !== null && bound !== jkt)) return json(res, 400, { error: "invalid_grant" });
  } else if (form.get("grant_type") !== "authorization_code") {
    return json(res, 400, { error: "unsupported_grant_type" });
  }
  const n = ++state.issued;
  const t = { access_token: `at-${PLANTED}-${n}`, refresh_token: `rt-${PLANTED}-${n}`, expires_in: 3600, token_type: jkt ? "DPoP" : "Bearer" };
  state.valid.set(t.access_token, jkt ?? null);
  state.refresh.set(t.refresh_token, jkt ?? null);
  json(res, 200, t);
}

/** The MCP server's check of a request's Authorization: null when it passes, else the answer. */
function resourceCheck(state, mcp, req) {
  const auth = req.headers.authorization ?? "";
  const [scheme, tok] = auth.split(" ");
  state.mcpSchemes.push(scheme);
  const meta = `resource_metadata="${mcp.origin}/.well-known/oauth-protected-resource/mcp"`;
  const bound = state.valid.get(tok);
  if (bound === undefined) return [401, { "WWW-Authenticate": `DPoP ${meta}, Bearer ${meta}` }];
  if (bound === null) return scheme === "Bearer" ? null : [401, { "WWW-Authenticate": `Bearer error="invalid_token", ${meta}` }];
  if (scheme !== "DPoP") return [401, { "WWW-Authenticate": `DPoP error="invalid_token", ${meta}` }];
  state.proofs.push(req.headers.dpop);
  const p = checkProof(req.headers.dpop, req.method, `${mcp.origin}/mcp`);
  const bad = !p.ok ? p.why : p.jkt !== bound ? "key" : p.claims.ath !== b64url(sha256(tok)) ? "ath" : state.jtis.has(p.claims.jti) ? "jti reused" : "";
  if (bad) {
    state.badProofs.push(bad);
    return [401, { "WWW-Authenticate": `DPoP error="invalid_dpop_proof", ${meta}` }];
  }
  state.jtis.add(p.claims.jti);
  if (state.rsNonce && p.claims.nonce !== state.rsNonce) {
    state.rsNonceChallenges++;
    return [401, { "WWW-Authenticate": `DPoP error="use_dpop_nonce", ${meta}`, "DPoP-Nonce": state.rsNonce }];
  }
  return null;
}

function rpc(msg) {
  switch (msg.method) {
    case "initialize":
      return { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "dpop-test", version: "1" } };
    case "tools/list":
      return { tools: [{ name: "read", description: "read something", inputSchema: { type: "object" } }] };
    case "tools/call":
      return { content: [{ type: "text", text: "read done" }] };
  }
  return {};
}

/**
 * Starts both servers; resolves to {url, tokenEndpoint, state, close}. state.dpopAlgs is the metadata's
 * dpop_signing_alg_values_supported (undefined: left out); state.asNonce and state.rsNonce, when
 * set, are the nonces each server demands ("rotate": the token endpoint asks for a new one every time).
 */
export async function startDPoPWorld() {
  const state = {
    dpopAlgs: ["ES256"], asNonce: undefined, rsNonce: undefined, issued: 0, valid: new Map(), refresh: new Map(),
    tokenRequests: [], proofs: [], mcpSchemes: [], badProofs: [], jtis: new Set(), rsNonceChallenges: 0,
  };
  const as = await listen((req, res, body) => {
    const u = new URL(req.url, "http://x");
    if (u.pathname === "/.well-known/oauth-authorization-server") {
      return json(res, 200, {
        issuer: as.origin, authorization_endpoint: `${as.origin}/authorize`, token_endpoint: `${as.origin}/token`,
        registration_endpoint: `${as.origin}/register`, response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"], code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"], authorization_response_iss_parameter_supported: true,
        ...(state.dpopAlgs ? { dpop_signing_alg_values_supported: state.dpopAlgs } : {}),
      });
    }
    if (u.pathname === "/register") return json(res, 201, { ...JSON.parse(body), client_id: "dpop-client", token_endpoint_auth_method: "none" });
    if (u.pathname === "/authorize") {
      const back = new URL(u.searchParams.get("redirect_uri"));
      back.searchParams.set("code", `code-${PLANTED}`);
      back.searchParams.set("state", u.searchParams.get("state"));
      back.searchParams.set("iss", as.origin);
      res.writeHead(302, { Location: back.href });
      return res.end();
    }
    if (u.pathname === "/token" && req.method === "POST") return token(state, as, req, res, body);
    json(res, 404, {});
  });
  const mcp = await listen((req, res, body) => {
    const u = new URL(req.url, "http://x");
    if (u.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json(res, 200, { resource: `${mcp.origin}/mcp`, authorization_servers: [as.origin] });
    }
    if (u.pathname !== "/mcp") return json(res, 404, {});
    if (req.method !== "POST") return json(res, 405, {});
    const refused = resourceCheck(state, mcp, req);
    if (refused) return json(res, refused[0], { error: "unauthorized" }, refused[1]);
    const msg = JSON.parse(body);
    if (msg.id === undefined) {
      res.writeHead(202);
      return res.end();
    }
    json(res, 200, { jsonrpc: "2.0", id: msg.id, result: rpc(msg) });
  });
  return { url: `${mcp.origin}/mcp`, tokenEndpoint: `${as.origin}/token`, state, close: () => Promise.all([as.close(), mcp.close()]) };
}
