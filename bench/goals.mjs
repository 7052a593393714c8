// The goals the speed issues set (issue 9, and the new-wire one below), by
// row id (see a row's `id` in bench/report.json), shown beside the
// measurement in the table. Goals are shown, never asserted: make bench
// fails only when a figure could not be measured.
export const GOALS = {
  // Issue 23 ("Ajv-class speed without eval"): the same goals with default options (lax
  // coercion, the validate-* rows) and with coerce "none" (the validate-none-* rows).
  "validate-object-ajv": "≤ 2×",
  "validate-object-cfworker": "≤ 0.1×",
  "validate-text-ajv": "≤ 1.0×",
  "validate-none-object-ajv": "≤ 2×",
  "validate-none-object-cfworker": "≤ 0.1×",
  "validate-none-text-ajv": "≤ 1.0×",
  "cold-workload-ajv": "< 1.0×",
  "cold-workload-cfworker": "≤ 2×",
  "invoke-overhead": "≤ 10 µs",
  "match-10k-vs-10": "≤ 1.2×",
  "schemalist-10k": "≤ 1.0×",
  "mcp-echo-streamable-http-median": "≤ 1.0×",
  "mcp-echo-sse-median": "≤ 1.0×",
  "mcp-parallel-default": "≤ 1.2×",
  "mcp-register-streamable-http": "≤ 1.2×",
  "mcp-register-sse": "≤ 1.2×",
  // The new-wire issue ("Speed on the new wire"): with the era cached, a registration is one
  // HTTP round trip (tools/list) and a call one POST.
  "mcp-modern-register-cached-requests": "1",
  "mcp-modern-echo-requests": "1",
  "cold-node-core": "≤ 1.5×",
  "cold-node-full": "≤ 250 ms",
  // Issue 23: validation from plans starts no WebAssembly.
  "cold-node-plan": "≤ 1.0×",
  "cold-browser-plan-uncached": "≤ 1.0×",
  "cold-browser-plan-cached": "≤ 1.0×",
  "page-core-brotli": "≤ 1.0 MB",
  "size-toolgate-core.wasm": "≤ 1.0 MB",
  "page-full-brotli": "≤ 2.0 MB",
  "page-plan-brotli": "≤ 64 KiB",
  "memory-go-heap": "≤ 1.1×",
  "memory-js-heap": "≤ 1.1×",
  // Issue 22: 1M validations through the validator module with no async call stay flat.
  "memory-validator-js-heap": "≤ 1.1×",
  "memory-validator-rss": "≤ 1.1×",
};
