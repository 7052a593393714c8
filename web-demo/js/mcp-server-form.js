// The server form of the MCP panel: name, URL, transport, the protocol era (found, or pinned),
// headers (values masked, never shown back), "uses OAuth", and the live policy verdict under the URL.
import { el } from "./ui.js";
import { PINS, MODERN } from "./mcp-era.js";

/** The connect timeout's default, in seconds (the SSE connect wait of docs/security.md's number sheet). */
export const CONNECT_TIMEOUT_S = 30;

let rows = 0;

/** One header row: name, masked value with a show toggle, remove. */
function headerRow(onRemove) {
  const n = ++rows;
  const name = el("input", { type: "text", class: "mcp-header-name", id: `mcp-header-name-${n}`, placeholder: "Authorization", autocomplete: "off", spellcheck: "false" });
  const value = el("input", { type: "password", class: "mcp-header-value", id: `mcp-header-value-${n}`, placeholder: "value (kept in this page only)", autocomplete: "off", spellcheck: "false" });
  const show = el("button", { type: "button", class: "small", "aria-pressed": "false", "aria-label": `Show the value of header ${n}` }, "Show");
  show.addEventListener("click", () => {
    const shown = value.type === "password";
    value.type = shown ? "text" : "password";
    show.setAttribute("aria-pressed", String(shown));
    show.textContent = shown ? "Hide" : "Show";
  });
  const row = el("div", { class: "mcp-header-row" },
    el("label", { class: "block" }, `Header ${n} name`, name),
    el("label", { class: "block" }, `Header ${n} value`, value),
    el("div", { class: "row" }, show, el("button", { type: "button", class: "small", "aria-label": `Remove header ${n}`, onclick: () => onRemove(row) }, "Remove")));
  row.read = () => [name.value.trim(), value.value];
  return row;
}

/**
 * The era select: "find it" (toolgate probes the server) or a pinned protocolVersion. SSE is the
 * legacy transport: with it the 2026-07-28 pin is disabled, and a choice of it goes back to "find it".
 */
function eraSelect(transport) {
  const select = el("select", { id: "mcp-protocol", "aria-describedby": "mcp-protocol-hint" },
    PINS.map((p) => el("option", { value: p.value }, p.label)));
  const modern = select.querySelector(`option[value="${MODERN}"]`);
  const sync = () => {
    modern.disabled = transport.value === "sse";
    if (modern.disabled && select.value === MODERN) select.value = "";
  };
  transport.addEventListener("change", sync);
  return select;
}

/**
 * The server form: {node, url, values(), verdictBox}. values() is {name, url, transport,
 * protocolVersion ("" when not pinned), headers, oauth, timeoutMs}; header rows with no name are left out.
 * onUrl() (optional) runs as the URL changes.
 */
export function serverForm(onUrl = () => {}) {
  const name = el("input", { type: "text", id: "mcp-name", value: "server", autocomplete: "off", spellcheck: "false", required: true });
  const url = el("input", { type: "url", id: "mcp-url", placeholder: "https://mcp.example.com/mcp", autocomplete: "off", spellcheck: "false", inputmode: "url", required: true, oninput: onUrl });
  const transport = el("select", { id: "mcp-transport" },
    el("option", { value: "streamable-http" }, "Streamable HTTP"),
    el("option", { value: "sse" }, "SSE (legacy)"));
  const era = eraSelect(transport);
  const oauth = el("input", { type: "checkbox", id: "mcp-oauth" });
  const timeout = el("input", { type: "number", id: "mcp-timeout", min: "1", max: "600", step: "1", value: String(CONNECT_TIMEOUT_S), inputmode: "numeric", "aria-describedby": "mcp-timeout-hint" });
  const headers = el("div", { class: "mcp-headers", id: "mcp-headers" });
  const remove = (row) => row.remove();
  const add = el("button", { type: "button", class: "small", id: "mcp-add-header", onclick: () => headers.append(headerRow(remove)) }, "Add a header");
  const verdictBox = el("div", { class: "verdict warn", id: "mcp-verdict", role: "status", "aria-live": "polite" });
  const node = el("fieldset", { class: "mcp-server" },
    el("legend", {}, "Server"),
    el("div", { class: "mcp-grid" },
      el("label", { class: "block" }, "URL", url),
      el("label", { class: "block" }, "Transport", transport),
      el("label", { class: "block" }, "Name (tools become mcp__name__tool)", name),
      el("label", { class: "block" }, "Protocol era", era),
      el("label", { class: "block" }, "Connect timeout (seconds)", timeout)),
    el("p", { class: "hint", id: "mcp-timeout-hint" }, `How long Connect waits for the server before it gives up (1 to 600 s; default ${CONNECT_TIMEOUT_S}). Time in an OAuth sign-in window does not count.`),
    el("p", { class: "hint", id: "mcp-protocol-hint" }, "Left to find it, toolgate asks the server (server/discover) and remembers the answer for its origin; a pin skips that. SSE servers are of the 2025-11-25 era."),
    verdictBox,
    el("h3", {}, "Headers"),
    el("p", { class: "hint" }, "Sent with every request. Values are masked, never written into the page, a record or an error, and kept only in this page's memory."),
    headers,
    el("div", { class: "row" }, add),
    el("label", {}, oauth, "This server uses OAuth (sign in in a popup window when it asks)"));
  return {
    node,
    url,
    verdictBox,
    values() {
      const h = {};
      for (const row of headers.children) {
        const [k, v] = row.read();
        if (k) h[k] = v;
      }
      const seconds = Math.min(600, Math.max(1, Math.round(Number(timeout.value)) || CONNECT_TIMEOUT_S));
      return { name: name.value.trim(), url: url.value.trim(), transport: transport.value, protocolVersion: era.value, headers: h, oauth: oauth.checked, timeoutMs: seconds * 1000 };
    },
  };
}
