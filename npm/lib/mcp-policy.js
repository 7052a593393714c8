// The MCP tool policy options of registerMcpServer, loadMcpConfig and loadMcpTools: filter (which
// discovered tools are registered) and requireApproval / approve / approvalTimeoutMs (which calls
// ask the app first). JS turns Sets into arrays, refuses what cannot cross as JSON and hands the
// approve function to Go as a host function id; Go checks every value and enforces both
// (jsbridge/mcpops/policy.go, the mcp package). Node and browser.
import { ToolgateError, describe } from "./errors.js";
import { checkCrosses } from "./json.js";

/** The filter option as JSON-ready data: Sets become arrays; undefined members are dropped; anything but an object goes to Go as it is. */
function filterJSON(filter, call) {
  if (filter === null || typeof filter !== "object" || Array.isArray(filter)) return filter ?? undefined;
  const out = {};
  for (const [k, v] of Object.entries(filter)) {
    if (v !== undefined) out[k] = checkCrosses(v instanceof Set ? [...v] : v, call, `filter.${k}`);
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

/**
 * The policy members of a call's options, ready for Go's payload: {filter?, requireApproval?,
 * approve?, approvalTimeoutMs?}. Node and browser.
 */
export function policyOptions(ctx, o, call) {
  return {
    filter: filterJSON(o.filter, call),
    requireApproval: o.requireApproval instanceof Set ? [...o.requireApproval] : (o.requireApproval ?? undefined),
    approve: approveId(ctx, o.approve, call),
    approvalTimeoutMs: o.approvalTimeoutMs,
  };
}
