// A local OAuth world for the MCP OAuth tests (node:http on 127.0.0.1): an authorization server
// (metadata, dynamic registration, /authorize redirecting at once with a code and, as RFC 9207
// asks, its issuer in iss; /token for the code with PKCE S256, for refresh tokens, and for the JWT
// bearer grant of workload identity when a test says how to judge its assertions) and an MCP
// server that requires its Bearer tokens
// (401 with resource_metadata, 403 insufficient_scope for the tool "write" without scope "write").
// Tokens carry PLANTED so tests can look for them where they must never be.
import http from "node:http";
import { createHash } from "node:crypto";

export const PLANTED = "tgoauthplanted";

/** CORS for the browser test: the page is on another origin than both servers. */
const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
  "Access-Control-Allow-Headers": "authorization, content-type, accept, mcp-protocol-version, mcp-session-id, last-event-id",
  "Access-Control-Expose-Headers": "www-authenticate, mcp-session-id, location",
};

/** A node:http server on 127.0.0.1 with the request body read; resolves to {origin, close}. */
export function listen(handler) {
  const server = http.createServer((req, res) => {
    for (const [k, v] of Object.entries(CORS)) res.setHeader(k, v);
    if (req.method === "OPTIONS") {
      res.writeHead(204);
      return res.end();
    }
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (body += d));
    req.on("end", () => handler(req, res, body));
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        close: () => new Promise((r) => { server.closeAllConnections(); server.close(r); }),
      });
    });
  });
}

/** Answers status with value as JSON. */
export function json(res, status, value, headers = {}) {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(value));
}

/** The authorization server; `state` counts what happened and lets tests change its metadata. */
async function startAuthServer(state) {
  const codes = new Map();
  const as = await listen((req, res, body) => {
    const u = new URL(req.url, "http://x");
    if (u.pathname === "/.well-known/oauth-authorization-server") {
      state.metadataReads++;
      return json(res, 200, {
        issuer: as.origin,
        authorization_endpoint: `${as.origin}/authorize`,
        token_endpoint: state.tokenEndpoint ?? `${as.origin}/token`,
        registration_endpoint: `${as.origin}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
        ...(state.issSupported === undefined ? {} : { authorization_response_iss_parameter_supported: state.issSupported }),
      });
    }
    if (u.pathname === "/register" && req.method === "POST") {
      state.registrations++;
      const meta = JSON.parse(body);
      return json(res, 201, { ...meta, client_id: `${state.clientPrefix}-${state.registrations}`, token_endpoint_auth_method: "none" });
    }
    if (u.pathname === "/authorize") {
      state.authorizations.push(u.searchParams.get("scope") ?? "");
      state.authorizeClients.push(u.searchParams.get("client_id"));
      const code = `code-${PLANTED}-${state.authorizations.length}`;
      codes.set(code, { challenge: u.searchParams.get("code_challenge"), scope: u.searchParams.get("scope") ?? "" });
      const back = new URL(u.searchParams.get("redirect_uri"));
      back.searchParams.set("code", code);
      back.searchParams.set("state", u.searchParams.get("state"));
      const iss = state.redirectIss ? state.redirectIss(as.origin) : as.origin;
      if (iss !== null) back.searchParams.set("iss", iss);
      res.writeHead(302, { Location: back.href });
      return res.end();
    }
    if (u.pathname === "/token" && req.method === "POST") {
      state.tokenRequests++;
      return token(state, codes, new URLSearchParams(body), res);
    }
    if (u.pathname === "/callback") {
      // The redirect page of the browser test's popup: it hands its URL to the page that opened it.
      res.writeHead(200, { "Content-Type": "text/html" });
      return res.end("<!doctype html><script>opener.postMessage(location.href, '*')</script>");
    }
    json(res, 404, { error: "not_found" });
  });
  return as;
}

export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";

/**
 * The token endpoint: a code (its verifier checked against the challenge), a refresh token, or a
 * JWT bearer grant (workload identity), which `state.judgeAssertion(form)` judges: an OAuth error
 * object refuses it, nothing accepts it (no judge: unsupported_grant_type).
 */
function token(state, codes, form, res) {
  state.grants.push(Object.fromEntries(form));
  const issue = (scope) => {
    const n = ++state.issued;
    const t = { access_token: `at-${PLANTED}-${n}`, token_type: "Bearer", expires_in: 3600, refresh_token: `rt-${PLANTED}-${n}`, scope };
    state.valid.set(t.access_token, scope);
    state.refresh.set(t.refresh_token, scope);
    return t;
  };
  if (form.get("grant_type") === "authorization_code") {
    const c = codes.get(form.get("code"));
    const verifier = form.get("code_verifier") ?? "";
    if (!c || createHash("sha256").update(verifier).digest("base64url") !== c.challenge) {
      return json(res, 400, { error: "invalid_grant", error_description: `bad code ${form.get("code")} or verifier ${verifier}` });
    }
    codes.delete(form.get("code"));
    return json(res, 200, issue(c.scope));
  }
  if (form.get("grant_type") === "refresh_token") {
    state.refreshes++;
    const scope = state.refresh.get(form.get("refresh_token"));
    if (scope === undefined) return json(res, 400, { error: "invalid_grant", error_description: `unknown ${form.get("refresh_token")}` });
    return json(res, 200, issue(scope));
  }
  if (form.get("grant_type") === JWT_BEARER && state.judgeAssertion) {
    const refused = state.judgeAssertion(form);
    return refused ? json(res, 400, refused) : json(res, 200, issue(form.get("scope") ?? ""));
  }
  json(res, 400, { error: "unsupported_grant_type" });
}

/** The MCP server's JSON-RPC answers: two tools, read and write. */
function rpc(msg) {
  switch (msg.method) {
    case "initialize":
      return { protocolVersion: "2025-11-25", capabilities: { tools: {} }, serverInfo: { name: "oauth-test", version: "1" } };
    case "tools/list":
      return { tools: ["read", "write"].map((name) => ({ name, description: `${name} something`, inputSchema: { type: "object" } })) };
    case "tools/call":
      return { content: [{ type: "text", text: `${msg.params.name} done` }] };
  }
  return {};
}

/** The MCP server at /mcp requiring the authorization server's tokens. */
async function startMcpServer(state) {
  const mcp = await listen((req, res, body) => {
    const u = new URL(req.url, "http://x");
    if (u.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json(res, 200, { resource: `${mcp.origin}/mcp`, authorization_servers: [state.issuer], scopes_supported: ["read"] });
    }
    if (u.pathname !== "/mcp") return json(res, 404, {});
    if (req.method !== "POST") return json(res, 405, {});
    state.mcpAuthorizations.push(req.headers.authorization ?? "");
    const msg = JSON.parse(body);
    const tok = (req.headers.authorization ?? "").replace(/^Bearer /, "");
    const scope = state.valid.get(tok);
    const meta = `resource_metadata="${mcp.origin}/.well-known/oauth-protected-resource/mcp"`;
    if (scope === undefined) return json(res, 401, { error: "invalid_token" }, { "WWW-Authenticate": `Bearer ${meta}, scope="read"` });
    if (msg.method === "tools/call" && msg.params?.name === "write" && !scope.split(" ").includes("write")) {
      return json(res, 403, { error: "insufficient_scope" }, { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="read write", ${meta}` });
    }
    if (msg.id === undefined) {
      res.writeHead(202);
      return res.end();
    }
    json(res, 200, { jsonrpc: "2.0", id: msg.id, result: rpc(msg) });
  });
  return mcp;
}

/**
 * What one authorization server counts and how it behaves; its tokens go to the shared maps.
 * `grants` is every token request's form, in order.
 */
function authState(prefix, valid, refresh) {
  return {
    clientPrefix: prefix, metadataReads: 0, registrations: 0, authorizations: [], authorizeClients: [], issued: 0,
    refreshes: 0, tokenRequests: 0, valid, refresh, tokenEndpoint: undefined, issSupported: true, redirectIss: undefined,
    grants: [], judgeAssertion: undefined,
  };
}

/**
 * Starts both servers; resolves to {url, as, state, addAuthServer, close}. `state.issSupported` is
 * the metadata's authorization_response_iss_parameter_supported (undefined: left out);
 * `state.redirectIss(issuer)` is the redirect's iss (null: none; by default the issuer);
 * `state.issuer` is the authorization server the MCP server's metadata names. addAuthServer(prefix)
 * starts another authorization server whose tokens the MCP server accepts too: {as, state}.
 */
export async function startOAuthWorld() {
  const state = { ...authState("client", new Map(), new Map()), mcpAuthorizations: [], issuer: "" };
  const as = await startAuthServer(state);
  state.issuer = as.origin;
  const mcp = await startMcpServer(state);
  const more = [];
  const addAuthServer = async (prefix) => {
    const other = authState(prefix, state.valid, state.refresh);
    const server = await startAuthServer(other);
    more.push(server);
    return { as: server, state: other };
  };
  const close = () => Promise.all([as.close(), mcp.close(), ...more.map((m) => m.close())]);
  return { url: `${mcp.origin}/mcp`, mcpOrigin: mcp.origin, as, state, addAuthServer, close };
}

/** What a user's redirectToAuthorization does in a script: follow the authorization URL by hand, return the redirect. */
export async function followRedirect(url) {
  const res = await fetch(url, { redirect: "manual" });
  return res.headers.get("location");
}
