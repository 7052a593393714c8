// Lax coercion in JS (issue 23): Go's coercion plan, exported with a tool's program, made into a
// function over evaluator values. Placeholder until the port lands: compileLax returns null, and
// a tool whose program has a lax plan is not answered in JS.

/**
 * Compiles an exported coercion plan into (value) => {value, conversions}, or null when this
 * build cannot. @internal
 */
export function compileLax(_plan) {
  return null;
}
