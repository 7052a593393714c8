// The MCP security policy as toggles, the `security` object they make, and the live verdict of
// tg.mcp.checkUrl(url, security): the exact check every MCP request gets, fail-closed by default.
import { el, json } from "./ui.js";

/**
 * The policy fieldset: {node, security()}. onChange() (optional) runs whenever a toggle or field
 * changes. security() is the object handed to registerMcpServer and loadMcpConfig.
 */
export function policyForm(onChange = () => {}) {
  const allowUrls = el("input", { type: "checkbox", id: "mcp-allow-urls", onchange: onChange });
  const loopback = el("input", { type: "checkbox", id: "mcp-allow-loopback", onchange: onChange });
  const allowlist = el("input", { type: "text", id: "mcp-allowlist", placeholder: "mcp.example.com, localhost:3000", autocomplete: "off", spellcheck: "false", oninput: onChange });
  const maxConn = el("input", { type: "number", id: "mcp-max-conn", min: "1", step: "1", placeholder: "5", inputmode: "numeric", oninput: onChange });
  const code = el("pre", { class: "out mcp-security", id: "mcp-security", "aria-label": "The security option these toggles make" });
  const node = el("fieldset", { class: "mcp-policy" },
    el("legend", {}, "Policy (security)"),
    el("p", { class: "covers" }, "Fail-closed: with the defaults every URL is refused. allowUrls opens https to public hosts; private, link-local and cloud-metadata addresses stay refused whatever you allow."),
    el("div", { class: "mcp-toggles" },
      el("label", {}, allowUrls, el("code", {}, "allowUrls"), el("span", { class: "hint" }, "the URL transports at all: https to public hosts")),
      el("label", {}, loopback, el("code", {}, "allowLoopbackHttp"), el("span", { class: "hint" }, "with allowUrls: http to localhost, 127.0.0.1, [::1] too"))),
    el("div", { class: "mcp-grid" },
      el("label", { class: "block" }, el("span", {}, el("code", {}, "urlAllowlist"), ": hosts, comma-separated (empty: any public host)"), allowlist),
      el("label", { class: "block" }, el("span", {}, el("code", {}, "maxConnectionsPerServer"), " (empty: 5)"), maxConn)),
    code);

  function security() {
    const s = { allowUrls: allowUrls.checked, allowLoopbackHttp: loopback.checked };
    const hosts = allowlist.value.split(",").map((h) => h.trim()).filter(Boolean);
    if (hosts.length) s.urlAllowlist = hosts;
    const n = Number(maxConn.value);
    if (maxConn.value.trim() && Number.isInteger(n) && n > 0) s.maxConnectionsPerServer = n;
    return s;
  }
  const refresh = () => (code.textContent = `security: ${json(security(), 0)}`);
  node.addEventListener("input", refresh);
  node.addEventListener("change", refresh);
  refresh();
  return { node, security };
}

/**
 * Shows in box (a live region kept across updates) the verdict for url under security: allowed, or
 * refused with its rule and reason. Needs the full build (tg.mcp); before it is up, says so.
 * Never throws: a policy the check refuses is shown as a refusal too.
 */
export function showVerdict(box, tg, url, security) {
  box.replaceChildren();
  box.className = "verdict";
  let v;
  if (!tg) v = { pending: "The policy check needs the full build; it is loading." };
  else if (!url.trim()) v = { pending: "Type a server URL to see the policy's verdict." };
  else {
    try {
      v = tg.mcp.checkUrl(url.trim(), security);
    } catch (e) {
      v = { allowed: false, rule: e.code || "error", reason: e.message };
    }
  }
  box.dataset.allowed = v.pending ? "" : String(v.allowed);
  if (v.pending) {
    box.classList.add("warn");
    box.append(v.pending);
  } else if (v.allowed) {
    box.classList.add("ok");
    box.append(el("strong", {}, "Allowed"), " by this policy: toolgate will send requests to this URL.");
  } else {
    box.classList.add("bad");
    box.append(el("strong", {}, "Refused"), " by rule ", el("code", { class: "mcp-rule" }, v.rule), ": ", v.reason);
  }
}
