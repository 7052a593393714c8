// KNOWN FINDINGS of the JS API fuzzer (tests/node/api-fuzz.test.mjs): failures the library has
// today. A failure whose signature ("call: outcome") matches an entry is reported and counted
// (t.diagnostic) instead of failing the run. When you fix one, delete its entry: its seed file in
// tests/node/fuzz-seeds/ then guards the fix in every `make test`.
//
//   id        a name for the finding
//   match     a RegExp tested against the failure's signature
//   seed      the seed file with its minimal case
//   summary   what happens, and what docs/contract.md says should happen
export const KNOWN = [
  {
    id: "record-cycle-or-deep",
    match: /^fc\.toDict\(\): threw RangeError: Maximum call stack size exceeded$/,
    seed: "record-cycle-arguments.json", // also record-deep-response.json
    summary: "fc.toDict() throws RangeError when fc.arguments (a preprocessor's result) or fc.response holds a cycle or nests ~10k deep; contract: records always serialise",
  },
  {
    id: "record-bigint-in-non-plain-object",
    match: /^JSON\.stringify\(fc\.toDict\(\)\): threw TypeError: Do not know how to serialize a BigInt$/,
    seed: "record-bigint-in-null-prototype-object.json",
    summary: "a BigInt inside a null-prototype object (or any non-plain object) of a response stays a BigInt in fc.toDict(), so JSON.stringify throws; contract: every BigInt of a record is spelled {$bigint}",
  },
  {
    id: "record-thrown-null-prototype",
    match: /^fc\.toDict\(\): threw TypeError: Cannot convert object to primitive value$/,
    seed: "record-thrown-null-prototype-object.json",
    summary: "a handler that throws an object without a prototype makes fc.toDict() throw (String(err) in errorRecord); contract: records always serialise",
  },
  {
    id: "record-hostile-values",
    match: /^(fc\.toDict\(\): threw (Error: (getter threw|message getter threw)|TypeError: Cannot perform … on a proxy that has been revoked)|JSON\.stringify\(fc\.toDict\(\)\): threw Error: toJSON threw)$/,
    seed: "record-response-throwing-getter.json", // also record-thrown-error-throwing-message.json, record-response-throwing-tojson.json, record-response-revoked-proxy.json
    summary: "a response with a throwing getter or toJSON, or that is a revoked Proxy, or a thrown Error whose message getter throws, makes fc.toDict() (or its JSON.stringify) throw; contract: records always serialise",
  },
  {
    id: "invoke-thrown-revoked-proxy",
    match: /^b\.invoke: rejected TypeError: Cannot perform … on a proxy that has been revoked$/,
    seed: "invoke-handler-throws-revoked-proxy.json",
    summary: "a handler that throws a revoked Proxy makes invoke reject with a TypeError (`e instanceof Cancelled` in run); contract: invoke resolves to the FunctionCalling, failed",
  },
  {
    id: "revoked-proxy-input",
    match: /^(b\.match: threw TypeError|b\.validate error: internal|tg\.branch: threw TypeError): Cannot perform … on a proxy that has been revoked$|^b\.validate\/b\.match: validate refused internal, match threw TypeError$/,
    seed: "match-revoked-proxy-request.json", // also validate-revoked-proxy-request.json, branch-revoked-proxy-options.json
    summary: "a revoked Proxy as a request makes match throw a TypeError and validate return an `internal` error; as tg.branch options, a TypeError (Array.isArray throws on it); contract: invalid-request / unsupported-type",
  },
  {
    id: "register-array-holding-itself",
    match: /^(tg\.branch|b\.register): threw RangeError: Maximum call stack size exceeded$/,
    seed: "register-array-holding-itself.json", // also branch-tools-array-holding-itself.json
    summary: "an array that contains itself, passed to b.register or tg.branch({tools}), overflows the stack in Branch#ref (RangeError); contract: a cycle in what register takes is unsupported-type",
  },
  {
    id: "parameters-export-throws",
    match: /^tg\.tool: threw Error: export failed$/,
    seed: "tool-parameters-export-throws.json", // also tool-standard-schema-export-throws.json
    summary: "a zod-style or Standard Schema `parameters` whose JSON Schema export throws makes tg.tool throw that raw Error; contract: every failure is a ToolgateError (invalid-schema)",
  },
  {
    id: "handler-starts-after-cancel",
    match: /^b\.invoke: a stage started after the call was cancelled$/,
    seed: "invoke-handler-starts-after-cancel.json",
    summary: "when a call is cancelled (signal or timeoutMs) while its preprocessor is pending, the handler still starts once the preprocessor settles, after invoke resolved `cancelled`",
  },
  {
    id: "timeout-beyond-int32",
    match: /^b\.invoke: cancelled by its timeout before timeoutMs passed$/,
    seed: "invoke-timeout-beyond-int32-fires-at-once.json",
    summary: "timeoutMs ≥ 2^31 (accepted by tg.tool) overflows setTimeout, which fires after 1 ms: the call ends `cancelled` with a timeout error at once",
  },
];

/** The KNOWN entry a failure signature matches, or undefined. */
export function knownFinding(signature) {
  return KNOWN.find((k) => k.match.test(signature));
}

// KNOWN DISAGREEMENTS of the Ajv differential (tests/node/ajv-differential.test.mjs): categories
// ("toolgate valid, Ajv invalid (keyword)", …) where toolgate's verdict differs from Ajv2020's and
// the difference is not one of the listed expected ones. Same fields as KNOWN; seeds are the
// fuzz-seeds/ajv-*.json files.
export const KNOWN_AJV = [
  {
    id: "schema-loop-found-only-while-validating",
    match: /^tg\.tool accepted a schema with a \$ref loop; validate then refuses it/,
    seed: "ajv-schema-loop-found-only-while-validating.json",
    summary: "toolgate's: a schema whose in-place $refs loop (allOf → oneOf → $ref → anyOf → $ref \"#\") is accepted by tg.tool when the looping subschema was first reached through prefixItems; then every b.validate fails invalid-schema (\"loops while validating\"); contract: a schema that loops is refused when the tool is made",
  },
  {
    id: "ajv-contains-beside-prefixitems",
    match: /\[Ajv: contains is skipped for an array shorter than a non-trivial prefixItems\]$/,
    seed: "ajv-contains-skipped-beside-prefixitems.json",
    summary: "Ajv's: beside a prefixItems that is not all-true, Ajv skips contains for an array shorter than prefixItems (prefixItems [{type: number}], contains {} accepts []); toolgate refuses it, as the spec says",
  },
  {
    id: "ajv-unevaluatedproperties-beside-dependentschemas",
    match: /\[Ajv: unevaluatedProperties beside dependentSchemas\]$/,
    seed: "ajv-unevaluatedproperties-beside-dependentschemas.json",
    summary: "Ajv's: a dependentSchemas entry that does not apply (its key is absent) makes Ajv apply unevaluatedProperties to keys `properties` evaluated; toolgate accepts, as the spec says",
  },
  {
    id: "ajv-unevaluateditems-beside-contains",
    match: /\[Ajv: unevaluatedItems beside contains\]$/,
    seed: "ajv-unevaluateditems-ignores-contains.json", // also ajv-unevaluateditems-beside-mincontains-0.json
    summary: "Ajv's: unevaluatedItems: false refuses items that contains matched (2020-12 counts them as evaluated), and beside contains {$ref: \"#\"} with minContains 0 and maxContains 0 accepts [null], which contains did not match; toolgate follows the spec both ways",
  },
  {
    id: "ajv-uniqueitems-typed-by-items",
    match: /\[Ajv: uniqueItems compares as items' type, prefixItems' items too\]$/,
    seed: "ajv-uniqueitems-typed-by-items.json",
    summary: "Ajv's: with prefixItems [{}, {}] and items {type: null}, uniqueItems checks every item as a null, so [0.1, 0.1] passes; toolgate refuses the repeated item, as the spec says",
  },
];

/** The KNOWN_AJV entry a disagreement category matches, or undefined. */
export function knownAjvFinding(category) {
  return KNOWN_AJV.find((k) => k.match.test(category));
}
