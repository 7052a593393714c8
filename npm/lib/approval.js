// Approval for local tools: tg.tool's requireApproval / approve / approvalTimeoutMs, the contract
// MCP tools have (docs/mcp.md, "Filtering and approval"), checked in JS after the arguments are
// validated and preprocessed and before the handler runs. Node and browser.
import { ToolgateError, describe } from "./errors.js";

/** The approval hook's default time to answer, as for MCP tools. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 120000;
const MAX_TIMER_MS = 2147483647;

/**
 * A tool's approval from its options ({requireApproval, approve, approvalTimeoutMs}), or
 * undefined without one. requireApproval is true or (args, context) => boolean; approve is
 * required with it and refused without it (invalid-tool). Node and browser.
 */
export function approvalOf(o, name) {
  const { requireApproval, approve, approvalTimeoutMs } = o;
  if (requireApproval === undefined && approve === undefined && approvalTimeoutMs === undefined) return undefined;
  if (requireApproval !== true && requireApproval !== false && typeof requireApproval !== "function") {
    throw new ToolgateError("invalid-tool", `tg.tool: option requireApproval must be true, false or a function (args, context) => boolean, got ${describe(requireApproval)}`, { tool: name });
  }
  if (typeof approve !== "function") {
    throw new ToolgateError("invalid-tool", `tg.tool: option requireApproval needs an approve hook (a function): without one every such call would be denied`, { tool: name });
  }
  const timeoutMs = approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0 || timeoutMs > MAX_TIMER_MS) {
    throw new ToolgateError("invalid-tool", `tg.tool: option approvalTimeoutMs must be a whole number of milliseconds in 1…${MAX_TIMER_MS}, got ${describe(approvalTimeoutMs)}`, { tool: name });
  }
  if (requireApproval === false) return undefined;
  return { require: requireApproval, approve, timeoutMs };
}

/** The policy-denied error of a call its approval stopped (MCP's wording; a thrown message is never quoted). */
function denied(fc, rule, why) {
  return new ToolgateError("policy-denied", `tool ${JSON.stringify(fc.function)} needs approval (requireApproval: ${rule}) and was not run: ${why}`,
    { tool: fc.function, rule: "approval", callId: fc.callId ?? undefined });
}

/**
 * Asks the approve hook about this call when its requireApproval selects it; resolves when the
 * call may run and rejects with policy-denied (rule "approval") when it may not: false,
 * {approved: false, reason}, a throw, any other answer, or none within the timeout. The hook gets
 * {tool, name, arguments, context, callId} and {signal} (aborted at the timeout or when the call is
 * cancelled). Node and browser.
 */
export async function approveCall(fc, approval, args, signal, context) {
  const rule = approval.require === true ? "true" : "a function";
  if (approval.require !== true) {
    let needed;
    try {
      needed = await approval.require(args, context);
    } catch (e) {
      throw denied(fc, rule, `requireApproval threw ${describe(e)}`);
    }
    if (needed === false) return;
  }
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort(signal.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let timer;
  try {
    const timeout = new Promise((resolve) => {
      timer = setTimeout(() => resolve(TIMEOUT), approval.timeoutMs);
    });
    const req = { tool: fc.function, name: fc.function, arguments: args, context, callId: fc.callId ?? null };
    let answer;
    try {
      answer = await Promise.race([Promise.resolve().then(() => approval.approve(req, { signal: ctrl.signal })), timeout]);
    } catch (e) {
      throw denied(fc, rule, `the approve hook threw ${e instanceof Error ? e.name : describe(e)}`);
    }
    if (answer === TIMEOUT) {
      ctrl.abort(new ToolgateError("timeout", "approval timed out"));
      throw denied(fc, rule, `the approve hook did not answer within ${approval.timeoutMs} ms`);
    }
    if (answer === true || (answer && typeof answer === "object" && answer.approved === true)) return;
    const reason = answer && typeof answer === "object" && typeof answer.reason === "string" && answer.reason !== "" ? `: ${answer.reason.slice(0, 200)}` : "";
    throw denied(fc, rule, `the approve hook refused it${reason}`);
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
}
const TIMEOUT = Symbol("timeout");
