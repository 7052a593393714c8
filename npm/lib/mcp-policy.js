// The MCP tool policy options of registerMcpServer, loadMcpConfig and loadMcpTools: filter (which
// discovered tools are registered) and requireApproval / approve / approvalTimeoutMs (which calls
// ask the app first). JS checks the shapes it can name and hands the approve function to Go as a
// host function id; Go checks the rest and enforces both (the mcp package). Node and browser.
import { ToolgateError, describe } from "./errors.js";

const FILTER_KEYS = ["allow", "block", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"];

/** The filter option as JSON-ready data: Sets become arrays; undefined members are dropped. */
function filterJSON(filter, call) {
  if (filter === undefined || filter === null) return undefined;
  if (typeof filter !== "object" || Array.isArray(filter)) {
    throw new ToolgateError("unsupported-type", `${call}: option filter must be an object {allow?, block?, readOnlyHint?, destructiveHint?, idempotentHint?, openWorldHint?}, got ${describe(filter)}`);
  }
  const out = {};
  for (const [k, v] of Object.entries(filter)) {
    if (!FILTER_KEYS.includes(k)) {
      throw new ToolgateError("unsupported-type", `${call}: unknown member ${JSON.stringify(k)} of option filter; known members are ${FILTER_KEYS.join(", ")}`);
    }
    if (v !== undefined) out[k] = v instanceof Set ? [...v] : v;
  }
  return out;
}

/** The approve hook as a host function id (undefined when absent). */
function approveId(ctx, approve, call) {
  if (approve === undefined || approve === null) return undefined;
  if (typeof approve !== "function") {
    throw new ToolgateError("unsupported-type", `${call}: option approve must be a function, got ${describe(approve)}`);
  }
  return ctx.inst.hostFunction(approve, "approve");
}

/** approvalTimeoutMs: a whole number of milliseconds (Go checks its range). */
function checkTimeout(v, call) {
  if (v !== undefined && !Number.isInteger(v)) {
    throw new ToolgateError("unsupported-type", `${call}: option approvalTimeoutMs must be a whole number of milliseconds, got ${describe(v)}`);
  }
  return v;
}

/**
 * The policy members of a call's options, ready for Go's payload: {filter?, requireApproval?,
 * approve?, approvalTimeoutMs?}. Node and browser.
 */
export function policyOptions(ctx, o, call) {
  const rules = o.requireApproval instanceof Set ? [...o.requireApproval] : o.requireApproval;
  if (rules !== undefined && rules !== null && (!Array.isArray(rules) || rules.some((r) => typeof r !== "string"))) {
    throw new ToolgateError("unsupported-type", `${call}: option requireApproval must be an array of "destructive", "openWorld" or "all"`);
  }
  return {
    filter: filterJSON(o.filter, call),
    requireApproval: rules ?? undefined,
    approve: approveId(ctx, o.approve, call),
    approvalTimeoutMs: checkTimeout(o.approvalTimeoutMs, call),
  };
}
