// The CORS hint: what a server must answer a page on this origin with for toolgate's requests to
// get through, for the era in use (docs/mcp-eras.md, "Browsers and CORS"; docs/mcp-headers.md).
import { el, copyButton } from "./ui.js";

/** Names once each, compared ignoring case (header names), in order. */
function unique(names) {
  const seen = new Map();
  for (const n of names) if (!seen.has(n.toLowerCase())) seen.set(n.toLowerCase(), n);
  return [...seen.values()];
}

/**
 * The headers a server must answer a page on origin with (and its preflight), as [name, value].
 * era: "modern", "legacy" or undefined (not known: both eras' headers); params: the Mcp-Param-*
 * headers the server's tools make toolgate send; sent: the header names the config adds.
 */
export function corsHeaders({ era, params = [], sent = [] } = {}, origin = location.origin) {
  const allow = ["Content-Type", "Accept", "Authorization", "MCP-Protocol-Version"];
  if (era !== "legacy") allow.push("Mcp-Method", "Mcp-Name");
  // a legacy session's id, and the resumption of a broken stream
  if (era !== "modern") allow.push("Mcp-Session-Id", "Last-Event-ID");
  if (era !== "legacy") allow.push(...params);
  const rows = [
    ["Access-Control-Allow-Origin", origin],
    ["Access-Control-Allow-Methods", era === "modern" ? "POST, OPTIONS" : "GET, POST, DELETE, OPTIONS"],
    ["Access-Control-Allow-Headers", unique([...allow, ...sent]).join(", ")],
  ];
  if (era !== "modern") rows.push(["Access-Control-Expose-Headers", "Mcp-Session-Id"]);
  return rows;
}

const ERA_NOTE = {
  modern: "The 2026-07-28 wire has no session: no Mcp-Session-Id.",
  legacy: "On the 2025-11-25 wire the page must read the session id the server hands out.",
  unknown: "Mcp-Method and Mcp-Name go to 2026-07-28 servers; Mcp-Session-Id, Last-Event-ID and the exposed Mcp-Session-Id to those of the 2025-11-25 era: a server of one era may leave out the other's.",
};

/** The CORS hint for ctx (corsHeaders' first argument): the likely causes and the headers list. */
export function corsHint(ctx = {}) {
  const rows = corsHeaders(ctx);
  const text = () => rows.map(([k, v]) => `${k}: ${v}`).join("\n");
  return el("div", { class: "mcp-cors", id: "mcp-cors-hint", dataset: { era: ctx.era ?? "" } },
    el("p", {}, el("strong", {}, "The browser could not reach the server."), " The likely cause is CORS (the server does not allow pages from ",
      el("code", {}, location.origin), " or one of the headers sent) or a server that is not running at this URL. A browser refuses to tell a page which of the two it was."),
    el("p", {}, "A server that browser pages connect to must answer every request, and the OPTIONS preflight, with:"),
    el("ul", { class: "mcp-cors-headers" }, rows.map(([k, v]) => el("li", {}, el("code", {}, `${k}: ${v}`)))),
    el("div", { class: "row" }, copyButton(text, "the CORS headers", "Copy the headers")),
    el("p", { class: "hint" }, ERA_NOTE[ctx.era ?? "unknown"]),
    el("p", { class: "hint" }, "Each x-mcp-header in a tool's input schema adds its Mcp-Param-{Name} header (2026-07-28). Name every header: * covers none of them when requests carry credentials, and never Authorization. For pages of any origin, Access-Control-Allow-Origin may be *."));
}
