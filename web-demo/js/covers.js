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
  const mode = def.schemaMode === "accurate" ? "accurate mode" : "LionAGI mode";
  const types = def.schemaMode === "accurate"
    ? `types are not checked, though the schema shows those inferred from defaults: "two" passes an integer parameter.`
    : `types are not checked (every parameter is "string" in the schema): "two" passes where a number is meant.`;
  if (def.strictFuncCall) {
    return `Raw function (${mode}, strictFuncCall): the keys must equal the schema's required set (${keys(required)}) exactly, keyword "strict"; ${types}`;
  }
  return `Raw function (${mode}): keys only, as LionAGI checks them: the parameters without a default (${keys(minimum)}) must be present; ${types} `
    + `Validate also refuses a key the function does not declare (keyword "signature"); invoke keeps LionAGI's check, so such a key fails only when the function runs.`;
}

function typedCovers(def) {
  const coercion = def.coerce === "none"
    ? `with no conversions (coerce "none"): "5" fails for an integer.`
    : `after lax conversions ("5" → 5 for an integer; each one listed).`;
  const strict = def.strict ? ` "strict" only marks the schema sent to providers.` : "";
  return `Typed tool: full JSON Schema validation (types, ranges, enums, required, nested objects; not "format"), ${coercion} `
    + `Top-level keys the schema names nowhere are dropped unless it mentions additionalProperties.${strict}`;
}
