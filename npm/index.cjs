// toolgate for CommonJS. The API is asynchronous anyway, so initialize()
// loads the ESM build; ToolgateError is usable synchronously (lib/errors.cjs is generated from
// lib/errors.js, and isInstance/instanceof recognise errors of either through a Symbol.for marker).
"use strict";
const { ToolgateError } = require("./lib/errors.cjs");
const esm = import("./index.node.js");

exports.ToolgateError = ToolgateError;
exports.initialize = (opts) => esm.then((m) => m.initialize(opts));
