// What an MCP failure means for a person in a browser: a policy refusal with its rule, an OAuth
// step that failed, an HTTP status, or a fetch the browser refused (CORS or an unreachable server)
// with the headers a server must send for a page on this origin (mcp-cors.js).
import { el, errorLine } from "./ui.js";
import { corsHint } from "./mcp-cors.js";

/** True when e is a fetch the browser gave up on: no HTTP status, "Failed to fetch" or the like. */
export function isFetchFailure(e) {
  if (!e || e.transport) return false;
  const text = `${e.message || ""} ${e.cause?.message || ""}`;
  return (e.code === "transport" || e.name === "TypeError") && /Failed to fetch|NetworkError|Load failed|network|ERR_/i.test(text);
}

/** The issues of an invalid-arguments error: where, which keyword, what. */
function issueList(issues) {
  return el("ul", { class: "mcp-issues" }, issues.map((i) => el("li", {}, el("code", {}, i.path || "(the arguments)"), i.keyword ? [" ", el("span", { class: "badge" }, i.keyword)] : "", ` ${i.message}`)));
}

/**
 * A failure of `what` ("Could not connect to \"docs\"") as an error block: the message (toolgate's
 * messages quote no header value or token), then what it likely means. cors is the CORS hint's
 * context (mcp-cors.js: the era, the Mcp-Param-* headers, the config's header names).
 */
export function failureView(what, e, { oauth = false, cors = {} } = {}) {
  const box = el("div", { class: "verdict bad mcp-failure", role: "alert" }, el("p", {}, el("strong", {}, `${what}: `), errorLine(e)));
  const more = [];
  if (Array.isArray(e?.issues) && e.issues.length) more.push(issueList(e.issues));
  if (e?.code === "policy-denied") {
    more.push(el("p", {}, "The policy refused it by rule ", el("code", { class: "mcp-rule" }, e.rule || "?"), ". Change the policy above (it is fail-closed: nothing is allowed until you allow it)."));
  } else if (e?.code === "auth-failed") {
    const { step, oauthError } = e.auth ?? {};
    more.push(el("p", {}, "The OAuth flow failed at step ", el("code", {}, step || "?"), oauthError ? [" (", el("code", {}, oauthError), ")"] : "", "."));
  } else if (e?.transport?.httpStatus === 401 || e?.transport?.httpStatus === 403) {
    more.push(el("p", {}, oauth ? "The server refused the authorization." : "The server requires authorization: tick \"uses OAuth\" or add an Authorization header."));
  } else if (isFetchFailure(e)) {
    more.push(corsHint(cors));
  }
  box.append(...more);
  return box;
}
