// Walking a JSON Schema document: its subschemas, the in-place applicators among them, and
// whether local $refs make a loop that never consumes the instance (which toolgate refuses).
// Used by the Ajv differential to tell an expected refusal from a finding.

/** Keywords whose value is one subschema, a map of them, or a list of them. */
const ONE = ["additionalProperties", "items", "contains", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "not", "if", "then", "else"];
const MAP = ["properties", "patternProperties", "$defs", "dependentSchemas"];
const LIST = ["prefixItems", "allOf", "anyOf", "oneOf"];
/** The applicators that apply to the same instance: a cycle through them alone never ends. */
const IN_PLACE_ONE = ["not", "if", "then", "else"];
const IN_PLACE_LIST = ["allOf", "anyOf", "oneOf"];

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const esc = (k) => String(k).replace(/~/g, "~0").replace(/\//g, "~1");

/** [pointer, subschema] for every subschema of root, root included. */
export function subschemas(root, ptr = "", out = []) {
  out.push([ptr, root]);
  if (!isObject(root)) return out;
  for (const k of ONE) if (k in root) subschemas(root[k], `${ptr}/${k}`, out);
  for (const k of MAP) if (isObject(root[k])) for (const name of Object.keys(root[k])) subschemas(root[k][name], `${ptr}/${k}/${esc(name)}`, out);
  for (const k of LIST) if (Array.isArray(root[k])) root[k].forEach((s, i) => subschemas(s, `${ptr}/${k}/${i}`, out));
  return out;
}

/** The pointers a subschema hands the same instance to: in-place applicators and a local $ref. */
function inPlace(node, ptr) {
  if (!isObject(node)) return [];
  const out = [];
  for (const k of IN_PLACE_ONE) if (k in node) out.push(`${ptr}/${k}`);
  for (const k of IN_PLACE_LIST) if (Array.isArray(node[k])) node[k].forEach((_, i) => out.push(`${ptr}/${k}/${i}`));
  if (isObject(node.dependentSchemas)) for (const name of Object.keys(node.dependentSchemas)) out.push(`${ptr}/dependentSchemas/${esc(name)}`);
  if (typeof node.$ref === "string" && (node.$ref === "#" || node.$ref.startsWith("#/"))) out.push(node.$ref.slice(1));
  return out;
}

/** Whether root has a cycle of in-place applicators and local $refs (a schema that loops). */
export function refLoop(root) {
  const nodes = new Map(subschemas(root));
  const state = new Map(); // pointer → "open" | "done"
  const visit = (ptr) => {
    if (state.get(ptr) === "open") return true;
    if (state.get(ptr) === "done" || !nodes.has(ptr)) return false;
    state.set(ptr, "open");
    const loops = inPlace(nodes.get(ptr), ptr).some(visit);
    state.set(ptr, "done");
    return loops;
  };
  return [...nodes.keys()].some(visit);
}

/** The keywords whose strings are property names: required, dependentRequired's lists, propertyNames' enum and const. */
const NAME_LISTS = new Set(["required", "dependentRequired", "propertyNames"]);

/**
 * v with the property name `from` renamed `to`: every object key and, in a schema, the strings of
 * the keywords that list property names. Other string values stay. Own keys are kept own.
 */
export function renamed(v, from, to, { schema = false, inNames = false } = {}) {
  if (inNames && v === from) return to;
  if (Array.isArray(v)) return v.map((x) => renamed(x, from, to, { schema, inNames }));
  if (!isObject(v)) return v;
  const out = {};
  for (const k of Object.keys(v)) {
    const names = schema && (inNames || NAME_LISTS.has(k)) && k !== "properties";
    Object.defineProperty(out, k === from ? to : k, { value: renamed(v[k], from, to, { schema, inNames: names }), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
