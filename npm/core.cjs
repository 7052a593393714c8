// toolgate/core for CommonJS. The API is asynchronous anyway, so initialize()
// loads the ESM build; ToolgateError is usable synchronously (isInstance and instanceof
// recognise errors from either module system through a Symbol.for marker).
"use strict";
const MARK = Symbol.for("toolgate.ToolgateError");
const esm = import("./core.node.js");

class ToolgateError extends Error {
  constructor(code, message, options = {}) {
    super(message, options.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = "ToolgateError";
    this.code = code;
    if (options.tool) this.tool = options.tool;
    if (options.issues) this.issues = options.issues;
  }
  get [MARK]() {
    return true;
  }
  static isInstance(value) {
    return value != null && typeof value === "object" && value[MARK] === true;
  }
  static [Symbol.hasInstance](value) {
    return ToolgateError.isInstance(value);
  }
}

exports.ToolgateError = ToolgateError;
exports.initialize = (opts) => esm.then((m) => m.initialize(opts));
