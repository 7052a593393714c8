// ToolgateError: the one error class of toolgate. Node and browser.
const MARK = Symbol.for("toolgate.ToolgateError");

/**
 * The 0.1 flat names of the transport and auth detail, each with where it lives now. ToolgateError's
 * deprecated read-only getters answer them for one release (docs/contract.md, "Migrating from the flat error
 * fields"); the constructor folds them into their group. The list never grows.
 */
const FLAT = Object.freeze({
  httpStatus: Object.freeze(["transport", "httpStatus"]),
  rpcCode: Object.freeze(["transport", "rpcCode"]),
  rpcMessage: Object.freeze(["transport", "rpcMessage"]),
  authStep: Object.freeze(["auth", "step"]),
  oauthError: Object.freeze(["auth", "oauthError"]),
  oauthErrorDescription: Object.freeze(["auth", "oauthErrorDescription"]),
});

/** Keys no error data may set: the constructor's own, Error's, and what would reach the prototype. */
const RESERVED = Object.freeze(["code", "message", "cause", "name", "stack", "__proto__", "constructor", "prototype"]);

/**
 * Every failure of the library. `code` is one of the closed set in `ErrorCode`; every other member
 * is data, copied from what the Go side sends (docs/contract.md, "Errors"): `issues` lists
 * validation problems; `tool` names the tool; `rule` names the policy rule behind a `policy-denied`
 * refusal; `callId` is the provider's id of the call refused, for tg.toolResult; `result` is the
 * tool's own result of a `tool-error`; `transport` is what an MCP server answered behind a failure
 * (`httpStatus`, `rpcCode`, `rpcMessage`); `auth` is where an MCP server's OAuth flow failed
 * (`step`, `oauthError`, `oauthErrorDescription`). `ToolgateError.isInstance(e)` works across realms
 * and bundles.
 * @example
 * try { b.match(call) } catch (e) { if (ToolgateError.isInstance(e)) console.log(e.code, e.issues) }
 */
export class ToolgateError extends Error {
  constructor(code, message, options = {}) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "ToolgateError";
    this.code = code;
    copyData(this, options);
  }
  get [MARK]() {
    return true;
  }
  static isInstance(value) {
    if (value === null || typeof value !== "object") return false;
    try {
      return value[MARK] === true;
    } catch {
      return false; // a revoked Proxy, or a getter that throws: not ours
    }
  }
  static [Symbol.hasInstance](value) {
    return ToolgateError.isInstance(value);
  }
  /**
   * What JSON.stringify writes: name, code and message first (Error keeps message, stack and cause
   * as non-enumerable members, so they were lost), then every data member (issues, tool, callId,
   * ...); never the stack (paths of this machine) nor the cause (a value of the caller's, which may
   * not be JSON). The message is Go's text, secrets already removed (internal/redact). Node and
   * browser.
   */
  toJSON() {
    const out = { name: this.name, code: this.code, message: this.message };
    for (const k of Object.keys(this)) if (!Object.hasOwn(out, k)) out[k] = this[k];
    return out;
  }
  /** @deprecated transport.httpStatus; removed in the next release. */
  get httpStatus() {
    return flatValue(this, "httpStatus");
  }
  /** @deprecated transport.rpcCode; removed in the next release. */
  get rpcCode() {
    return flatValue(this, "rpcCode");
  }
  /** @deprecated transport.rpcMessage; removed in the next release. */
  get rpcMessage() {
    return flatValue(this, "rpcMessage");
  }
  /** @deprecated auth.step; removed in the next release. */
  get authStep() {
    return flatValue(this, "authStep");
  }
  /** @deprecated auth.oauthError; removed in the next release. */
  get oauthError() {
    return flatValue(this, "oauthError");
  }
  /** @deprecated auth.oauthErrorDescription; removed in the next release. */
  get oauthErrorDescription() {
    return flatValue(this, "oauthErrorDescription");
  }
}

/** A 0.1 flat name's value, read from its group. */
function flatValue(err, name) {
  const [group, key] = FLAT[name];
  return err[group]?.[key];
}

/**
 * Sets on err every own member of data that is not reserved, undefined or null; a 0.1 flat name
 * (httpStatus, authStep, …) goes into its group.
 */
function copyData(err, data) {
  if (data === null || typeof data !== "object") return;
  for (const k of Object.keys(data)) {
    const v = data[k];
    if (v === undefined || v === null || RESERVED.includes(k)) continue;
    if (Object.hasOwn(FLAT, k)) {
      const [group, key] = FLAT[k];
      err[group] = { ...err[group], [key]: v };
    } else {
      Object.defineProperty(err, k, { value: v, writable: true, enumerable: true, configurable: true });
    }
  }
}

/** Builds a ToolgateError from the JSON the Go side sends. */
export function errorFromGo(text) {
  let e;
  try {
    e = JSON.parse(text);
  } catch {
    return new ToolgateError("internal", "unreadable error from the WebAssembly side");
  }
  return errorFromData(e);
}

/**
 * Builds a ToolgateError from a decoded Go error object: its code and message, and every other
 * member it holds as data (tool, issues, rule, callId, result, transport, auth, and whatever Go
 * adds), so a new detail needs no edit here.
 */
export function errorFromData(e) {
  const data = e !== null && typeof e === "object" ? e : {};
  return new ToolgateError(data.code || "internal", data.message || "", { ...data, cause: undefined });
}

/** Refuses option keys a call does not know, naming the key and the call. */
export function checkOptions(opts, allowed, call) {
  if (opts === undefined || opts === null) return {};
  return readInput(call, "options", "unsupported-type", () => {
    if (typeof opts !== "object" || Array.isArray(opts)) {
      throw new ToolgateError("unsupported-type", `${call}: options must be an object, got ${describe(opts)}`);
    }
    for (const k of Object.keys(opts)) {
      if (!allowed.includes(k)) {
        throw new ToolgateError("unsupported-type", `${call}: unknown option "${k}" (known: ${allowed.join(", ")})`);
      }
    }
    return opts;
  });
}

/**
 * Runs read(), which reads a value the caller passed; what reading it throws (a revoked Proxy, a
 * throwing getter) becomes a ToolgateError with `code` naming the call and the value. Internal.
 */
export function readInput(call, what, code, read) {
  try {
    return read();
  } catch (e) {
    if (ToolgateError.isInstance(e)) throw e;
    throw new ToolgateError(code, `${call}: the ${what} could not be read (${safeText(e)})`, { cause: e });
  }
}

/** String(v), or a placeholder when even that throws (an object without a prototype, a revoked Proxy). Internal. */
export function safeText(v) {
  try {
    return v instanceof Error ? v.message : String(v);
  } catch {
    return "<unprintable>";
  }
}

/** The Errors wrapThrown made, told apart by membership (a thrown revoked Proxy cannot be asked). */
const wrappers = new WeakSet();

/**
 * What a call's `error` holds when its handler threw (or its signal aborted with) something that is
 * not an Error: an Error named "ThrownValue" whose `cause` is the value itself, so that `fc.error`
 * is always an object (`if (fc.error)` never misses a failure). Internal.
 */
export function wrapThrown(v, tool) {
  if (isError(v)) return v;
  const e = new Error(`${tool} threw ${describe(v)}, not an Error; the value is this error's cause`, { cause: v });
  e.name = "ThrownValue";
  wrappers.add(e);
  return e;
}

/** The value a call's handler threw: the cause of a wrapThrown Error, else err itself. Internal. */
export function thrownValue(err) {
  return wrappers.has(err) ? err.cause : err;
}

/** Whether v is an Error of any realm (its brand, not its prototype chain). */
function isError(v) {
  try {
    return v instanceof Error || Object.prototype.toString.call(v) === "[object Error]";
  } catch {
    return false; // a revoked Proxy
  }
}

/** Names a value's kind for messages: "null", "an array", or its typeof. Internal. */
export function describe(v) {
  try {
    return describeKind(v);
  } catch {
    return "an unreadable value";
  }
}

function describeKind(v) {
  if (v === null) return "null";
  if (Array.isArray(v)) return "an array";
  return typeof v;
}
