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
