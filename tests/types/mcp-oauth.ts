// The MCP auth option under strict: one provider object with data and storage functions on
// registerMcpServer, one provider or a map on the loaders, tg.mcp.finishAuth, and the auth-failed
// error's fields.
import { initialize, ToolgateError, type McpAuthProvider, type McpWorkloadIdentity, type McpOAuthTokens, type AuthStep, type AuthDetail } from "toolgate";

declare function openPopup(url: URL, signal: AbortSignal): Promise<string>;

async function main(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  let stored: McpOAuthTokens | undefined;
  const auth: McpAuthProvider = {
    redirectUrl: "http://localhost:8765/callback",
    clientMetadata: { client_name: "types" },
    scope: "read",
    tokens: () => stored,
    saveTokens: (t) => {
      stored = t;
    },
    redirectToAuthorization: (url, { signal }) => openPopup(url, signal),
  };
  await b.registerMcpServer({ name: "docs", url: "https://mcp.example.com/mcp" }, { security: tg.mcp.trusted(), auth });
  await b.loadMcpConfig({ mcpServers: {} }, { security: tg.mcp.trusted(), auth: { docs: auth } });
  await tg.loadMcpTools({ mcpServers: {} }, { security: tg.mcp.trusted(), auth: { clientCredentials: { clientId: "svc", clientSecret: "s" } } });
  await tg.mcp.finishAuth("docs", "http://localhost:8765/callback?code=c&state=s");
  await tg.mcp.finishAuth("docs", { code: "c", state: "s" });
  await tg.mcp.finishAuth("docs", { code: "c", state: "s", iss: "https://as.example" });
  await tg.mcp.finishAuth("docs", { error: "access_denied", state: "s", iss: "https://as.example" });
  // @ts-expect-error iss is the redirect's parameter as a string
  await tg.mcp.finishAuth("docs", { code: "c", state: "s", iss: 1 });
  const popup: McpAuthProvider = {
    redirectToAuthorization: async (url) => {
      const back = new URL(await openPopup(url, new AbortController().signal));
      const iss = back.searchParams.get("iss");
      return { code: back.searchParams.get("code") ?? "", state: back.searchParams.get("state") ?? "", ...(iss === null ? {} : { iss }) };
    },
  };
  void popup;
  const preRegistered: McpAuthProvider = { clientId: "pre", clientSecret: "s", clientIssuer: "https://as.example" };
  void preRegistered;
  // workload identity: a JWT as it is, or a function fetching a fresh one for each token request
  const workload: McpWorkloadIdentity = { clientId: "my-workload", assertion: async () => "eyJ.eyJ.sig" };
  await b.registerMcpServer({ name: "w", url: "https://w.example/mcp" }, { security: tg.mcp.trusted(), auth: { workloadIdentity: workload, scope: "mcp:tools" } });
  await tg.loadMcpTools({ mcpServers: {} }, { security: tg.mcp.trusted(), auth: { workloadIdentity: { assertion: "eyJ.eyJ.sig" } } });
  // @ts-expect-error the assertion is the JWT (a string) or a function returning it
  const badWorkload: McpWorkloadIdentity = { assertion: 42 };
  void badWorkload;
  const dpop: McpAuthProvider[] = [{ dpop: "auto" }, { dpop: true }, { dpop: false }];
  const jkt: string | undefined = stored?.token_type === "DPoP" ? stored.dpop_jkt : undefined;
  void [dpop, jkt];
  try {
    await b.registerMcpServer({ name: "x", url: "https://x.example/mcp" }, { security: tg.mcp.trusted(), auth: {} });
  } catch (e) {
    if (e instanceof ToolgateError && e.code === "auth-failed") {
      const detail: AuthDetail | undefined = e.auth;
      const step: AuthStep | undefined = e.auth?.step;
      const said: string | undefined = e.auth?.oauthError ?? e.auth?.oauthErrorDescription;
      const old: AuthStep | undefined = e.authStep;
      void [detail, step, said, old];
    }
  }
}
void main;
