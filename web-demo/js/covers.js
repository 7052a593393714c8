// "What this check covers": the sentence next to each verdict, from the tool's kind and options, as
// toolgate really checks (docs/contract.md "Validation, in order"; docs/lionagi.md "The strict check",
// "The non-strict check lets extra keys through", "Request-model validation"). No DOM here.

/** The covers text for a definition (see define.js), given the tool's required and minimum keys when known. */
export function coversText(def, tool) {
  if (!def) return "The name must be one of the branch's tools; nothing else can be checked for a tool it does not have.";
  if (def.kind === "function") return rawCovers(def, tool);
  return typedCovers(def);
}

function keys(list) {
  return list && list.length ? list.map((k) => `"${k}"`).join(", ") : "none";
}

function rawCovers(def, tool) {
  let required = null;
  let minimum = null;
  try {
    required = tool?.requiredFields ?? null;
    minimum = tool?.minimumAcceptableFields ?? null;
  } catch {
    // a schema without "required": the strict check says so itself
  }
  const mode = def.schemaMode === "accurate" ? "accurate schema mode" : "LionAGI schema mode";
  const typesNote = def.schemaMode === "accurate"
    ? "The schema shows types inferred from defaults, but they are not checked: a string passes an integer parameter."
    : `Types are not checked (LionAGI's raw path): every parameter is "string" in the schema, and "two" passes where the function wants a number.`;
  if (def.strictFuncCall) {
    return `Raw function, ${mode}, strictFuncCall: the argument keys must equal the schema's required set exactly (${keys(required)}), no more and no fewer (keyword "strict"). ${typesNote}`;
  }
  return `Raw function, ${mode}: a key-set check only, LionAGI-compatible: the parameters without a default (${keys(minimum)}) must be present. ${typesNote} `
    + `Validate also refuses a key the function does not declare (keyword "signature"), because invoking would fail with "unexpected keyword argument"; match and invoke keep LionAGI's check, so such a call fails only when it runs.`;
}

function typedCovers(def) {
  const coercion = def.coerce === "none"
    ? `with no conversions (coerce "none"): "5" fails for an integer.`
    : `after Pydantic-style lax conversions ("5" → 5 for an integer, "true" → true; each one listed).`;
  const strict = def.strict ? ` "strict" only marks the schema sent to providers (function.strict: true); it changes nothing here.` : "";
  return `Typed tool: full JSON Schema validation of the arguments (types, ranges, enums, required, nested objects; "format" is not asserted), ${coercion} `
    + `Top-level keys the schema names nowhere are dropped unless it mentions additionalProperties.${strict}`;
}
