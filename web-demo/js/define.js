// Tool definitions, as the playground keeps them, and how they become toolgate tools. Used by the
// page (to validate and show schemas) and by the handler worker (to run them): no DOM here.
//
// A definition is plain JSON, so a permalink can hold it:
//   {kind: "function", source, schemaMode: "lionagi"|"accurate", docstringStyle: "google"|"rest",
//    strictFuncCall: boolean, timeoutMs?: number}
//     the raw path: tg.tool(fn, options), fn being `source` evaluated as an expression;
//   {kind: "schema", name, description, parameters: "<JSON Schema text>", handler: "<source of (args) => …>",
//    strict: boolean, coerce: "lax"|"none", timeoutMs?: number}
//     the typed path: tg.tool({name, description, parameters, handler, strict, coerce, timeoutMs}).

/** A definition's JS source evaluated as one expression; throws SyntaxError, or TypeError when it is no function. */
export function evaluateFunction(source, what) {
  const fn = (0, eval)(`(${source}\n)`);
  if (typeof fn !== "function") throw new TypeError(`${what} must be a function expression, got ${fn === null ? "null" : typeof fn}`);
  return fn;
}

/** The options a definition passes to tg.tool, leaving out what it does not set. */
export function toolOptions(def) {
  const out = {};
  if (def.kind === "function") {
    if (def.schemaMode && def.schemaMode !== "lionagi") out.schemaMode = def.schemaMode;
    if (def.docstringStyle && def.docstringStyle !== "google") out.docstringStyle = def.docstringStyle;
    if (def.strictFuncCall) out.strictFuncCall = true;
  } else {
    if (def.strict) out.strict = true;
    if (def.coerce && def.coerce !== "lax") out.coerce = def.coerce;
  }
  if (Number.isFinite(def.timeoutMs) && def.timeoutMs > 0) out.timeoutMs = def.timeoutMs;
  return out;
}

/** Builds one definition into a Tool; throws what tg.tool throws (a ToolgateError), or a SyntaxError from the source. */
export function buildTool(tg, def) {
  if (def.kind === "function") return tg.tool(evaluateFunction(def.source, "The function"), toolOptions(def));
  let parameters;
  try {
    parameters = JSON.parse(def.parameters);
  } catch (e) {
    throw new SyntaxError(`the parameters are not JSON: ${e.message}`);
  }
  const spec = { name: def.name, parameters, handler: evaluateFunction(def.handler, "The handler"), ...toolOptions(def) };
  if (def.description) spec.description = def.description;
  return tg.tool(spec);
}

/**
 * Builds every definition into one branch. Returns {branch, entries, collisions}: one entry per
 * definition ({index, def, tool, name, error}; a failed one has tool null and its error), and each
 * name two definitions share ({name, indexes}); the first keeps the name, the later ones are left
 * out of the branch with an error saying so. Never throws.
 */
export function buildBranch(tg, defs) {
  const branch = tg.branch();
  const owner = new Map();
  const collisions = new Map();
  const entries = defs.map((def, index) => {
    let tool;
    try {
      tool = buildTool(tg, def);
    } catch (error) {
      return { index, def, tool: null, name: def.kind === "schema" ? def.name : null, error };
    }
    const name = tool.function;
    if (owner.has(name)) {
      const first = owner.get(name);
      if (!collisions.has(name)) collisions.set(name, [first]);
      collisions.get(name).push(index);
      const error = Object.assign(new Error(`tool ${index + 1} is also named "${name}", which tool ${first + 1} already has: a branch holds one tool per name, so this one is left out (rename it, or register it with {update: true} to replace the first)`), { code: "name-collision" });
      return { index, def, tool, name, error };
    }
    try {
      branch.register(tool);
    } catch (error) {
      return { index, def, tool, name, error };
    }
    owner.set(name, index);
    return { index, def, tool, name, error: null };
  });
  return { branch, entries, collisions: [...collisions].map(([name, indexes]) => ({ name, indexes })) };
}
