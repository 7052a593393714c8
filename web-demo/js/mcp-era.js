// The MCP protocol era, for people: the pins a server config may carry, how the version a tool was
// discovered with (tool.mcp.protocolVersion, what toolgate reports) reads, and the Mcp-Param-*
// headers the tools' x-mcp-header annotations make toolgate send (docs/mcp-eras.md).

/** The stateless revision; every other version toolgate reports is of the legacy era (the initialize handshake). */
export const MODERN = "2026-07-28";

/** The choices of the form's era select: value (the config's protocolVersion, "" for none) and label. */
export const PINS = [
  { value: "", label: "find it (default)" },
  { value: MODERN, label: MODERN },
  { value: "2025-11-25", label: "2025-11-25" },
];

/** "modern" or "legacy" for a protocol version; undefined when there is none. */
export function eraOf(version) {
  if (!version) return undefined;
  return version === MODERN ? "modern" : "legacy";
}

/**
 * A protocol version as a person reads it: "MCP 2026-07-28 (stateless)", "MCP 2025-11-25
 * (handshake)". Every legacy connection starts with the handshake; a session id is the server's
 * choice, which toolgate does not report, so the label does not claim one.
 */
export function eraLabel(version) {
  return `MCP ${version} (${eraOf(version) === "modern" ? "stateless" : "handshake"})`;
}

/** The distinct protocol versions tools (Tool[]) were discovered with, in order; declared tools have none. */
export function versionsOf(tools) {
  return [...new Set(tools.map((t) => t.mcp?.protocolVersion).filter(Boolean))];
}

/** The x-mcp-header names of a schema's properties, reached through `properties` only (the only place they count). */
function annotations(schema, out) {
  for (const p of Object.values(schema?.properties ?? {})) {
    if (!p || typeof p !== "object") continue;
    if (typeof p["x-mcp-header"] === "string") out.push(p["x-mcp-header"]);
    annotations(p, out);
  }
  return out;
}

/**
 * The Mcp-Param-{Name} headers calls of tools (Tool[]) carry: only tools discovered on the modern
 * wire (the legacy one ignores x-mcp-header), each name once (header names ignore case).
 */
export function paramHeaders(tools) {
  const seen = new Map();
  for (const t of tools) {
    if (eraOf(t.mcp?.protocolVersion) !== "modern") continue;
    const params = t.toolSchema?.function?.parameters ?? t.toolSchema?.parameters;
    for (const name of annotations(params, [])) seen.set(name.toLowerCase(), `Mcp-Param-${name}`);
  }
  return [...seen.values()];
}
