// How the call box's text becomes requests: one call as it is, or a whole provider response (a
// completion, an assistant message, a Gemini response…) split into its calls with tg.parseToolCalls,
// so each is checked on its own. Used by the page (validate) and the handler worker (invoke): no DOM.
import { json } from "./ui.js";

/**
 * The requests a call text holds: [{request, label, callId}] where request is what to hand
 * b.validate / b.invoke (the text itself for one call, so the library reads its exact numbers and
 * reports its syntax errors), label names the call for people ("call 2 of 3", or "" for one), and
 * requestText is the JSON text of that one call (for history and replay). An empty list means the
 * response holds no tool call.
 */
export function splitCalls(tg, text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return [{ request: text, requestText: text, label: "", callId: null }];
  }
  if (!value || typeof value !== "object" || typeof value.function === "string") {
    return [{ request: text, requestText: text, label: "", callId: typeof value?.id === "string" ? value.id : null }];
  }
  let calls;
  try {
    calls = tg.parseToolCalls(text);
  } catch {
    // not a provider response: let validate say what is wrong with it as a call
    return [{ request: text, requestText: text, label: "", callId: null }];
  }
  if (calls.length === 1 && !isWhole(value)) return [{ request: text, requestText: text, label: "", callId: calls[0].id }];
  return calls.map((call, i) => ({ request: call, requestText: json(call), label: `call ${i + 1} of ${calls.length}`, callId: call.id }));
}

/** True for a value that wraps calls (a completion, message, response or list), false for one call. */
function isWhole(value) {
  if (Array.isArray(value)) return true;
  return ["choices", "tool_calls", "content", "output", "candidates", "parts"].some((k) => k in value);
}

/** The arguments a part (of splitCalls) sent, as an object, or null when they cannot be read. */
export function sentArguments(tg, part) {
  if (part.request && typeof part.request === "object") return objectOrNull(part.request.arguments);
  let value;
  try {
    value = JSON.parse(part.request);
  } catch {
    return null;
  }
  if (value && typeof value.function === "string") return objectOrNull(value.arguments);
  try {
    return objectOrNull(tg.parseToolCalls(part.request)[0]?.arguments);
  } catch {
    return null;
  }
}

function objectOrNull(args) {
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return null;
    }
  }
  return args && typeof args === "object" && !Array.isArray(args) ? args : null;
}
