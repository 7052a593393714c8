// Example tool definitions (see define.js for their shape). PLACEHOLDER: the tools panel's owner extends this.

/** The definitions the page opens with. */
export function defaultDefs() {
  return [{
    kind: "function",
    source: `function add(a, b = 2) {
  /** Add two numbers.
   *
   * Args:
   *   a: first number
   *   b: second number
   */
  return Number(a) + Number(b);
}`,
    schemaMode: "lionagi",
    docstringStyle: "google",
    strictFuncCall: false,
  }];
}

/** The call the page opens with. */
export function defaultCall() {
  return `{"function": "add", "arguments": {"a": 1, "b": 2}}`;
}
