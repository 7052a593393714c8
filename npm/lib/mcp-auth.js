// The MCP `auth` option (full build): one provider object per server, its data sent to Go as JSON
// and its functions reached through one host function (a dispatcher) that keeps in memory what the
// provider does not store itself. Node and browser. The flow runs in Go (mcp/oauth, docs/oauth.md).
import { ToolgateError, describe } from "./errors.js";
import { isPkcs8Pem, signJws } from "./jws.js";
import { dpopKeys } from "./dpop.js";

/** The provider keys; an object with any of them is one provider (a loader's map has none). */
const PROVIDER_KEYS = new Set([
  "redirectUrl", "clientMetadata", "clientMetadataUrl", "clientId", "clientSecret", "clientIssuer", "scope", "clientCredentials",
  "crossApp", "workloadIdentity", "dpop", "tokens", "saveTokens", "clientInformation", "saveClientInformation", "redirectToAuthorization",
]);
const FUNCTION_KEYS = ["tokens", "saveTokens", "clientInformation", "saveClientInformation", "redirectToAuthorization"];

/** One dispatcher per provider object, so Go gets one host function number (the pool's identity) for it. */
const dispatchers = new WeakMap();

/** Refuses a provider member of the wrong type. */
function checkProvider(p, call) {
  if (p === null || typeof p !== "object" || Array.isArray(p)) {
    throw new ToolgateError("unsupported-type", `${call}: option auth must be an auth provider object, got ${describe(p)}`);
  }
  for (const k of Object.keys(p)) {
    if (!PROVIDER_KEYS.has(k)) throw new ToolgateError("unsupported-type", `${call}: option auth has an unknown key ${JSON.stringify(k)}`);
  }
  for (const k of FUNCTION_KEYS) {
    if (p[k] !== undefined && typeof p[k] !== "function") {
      throw new ToolgateError("unsupported-type", `${call}: auth.${k} must be a function, got ${describe(p[k])}`);
    }
  }
  for (const k of ["redirectUrl", "clientMetadataUrl", "clientId", "clientSecret", "clientIssuer", "scope"]) {
    if (p[k] !== undefined && typeof p[k] !== "string") {
      throw new ToolgateError("unsupported-type", `${call}: auth.${k} must be a string, got ${describe(p[k])}`);
    }
  }
  if (p.dpop !== undefined && p.dpop !== "auto" && p.dpop !== true && p.dpop !== false) {
    throw new ToolgateError("unsupported-type", `${call}: auth.dpop must be "auto", true or false, got ${describe(p.dpop)}`);
  }
  checkWorkloadIdentity(p.workloadIdentity, call);
  const grants = ["clientCredentials", "crossApp", "workloadIdentity"].filter((k) => p[k] !== undefined);
  if (grants.length > 1) {
    throw new ToolgateError("unsupported-type", `${call}: option auth may select one grant, got ${grants.join(" and ")}`);
  }
  const key = p.clientCredentials?.privateKey;
  if (key !== undefined && !isPkcs8Pem(key)) {
    throw new ToolgateError("unsupported-type",
      `${call}: auth.clientCredentials.privateKey must be a PKCS#8 PEM private key ("-----BEGIN PRIVATE KEY-----"; convert another with openssl pkcs8 -topk8 -nocrypt)`);
  }
}

/** Refuses a workloadIdentity that is not {assertion: string | function, clientId?: string}. */
function checkWorkloadIdentity(w, call) {
  if (w === undefined) return;
  if (w === null || typeof w !== "object" || Array.isArray(w)) {
    throw new ToolgateError("unsupported-type", `${call}: auth.workloadIdentity must be {assertion, clientId?}, got ${describe(w)}`);
  }
  for (const k of Object.keys(w)) {
    if (k !== "assertion" && k !== "clientId") {
      throw new ToolgateError("unsupported-type", `${call}: auth.workloadIdentity has an unknown key ${JSON.stringify(k)}`);
    }
  }
  if (typeof w.assertion !== "string" && typeof w.assertion !== "function") {
    throw new ToolgateError("unsupported-type",
      `${call}: auth.workloadIdentity.assertion must be the workload's JWT (a string) or a function returning it, got ${describe(w.assertion)}`);
  }
  if (w.clientId !== undefined && typeof w.clientId !== "string") {
    throw new ToolgateError("unsupported-type", `${call}: auth.workloadIdentity.clientId must be a string, got ${describe(w.clientId)}`);
  }
}

/** workloadIdentity as Go reads it: a function stays in JS (the dispatcher's "assertion" op calls it). */
function workloadIdentityJSON(w) {
  const out = w.clientId === undefined ? {} : { clientId: w.clientId };
  if (typeof w.assertion === "function") out.fetch = true;
  else out.assertion = w.assertion;
  return out;
}

/** clientCredentials as Go reads it: the private key stays in JS (the dispatcher's "sign" op signs with it). */
function clientCredentialsJSON(cc) {
  if (cc === null || typeof cc !== "object" || cc.privateKey === undefined) return cc;
  const { privateKey: _key, ...rest } = cc;
  return { ...rest, signer: true };
}

/**
 * The authorization response of what redirectToAuthorization returned: a redirect URL, an object
 * ({code, state, iss} or {error, error_description, state, iss}), or a bare code. Go checks it
 * (iss first, RFC 9207; then the error, the state and the code: docs/oauth-tokens.md).
 */
export function redirectResult(value, authUrl) {
  if (value === undefined || value === null) return null;
  if (value instanceof URL) value = value.href;
  if (typeof value === "string") {
    const u = urlOrNull(value);
    if (u && (u.searchParams.has("code") || u.searchParams.has("error"))) return paramsResult(u.searchParams);
    // A bare code: the application vouches it came from the redirect of this request (it has no iss).
    return { code: value, state: new URL(authUrl).searchParams.get("state") ?? "" };
  }
  const r = objectResult(value, "redirectToAuthorization");
  if (r) return r;
  throw new ToolgateError("unsupported-type", `redirectToAuthorization must return the redirect URL, {code, state, iss} or nothing, got ${describe(value)}`);
}

function urlOrNull(s) {
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

/** The authorization response of a redirect's query: iss only when it is there (an empty one is there). */
function paramsResult(q) {
  const r = q.has("error")
    ? { error: q.get("error"), error_description: q.get("error_description") ?? undefined }
    : { code: q.get("code") ?? "", state: q.get("state") ?? "" };
  if (q.has("state")) r.state = q.get("state");
  if (q.has("iss")) r.iss = q.get("iss");
  return r;
}

/** The authorization response of an object {code, state, iss} or {error, error_description, state, iss}; null for another shape. */
function objectResult(v, call) {
  if (typeof v !== "object") return null;
  let r;
  if (typeof v.code === "string") r = { code: v.code, state: typeof v.state === "string" ? v.state : "" };
  else if (typeof v.error === "string") r = { error: v.error, error_description: typeof v.error_description === "string" ? v.error_description : undefined };
  else return null;
  if (typeof v.state === "string") r.state = v.state;
  if (typeof v.iss === "string") r.iss = v.iss;
  else if (v.iss !== undefined && v.iss !== null) throw new ToolgateError("unsupported-type", `${call}: iss must be a string, got ${describe(v.iss)}`);
  return r;
}

/** The dispatcher of provider p: Go's requests {op, …} answered by p's functions, or memory. */
function dispatcher(p) {
  let d = dispatchers.get(p);
  if (d) return d;
  const mem = { tokens: undefined, clients: new Map() };
  const dpop = dpopKeys(); // this provider's DPoP keys, in WebCrypto; only thumbprints and proofs leave
  d = async (req, { signal } = {}) => {
    switch (req?.op) {
      case "tokens":
        return (p.tokens ? await p.tokens() : mem.tokens) ?? null;
      case "saveTokens":
        mem.tokens = req.tokens ?? undefined;
        if (p.saveTokens) await p.saveTokens(req.tokens);
        return null;
      case "clientInformation":
        return (p.clientInformation ? await p.clientInformation(req.issuer) : mem.clients.get(req.issuer)) ?? null;
      case "saveClientInformation":
        mem.clients.set(req.issuer, req.info);
        if (p.saveClientInformation) await p.saveClientInformation(req.info, req.issuer);
        return null;
      case "sign": // a private_key_jwt client assertion, signed with WebCrypto (jws.js)
        return signJws(p.clientCredentials.privateKey, req.alg ?? "", req.typ ?? "JWT", JSON.stringify(req.claims));
      case "assertion": // workload identity: the platform's JWT, fetched for this token request
        return (await p.workloadIdentity.assertion()) ?? null;
      case "dpopKey": // a new DPoP key (a fresh grant): its thumbprint
        return dpop.newKey();
      case "dpopProof": // a DPoP proof of the claims Go built, signed with the key of that thumbprint
        return dpop.proof(req.key, JSON.stringify(req.claims));
      case "dpopForget": // the tokens bound to that key were replaced by a new grant's
        dpop.forget(req.key);
        return null;
      case "authorize":
        if (!p.redirectToAuthorization) return null;
        return redirectResult(await p.redirectToAuthorization(new URL(req.url), { signal }), req.url);
    }
    return null;
  };
  dispatchers.set(p, d);
  return d;
}

/** One provider as Go reads it: its data, and fn, its dispatcher's host function number. */
function providerJSON(ctx, p, call) {
  checkProvider(p, call);
  const out = { fn: ctx.inst.hostFunction(dispatcher(p), "auth provider") };
  for (const k of ["redirectUrl", "clientMetadata", "clientMetadataUrl", "clientId", "clientSecret", "clientIssuer", "scope", "clientCredentials", "crossApp"]) {
    if (p[k] !== undefined) out[k] = p[k] instanceof URL ? p[k].href : p[k];
  }
  if (out.clientCredentials !== undefined) out.clientCredentials = clientCredentialsJSON(out.clientCredentials);
  if (p.workloadIdentity !== undefined) out.workloadIdentity = workloadIdentityJSON(p.workloadIdentity);
  if (p.dpop !== undefined) out.dpop = p.dpop === true ? "require" : p.dpop === false ? "off" : "auto";
  return out;
}

/** registerMcpServer's auth option as Go reads it (undefined: none). */
export function authOption(ctx, auth, call) {
  if (auth === undefined || auth === null) return undefined;
  return providerJSON(ctx, auth, call);
}

/** A loader's auth option: one provider for every server ({"*": provider}), or {server: provider}. */
export function authMapOption(ctx, auth, call) {
  if (auth === undefined || auth === null) return undefined;
  if (typeof auth !== "object" || Array.isArray(auth)) {
    throw new ToolgateError("unsupported-type", `${call}: option auth must be an auth provider or {server: provider}, got ${describe(auth)}`);
  }
  const keys = Object.keys(auth);
  if (keys.length === 0 || keys.some((k) => PROVIDER_KEYS.has(k))) return { "*": providerJSON(ctx, auth, call) };
  const out = {};
  for (const [server, p] of Object.entries(auth)) out[server] = providerJSON(ctx, p, `${call}: auth[${JSON.stringify(server)}]`);
  return out;
}

/**
 * tg.mcp.finishAuth(server, redirect): completes the authorization of `server` that waits for its
 * redirect (its call failed auth-failed, auth.step "authorization", because redirectToAuthorization
 * returned nothing). `redirect` is the URL the authorization server redirected to, or
 * {code, state, iss} ({error, error_description, state, iss} for an error response): Go checks its
 * iss, then its error, its state and its code, before the code is redeemed.
 */
export async function finishAuth(ctx, op, server, redirect) {
  if (typeof server !== "string") throw new ToolgateError("unsupported-type", `mcp.finishAuth: server must be a string, got ${describe(server)}`);
  let r = null;
  if (typeof redirect === "string" || redirect instanceof URL) {
    const u = urlOrNull(String(redirect));
    if (u) r = paramsResult(u.searchParams);
  } else if (redirect && typeof redirect === "object") {
    r = objectResult(redirect, "mcp.finishAuth");
  }
  if (!r) throw new ToolgateError("unsupported-type", `mcp.finishAuth: redirect must be the redirect URL or {code, state, iss}, got ${describe(redirect)}`);
  await ctx.inst.callAsync(op, 0, JSON.stringify({ server, ...r }));
}
