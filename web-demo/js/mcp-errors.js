// What an MCP failure means for a person in a browser: a policy refusal with its rule, an OAuth
// step that failed, an HTTP status, or a fetch the browser refused (CORS or an unreachable server)
// with the headers a server must send for a page on this origin.
import { el, errorLine, copyButton } from "./ui.js";

/** The headers a server must answer a page on `origin` with (and its preflight), as [name, value]. */
export function corsHeaders(origin = location.origin) {
  return [
    ["Access-Control-Allow-Origin", origin],
    ["Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS"],
    ["Access-Control-Allow-Headers", "content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id"],
    ["Access-Control-Expose-Headers", "mcp-session-id"],
  ];
}

/** True when e is a fetch the browser gave up on: no HTTP status, "Failed to fetch" or the like. */
export function isFetchFailure(e) {
  if (!e || e.httpStatus || e.rpcCode) return false;
  const text = `${e.message || ""} ${e.cause?.message || ""}`;
  return (e.code === "transport" || e.name === "TypeError") && /Failed to fetch|NetworkError|Load failed|network|ERR_/i.test(text);
}

/** The CORS hint: the likely causes and the headers list (for a page on this origin). */
export function corsHint() {
  return el("div", { class: "mcp-cors", id: "mcp-cors-hint" },
    el("p", {}, el("strong", {}, "The browser could not reach the server."), " The likely cause is CORS (the server does not allow pages from ",
      el("code", {}, location.origin), ") or a server that is not running at this URL. A browser refuses to tell a page which of the two it was."),
    el("p", {}, "A server that browser pages connect to must answer every request, and the OPTIONS preflight, with:"),
    el("ul", { class: "mcp-cors-headers" }, corsHeaders().map(([k, v]) => el("li", {}, el("code", {}, `${k}: ${v}`)))),
    el("div", { class: "row" }, copyButton(() => corsHeaders().map(([k, v]) => `${k}: ${v}`).join("\n"), "the CORS headers", "Copy the headers")),
    el("p", { class: "hint" }, "Servers used from pages of any origin may send Access-Control-Allow-Origin: *. Custom headers you add here must be in Access-Control-Allow-Headers too."));
}

/** The issues of an invalid-arguments error: where, which keyword, what. */
function issueList(issues) {
  return el("ul", { class: "mcp-issues" }, issues.map((i) => el("li", {}, el("code", {}, i.path || "(the arguments)"), i.keyword ? [" ", el("span", { class: "badge" }, i.keyword)] : "", ` ${i.message}`)));
}

/**
 * A failure of `what` ("Could not connect to \"docs\"") as an error block: the message (toolgate's
 * messages quote no header value or token), then what it likely means.
 */
export function failureView(what, e, { oauth = false } = {}) {
  const box = el("div", { class: "verdict bad mcp-failure", role: "alert" }, el("p", {}, el("strong", {}, `${what}: `), errorLine(e)));
  const more = [];
  if (Array.isArray(e?.issues) && e.issues.length) more.push(issueList(e.issues));
  if (e?.code === "policy-denied") {
    more.push(el("p", {}, "The policy refused it by rule ", el("code", { class: "mcp-rule" }, e.rule || "?"), ". Change the policy above (it is fail-closed: nothing is allowed until you allow it)."));
  } else if (e?.code === "auth-failed") {
    more.push(el("p", {}, "The OAuth flow failed at step ", el("code", {}, e.authStep || "?"), e.oauthError ? [" (", el("code", {}, e.oauthError), ")"] : "", "."));
  } else if (e?.httpStatus === 401 || e?.httpStatus === 403) {
    more.push(el("p", {}, oauth ? "The server refused the authorization." : "The server requires authorization: tick \"uses OAuth\" or add an Authorization header."));
  } else if (isFetchFailure(e)) {
    more.push(corsHint());
  }
  box.append(...more);
  return box;
}
