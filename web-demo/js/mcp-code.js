// The code that makes the connection the form describes: initialize, a branch, registerMcpServer
// with the policy (and the era, when pinned). Header values are never written out: each one is a placeholder to fill in.
import { el, copyButton } from "./ui.js";

/**
 * The snippet for values ({name, url, transport, protocolVersion, headers, oauth}) under security;
 * header values become "<value>", an era left to find is left out. chosen ({server, name, args}: the
 * call area's tool, its registered name and arguments) is called when it is of this server; the
 * connection is closed in a finally, whatever happens.
 */
export function connectSnippet(values, security, chosen = null) {
  const config = { name: values.name, url: values.url };
  if (values.transport !== "streamable-http") config.transport = values.transport;
  if (values.protocolVersion) config.protocolVersion = values.protocolVersion;
  const names = Object.keys(values.headers);
  if (names.length) config.headers = Object.fromEntries(names.map((k) => [k, "<value>"]));
  const options = values.oauth
    ? `{ security: ${JSON.stringify(security)}, auth: { redirectUrl, clientMetadata: { client_name: "my app" }, redirectToAuthorization: (url) => openPopupAndWait(url) } }`
    : `{ security: ${JSON.stringify(security)} }`;
  const call = chosen && chosen.server === values.name
    ? [
      `  const fc = await b.invoke({ function: ${JSON.stringify(chosen.name)}, arguments: ${JSON.stringify(chosen.args ?? {})} });`,
      "  console.log(fc.status, fc.response ?? fc.error);",
    ]
    : ["  console.log(names); // connect in the panel and pick a tool to see a call to it here"];
  return [
    'import { initialize } from "toolgate";',
    "const tg = await initialize();",
    "const b = tg.branch();",
    "try {",
    `  const names = await b.registerMcpServer(${JSON.stringify(config)}, ${options});`,
    ...call,
    "} finally {",
    "  await tg.mcp.cleanup(); // closes the connection even when a step above threw",
    "}",
  ].join("\n");
}

/** A collapsed "As code" block: {node, update(values, security, chosen)}. */
export function codeView() {
  const pre = el("pre", { class: "out", id: "mcp-code" });
  const node = el("details", { class: "mcp-code" },
    el("summary", {}, "As code"),
    el("p", { class: "hint" }, "The same connection from JavaScript, calling the tool chosen under \"Call one\" with its arguments (header values left out: fill them in)."),
    pre,
    el("div", { class: "row" }, copyButton(() => pre.textContent, "the connection code", "Copy the code")));
  return { node, update: (values, security, chosen) => (pre.textContent = connectSnippet(values, security, chosen)) };
}
