// Package redact is where toolgate removes secrets: from URLs, from MCP
// server configs on their way into records, and from message text that may
// echo a configured secret. Core (records, schema messages) and mcp (policy
// messages, server errors, config records) both call it, so one rule set
// answers "what is a secret and what becomes of it":
//
//   - a URL keeps its scheme, host, port and the path segments that name the
//     endpoint; its userinfo becomes Mark ("https://[redacted]@host/"), so
//     does every path segment that is a secret (PathSecret: 32 bytes or
//     more, or 16 or more with anything but lower-case letters, "-", "_"
//     and ".": "/mcp/[redacted]/sse"), and every value of its query and
//     fragment becomes Mark with the names kept ("?key=[redacted]&[redacted]");
//   - in a config, every value under a "headers" or "env" key, and the value
//     of any key that names a secret (token, secret, password, authorization,
//     api key, cookie, credential, private key), becomes Mark; URLs are
//     redacted as above, and command-line items ("--token=x", "NAME=x", the
//     item after "--token") lose their values;
//   - in text, every known secret (header values and their long parts, env
//     values, a URL's userinfo, query, fragment and secret path segments, the
//     URL split by hand so that one that does not parse counts too) becomes
//     Mark, also where JSON or Go quoting escaped it; Cut and Quote redact
//     the whole text before they cut or quote it.
//
// Redacting twice gives the same result. It imports only the standard
// library.
package redact

// Mark replaces every secret.
const Mark = "[redacted]"
