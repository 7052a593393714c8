// The evaluator's issues (issue 23): where a problem is (a JSON pointer), how Go words it, and the
// error a refusal becomes, as core/issues.go and core/fastpath.go build them: sorted, repeats
// removed, at most `limits.issues` listed, each message and the summary clipped to their byte
// budgets. Node and browser.
import { ToolgateError } from "./errors.js";

/** A JSON pointer token, escaped (~0, ~1). */
function escapeToken(t) {
  return t.includes("~") || t.includes("/") ? t.replace(/~/g, "~0").replace(/\//g, "~1") : t;
}

/** The pointer of a path (keys as strings, indexes as numbers), with `name` appended when given. @internal */
export function pointer(path, name) {
  let p = "";
  for (const seg of path) p += "/" + (typeof seg === "number" ? String(seg) : escapeToken(seg));
  if (name !== undefined) p += "/" + escapeToken(name);
  return p;
}

/** The place a pointer designates, for messages: "field /a/0/b", or "arguments" for the root. @internal */
export function describeField(ptr) {
  return ptr === "" ? "arguments" : "field " + ptr;
}

/** UTF-16 code unit c moved so that comparing units compares code points (Go's byte order). */
function unit(c) {
  return c < 0xd800 ? c : c >= 0xe000 ? c - 0x800 : c + 0x2000;
}

/** Compares two strings as Go compares their UTF-8 bytes. @internal */
export function cmpStrings(a, b) {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return unit(x) - unit(y);
  }
  return a.length - b.length;
}

/** Sorts keys in place as Go sorts them (cmpStrings); a short list by insertion, without the builtin sort's calls. @internal */
export function sortKeys(keys) {
  if (keys.length > 12) return keys.sort(cmpStrings);
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    for (; j >= 0 && cmpStrings(keys[j], k) > 0; j--) keys[j + 1] = keys[j];
    keys[j + 1] = k;
  }
  return keys;
}

/** An array index token (jsontext.Index): digits, no leading zero, at most nine. */
function index(t) {
  return /^(0|[1-9][0-9]{0,8})$/.test(t) ? Number(t) : -1;
}

/** The unescaped tokens of a pointer. */
function tokens(p) {
  return p === "" ? [] : p.slice(1).split("/").map((t) => t.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/** jsontext.Less: pointers token by token, array indexes numerically, a prefix first. */
function cmpPointers(a, b) {
  const ta = tokens(a);
  const tb = tokens(b);
  for (let i = 0; i < ta.length && i < tb.length; i++) {
    if (ta[i] === tb[i]) continue;
    const na = index(ta[i]);
    const nb = index(tb[i]);
    if (na >= 0 && nb >= 0) return na - nb;
    return cmpStrings(ta[i], tb[i]);
  }
  return ta.length - tb.length;
}

/** sortIssues: by path, keyword and message, repeats removed. @internal */
export function sortIssues(issues) {
  issues.sort((a, b) => (a.path !== b.path ? cmpPointers(a.path, b.path) : a.keyword !== b.keyword ? cmpStrings(a.keyword, b.keyword) : cmpStrings(a.message, b.message)));
  const out = [];
  for (const is of issues) {
    const last = out[out.length - 1];
    if (last && last.path === is.path && last.keyword === is.keyword && last.message === is.message) continue;
    out.push(is);
  }
  return out;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** clipText: s cut to at most n UTF-8 bytes (not inside a character), the cut marked "…". @internal */
export function clipText(s, n) {
  if (s.length * 3 <= n) return s;
  const b = encoder.encode(s);
  if (b.length <= n) return s;
  while (n > 0 && (b[n] & 0xc0) === 0x80) n--;
  return decoder.decode(b.subarray(0, n)) + "…";
}

const OMITTED = "maxIssues";

/** boundIssues: the first `limits.issues`, then one saying how many were left out; messages clipped. */
function boundIssues(issues, limits) {
  if (issues.length > limits.issues) {
    const omitted = issues.length - limits.issues;
    issues = issues.slice(0, limits.issues);
    issues.push({ path: "", keyword: OMITTED, message: `${omitted} more issues are not listed: a report lists at most ${limits.issues}` });
  }
  for (const is of issues) is.message = clipText(is.message, limits.issueBytes);
  return issues;
}

/** summarizeIssues: the first five messages, then how many more, then what a cut report left out. */
function summarize(issues, limits) {
  let omitted = "";
  const n = issues.length;
  if (n > 0 && issues[n - 1].keyword === OMITTED) {
    omitted = "; " + issues[n - 1].message;
    issues = issues.slice(0, n - 1);
  }
  let b = "";
  for (let i = 0; i < issues.length; i++) {
    if (i === 5) {
      b += `; and ${issues.length - 5} more`;
      break;
    }
    if (i > 0) b += "; ";
    b += issues[i].message;
  }
  return clipText(b + omitted, limits.messageBytes);
}

/**
 * The invalid-arguments ToolgateError of a refusal, as Go's argumentsError makes it and the bridge
 * hands it to JS, made without a stack trace: capturing one costs more than the whole check (V8
 * walks the frames for every Error), and a refusal b.validate returns is data. b.match captures
 * one when it throws the error. @internal
 */
export function argumentsError(program, tool, issues) {
  const list = boundIssues(sortIssues(issues), program.limits);
  const message = clipText("arguments do not match " + program.subject + ": " + summarize(list, program.limits), program.limits.messageBytes);
  const limit = noStack();
  try {
    return makeError(message, tool, list);
  } finally {
    if (limit !== undefined) Error.stackTraceLimit = limit;
  }
}

/**
 * A ToolgateError built as its constructor builds it for ("invalid-arguments", message, {tool,
 * issues}): an Error constructed with ToolgateError as new.target (a real Error of ToolgateError's
 * prototype), then its name, code, tool and issues, in that order. The constructor's generic
 * handling of its data (any keys, reserved names, the flat 0.1 names) costs more than the Error
 * itself; used only when sameShape, checked once at load, finds the result the constructor's.
 */
function directError(message, tool, issues) {
  const e = Reflect.construct(Error, [message], ToolgateError);
  e.name = "ToolgateError";
  e.code = "invalid-arguments";
  if (tool) e.tool = tool;
  e.issues = issues;
  return e;
}

function constructedError(message, tool, issues) {
  return new ToolgateError("invalid-arguments", message, tool ? { tool, issues } : { issues });
}

/** Whether two errors have the same prototype, kind and own members (names, flags, values; the stack aside). */
function sameShape(a, b) {
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b) || Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) return false;
  const ka = Reflect.ownKeys(a);
  const kb = Reflect.ownKeys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    if (ka[i] !== kb[i]) return false;
    if (ka[i] === "stack") continue;
    const da = Object.getOwnPropertyDescriptor(a, ka[i]);
    const db = Object.getOwnPropertyDescriptor(b, kb[i]);
    for (const f of ["value", "get", "set", "writable", "enumerable", "configurable"]) if (da[f] !== db[f]) return false;
  }
  return ToolgateError.isInstance(a) && a instanceof Error;
}

/** The error maker: directError where it makes what the constructor makes, else the constructor. */
const makeError = (() => {
  const issues = [];
  try {
    const same = sameShape(directError("m", "t", issues), constructedError("m", "t", issues)) && sameShape(directError("m", "", issues), constructedError("m", "", issues));
    return same ? directError : constructedError;
  } catch {
    return constructedError;
  }
})();

/**
 * Sets Error.stackTraceLimit to 0 and returns what it was, or undefined where the engine has none
 * or it cannot be set (frozen intrinsics): then the error gets the engine's usual stack. Node's own
 * errors.js does the same around the errors it makes.
 */
function noStack() {
  const limit = Error.stackTraceLimit;
  if (typeof limit !== "number" || limit === 0) return undefined;
  try {
    Error.stackTraceLimit = 0;
  } catch {
    return undefined;
  }
  return Error.stackTraceLimit === 0 ? limit : undefined;
}
