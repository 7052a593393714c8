// Package oauth is the MCP authorization flow (spec revision 2025-11-25,
// with the 2025-03-26 fallbacks) for toolgate's MCP client: discovery of
// the protected resource's metadata (RFC 9728) and of its authorization
// server's (RFC 8414, OpenID discovery), client registration (pre-registered
// credentials, a Client ID Metadata Document, dynamic registration per RFC
// 7591), the authorization code grant with PKCE S256 and the resource
// parameter (RFC 8707), the token endpoint's client authentication
// (client_secret_basic, client_secret_post, none), refresh, step-up on
// insufficient_scope, and the client-credentials, cross-app-access and
// workload-identity (RFC 7523 JWT bearer) extensions (docs/oauth.md). Of revision 2026-07-28 it does the client's
// duties: the authorization response's iss compared with the recorded
// issuer before the code is used (RFC 9207, redirect.go), the
// application_type of dynamic registration (registration_apptype.go),
// registrations and tokens bound to the authorization server that issued
// them (flow_binding.go), and a step-up that keeps the scope granted.
//
// It is pure Go: no syscall/js, no net/http. Every request goes through a
// Client (client.go), whose Send checks each URL against the caller's
// policy before anything is sent and never follows a redirect; the mcp
// package builds it from the registration's Security. Secrets (tokens,
// codes, verifiers, client secrets, private keys) never appear in an
// error: every error is an *Error (errors.go) whose message went through
// the flow's redaction.
package oauth
