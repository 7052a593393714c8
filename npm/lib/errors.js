// ToolgateError: the one error class of toolgate. Node and browser.
const MARK = Symbol.for("toolgate.ToolgateError");

/**
 * Every failure of the library. `code` is one of the closed set in
 * `ErrorCode`; `issues` lists validation problems; `tool` names the tool;
 * `rule` names the policy rule behind a `policy-denied` refusal; `callId` is the provider's id of
 * the call refused (match/validate/invoke of a request with an id), for tg.toolResult; `result` is
 * the tool's own result when it ran and reported a failure (`tool-error`: the MCP CallToolResult
 * `{content, structuredContent?, _meta?, isError: true}`); on an MCP `transport` error, `httpStatus`
 * is the server's HTTP status and `rpcCode`/`rpcMessage` its JSON-RPC error (the message redacted),
 * each only when the server sent one; on `auth-failed` (the MCP server's OAuth flow failed),
 * `authStep` names the step and `oauthError`/`oauthErrorDescription` are the authorization
 * server's error, when it sent one.
 * `ToolgateError.isInstance(e)` works across realms and bundles.
 * @example
 * try { b.match(call) } catch (e) { if (ToolgateError.isInstance(e)) console.log(e.code, e.issues) }
 */
export class ToolgateError extends Error {
  constructor(code, message, options = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "ToolgateError";
    this.code = code;
    if (options.tool) this.tool = options.tool;
    if (options.issues) this.issues = options.issues;
    if (options.rule) this.rule = options.rule;
    if (options.callId) this.callId = options.callId;
    if (options.result !== undefined && options.result !== null) this.result = options.result;
    if (typeof options.httpStatus === "number") this.httpStatus = options.httpStatus;
    if (typeof options.rpcCode === "number") this.rpcCode = options.rpcCode;
    if (typeof options.rpcMessage === "string") this.rpcMessage = options.rpcMessage;
    if (typeof options.authStep === "string") this.authStep = options.authStep;
    if (typeof options.oauthError === "string") this.oauthError = options.oauthError;
    if (typeof options.oauthErrorDescription === "string") this.oauthErrorDescription = options.oauthErrorDescription;
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
 * Builds a ToolgateError from a decoded Go error object {code, message, tool?, issues?, rule?, callId?,
 * result?, httpStatus?, rpcCode?, rpcMessage?, authStep?, oauthError?, oauthErrorDescription?}.
 */
export function errorFromData(e) {
  return new ToolgateError(e?.code || "internal", e?.message || "", {
    tool: e?.tool,
    issues: e?.issues,
    rule: e?.rule,
    callId: e?.callId,
    result: e?.result,
    httpStatus: e?.httpStatus,
    rpcCode: e?.rpcCode,
    rpcMessage: e?.rpcMessage,
    authStep: e?.authStep,
    oauthError: e?.oauthError,
    oauthErrorDescription: e?.oauthErrorDescription,
  });
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
