// The code that makes the connection the form describes: initialize, a branch, registerMcpServer
// with the policy (and the era, when pinned). Header values are never written out: each one is a placeholder to fill in.
import { el, copyButton } from "./ui.js";

/**
 * The snippet for values ({name, url, transport, protocolVersion, headers, oauth}) under security;
 * header values become "<value>", an era left to find is left out.
 */
export function connectSnippet(values, security) {
  const config = { name: values.name, url: values.url };
  if (values.transport !== "streamable-http") config.transport = values.transport;
  if (values.protocolVersion) config.protocolVersion = values.protocolVersion;
  const names = Object.keys(values.headers);
  if (names.length) config.headers = Object.fromEntries(names.map((k) => [k, "<value>"]));
  const options = values.oauth
    ? `{ security: ${JSON.stringify(security)}, auth: { redirectUrl, clientMetadata: { client_name: "my app" }, redirectToAuthorization: (url) => openPopupAndWait(url) } }`
    : `{ security: ${JSON.stringify(security)} }`;
  return [
    'import { initialize } from "toolgate";',
    "const tg = await initialize();",
    "const b = tg.branch();",
    `const names = await b.registerMcpServer(${JSON.stringify(config)}, ${options});`,
    "const fc = await b.invoke({ function: names[0], arguments: {} });",
    "await tg.mcp.cleanup();",
  ].join("\n");
}

/** A collapsed "As code" block: {node, update(values, security)}. */
export function codeView() {
  const pre = el("pre", { class: "out", id: "mcp-code" });
  const node = el("details", { class: "mcp-code" },
    el("summary", {}, "As code"),
    el("p", { class: "hint" }, "The same connection from JavaScript (header values left out: fill them in)."),
    pre,
    el("div", { class: "row" }, copyButton(() => pre.textContent, "the connection code", "Copy the code")));
  return { node, update: (values, security) => (pre.textContent = connectSnippet(values, security)) };
}
