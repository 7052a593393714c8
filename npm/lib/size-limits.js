// Size limits checked on a string's length before it crosses to Go, so that refusing an oversized
// input costs a comparison (or one scan of its characters), never its serialisation, its copy
// into Go or a parse; Go checks the same limits on the bytes (core/sizes.go) and has the last
// word on what is in between. Node and browser.
import { ToolgateError } from "./errors.js";
import { MAX_ARGUMENT_BYTES, MAX_REQUEST_BYTES, MAX_SCHEMA_BYTES } from "./contract.js";

/**
 * The UTF-8 length of s when it is surely over `limit` bytes (a lower bound, enough to refuse),
 * else 0. A UTF-16 unit is at least one byte and at most three (a surrogate pair is four bytes for
 * two units, a lone surrogate crosses as U+FFFD, three), so a string of more than `limit` units is
 * over at once and one of at most limit/3 units is within at once; only in between are the
 * characters counted, stopping as soon as the count passes the limit. Node and browser. @internal
 */
export function bytesOver(s, limit) {
  if (s.length > limit) return s.length;
  if (s.length * 3 <= limit) return 0;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 4;
      i++;
    } else n += 3;
    if (n > limit) return n;
  }
  return 0;
}

/** The most values stringsOver visits before it leaves the answer to the serialisation. */
const MAX_WALK = 10000;

/**
 * A lower bound of the UTF-8 length of value's JSON when it is surely over `limit`, else 0: the
 * lengths of the strings it holds, summed until they pass the limit, without serialising it. A
 * subtree with a toJSON method is skipped (it serialises as something else), and past MAX_WALK
 * values the walk gives up (a large tree of small values, or a cycle, which the serialisation
 * reports), so it costs little beside the serialisation whatever the value. Node and browser. @internal
 */
export function stringsOver(value, limit) {
  let n = 0;
  let budget = MAX_WALK;
  const stack = [value];
  while (stack.length > 0) {
    if (--budget < 0) return 0;
    const v = stack.pop();
    if (typeof v === "string") {
      n += v.length;
      if (n > limit) return n;
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length && stack.length <= budget; i++) stack.push(v[i]);
    } else if (v !== null && typeof v === "object" && typeof v.toJSON !== "function") {
      for (const k in v) {
        if (stack.length > budget) break;
        if (Object.hasOwn(v, k)) stack.push(v[k]);
      }
    }
  }
  return 0;
}

/** The ToolgateError of a size limit: `code`, one issue with keyword maxBytes. */
function limitError(code, message, data = {}) {
  return new ToolgateError(code, `${message}.`, { ...data, issues: [{ path: "", keyword: "maxBytes", message }] });
}

/**
 * Refuses the JSON text of a request or of a whole provider response (`what` names it) over
 * MAX_REQUEST_BYTES with invalid-request, as Go does (core.MaxRequestBytes); given the value
 * rather than its text, refuses it when the strings it holds are surely over (stringsOver), before
 * it is serialised. Node and browser. @internal
 */
export function checkRequestText(text, what) {
  const n = typeof text === "string" ? bytesOver(text, MAX_REQUEST_BYTES) : stringsOver(text, MAX_REQUEST_BYTES);
  if (n) throw limitError("invalid-request", `${what} is at least ${n} bytes of JSON, more than the limit of ${MAX_REQUEST_BYTES}`);
}

/**
 * Refuses argument text over MAX_ARGUMENT_BYTES with invalid-arguments naming the tool and the
 * call id when known, as Go's DecodeArguments does. Node and browser. @internal
 */
export function checkArgumentText(text, tool, callId) {
  const n = bytesOver(text, MAX_ARGUMENT_BYTES);
  if (!n) return;
  const data = {};
  if (typeof tool === "string" && tool !== "") data.tool = tool;
  if (typeof callId === "string" && callId !== "") data.callId = callId;
  throw limitError("invalid-arguments", `arguments are at least ${n} bytes of JSON, more than the limit of ${MAX_ARGUMENT_BYTES}`, data);
}

/**
 * Refuses the JSON text of a parameters schema over MAX_SCHEMA_BYTES with invalid-schema naming
 * the tool, as Go's CompileSchema does; given the schema object, refuses it when its strings are
 * surely over, before it is serialised. Node and browser. @internal
 */
export function checkSchemaText(text, tool) {
  const n = typeof text === "string" ? bytesOver(text, MAX_SCHEMA_BYTES) : stringsOver(text, MAX_SCHEMA_BYTES);
  if (n) throw limitError("invalid-schema", `parameters schema is at least ${n} bytes of JSON, more than the limit of ${MAX_SCHEMA_BYTES}`, { tool });
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Where Go reads a request object's arguments (core.ParseRequest's shapes, in its order): the
 * member's value with the call's name and id, or undefined for a shape it cannot tell. Only a
 * string value matters to the size check: an object is measured by its serialisation.
 */
function argumentsMember(r) {
  const has = (o, k) => Object.hasOwn(o, k);
  if (has(r, "action_request") && !has(r, "function") && isObject(r.action_request)) {
    const q = r.action_request;
    return { value: q.arguments, name: q.function, id: q.id };
  }
  if (has(r, "functionCall") && isObject(r.functionCall)) return { value: r.functionCall.args, name: r.functionCall.name, id: r.functionCall.id };
  if (r.type === "function_call") return { value: r.arguments, name: r.name, id: r.call_id || r.id };
  if (r.type === "tool_use") return { value: r.input, name: r.name, id: r.id };
  if (has(r, "function")) {
    if (isObject(r.function)) return { value: r.function.arguments, name: r.function.name, id: r.id };
    return { value: r.arguments, name: r.function, id: r.id };
  }
  if (has(r, "name") && has(r, "args")) return { value: r.args, name: r.name, id: r.id };
  return undefined;
}

/**
 * Refuses a request object whose arguments are a string over MAX_ARGUMENT_BYTES, before the
 * request is serialised. Node and browser. @internal
 */
export function checkRequestArguments(request) {
  const m = argumentsMember(request);
  if (m && typeof m.value === "string") checkArgumentText(m.value, m.name, m.id);
}
