// Invoke from the call panel when a call names an MCP tool: that call runs on the full build's
// branch the MCP panel registered the tool on (in the page: the work is the server's, so nothing
// can freeze it), the others in the handler worker as before. Outcomes have the worker's shape
// (worker.js), one per call, in order, so the call panel, the history and the provider views read
// them alike.
const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];

/** JSON-safe copy: BigInts as {"$bigint": "<digits>"}, what cannot be serialised as its text. */
function plain(value) {
  try {
    const text = JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? { $bigint: String(v) } : v));
    return text === undefined ? null : JSON.parse(text);
  } catch (e) {
    return `(not JSON: ${e.message})`;
  }
}

function line(e) {
  if (e && typeof e === "object" && typeof e.code === "string") return `${e.code}: ${e.message}`;
  return e instanceof Error ? `${e.name}: ${e.message}` : String(e);
}

/** The tool-result message of each provider for fc (or an error), made by the toolgate that ran it. */
function results(tg, outcome) {
  const out = {};
  for (const target of TARGETS) {
    try {
      out[target] = plain(tg.toolResult(outcome, target));
    } catch (e) {
      out[target] = { error: line(e) };
    }
  }
  return out;
}

/** A cancelled call in words: the person stopped it, the server was told. */
export const CANCELLED = "you cancelled the call: toolgate stopped waiting and told the server (notifications/cancelled); nothing it returns later is used";

/** One MCP call on its branch; never throws. */
async function invokeMcp(part, target, version, signal) {
  const started = performance.now();
  const base = { kind: "invoke", request: part.requestText, version, label: part.label, server: target.server };
  try {
    const fc = await target.branch.invoke(part.request, { signal });
    const out = { ...base, status: fc.status, record: plain(fc.toDict()), response: plain(fc.response), durationMs: Math.round(performance.now() - started), results: results(target.tg, fc) };
    if (fc.status === "cancelled" || signal?.aborted) Object.assign(out, { status: "cancelled", errorData: { code: "cancelled", message: CANCELLED } });
    return out;
  } catch (e) {
    const durationMs = Math.round(performance.now() - started);
    if (signal?.aborted) return { ...base, status: "cancelled", error: `cancelled: ${CANCELLED}`, errorData: { code: "cancelled", message: CANCELLED }, durationMs };
    const errorData = { code: typeof e?.code === "string" ? e.code : undefined, message: e?.message ?? String(e), issues: plain(e?.issues), callId: e?.callId, tool: e?.tool };
    return { ...base, status: "failed", error: line(e), errorData, durationMs, results: results(target.tg, e) };
  }
}

/**
 * Invokes parts (call-split.js) in order: a part route(part) gives an MCP target for ({branch, tg,
 * server}) on its branch, the others through local(part) (the worker; resolves to its outcomes).
 * Resolves to the outcomes, never rejects; an aborted signal cancels the call under way and the rest.
 */
export async function invokeParts(parts, { route, local, signal, version }) {
  const outcomes = [];
  for (const part of parts) {
    const target = route(part);
    if (signal?.aborted) {
      outcomes.push({ kind: "invoke", request: part.requestText, version, label: part.label, status: "cancelled", error: `cancelled: ${CANCELLED}`, errorData: { code: "cancelled", message: CANCELLED }, durationMs: 0 });
    } else if (target) outcomes.push(await invokeMcp(part, target, version, signal));
    else outcomes.push(...(await local(part)).map((o) => ({ ...o, label: part.label ?? o.label })));
  }
  return outcomes;
}
