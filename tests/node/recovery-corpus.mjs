// The recovery corpus: wrong calls of real tool schemas (tests/fixtures/recovery/schemas.json),
// made deterministically from one valid call per schema by one or two mutations each. Every call
// has an id ("<tool>#<n>") that old-texts.json and the harness key on. The generator reads the
// schemas; the mock model (recovery-model.mjs) never does.

/** The wrong calls of every tool: [{id, tool, mutations, arguments}], in a fixed order. */
export function wrongCalls(tools) {
  const out = [];
  for (const t of tools) {
    const valid = validValue(t.inputSchema, t.inputSchema);
    const singles = mutationsOf(t.inputSchema, t.inputSchema, [], valid);
    const calls = singles.map((m) => [m]);
    // pairs: each mutation with the next one on another path
    for (let i = 0; i + 1 < singles.length; i += 2) {
      const a = singles[i], b = singles.find((m, j) => j > i && !m.path.startsWith(a.path) && !a.path.startsWith(m.path));
      if (b) calls.push([a, b]);
    }
    calls.forEach((ms, n) => {
      let args = structuredClone(valid);
      for (const m of ms) args = m.apply(args);
      out.push({ id: `${t.name}#${n}`, tool: t.name, mutations: ms.map((m) => `${m.kind} ${m.path || "/"}`), arguments: args });
    });
  }
  return out;
}

/** A valid value of schema s (root is the document, for local $refs). */
export function validValue(s, root) {
  s = resolve(s, root);
  if (s.const !== undefined) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (Array.isArray(s.anyOf)) return validValue(s.anyOf.find((b) => b.type !== "null") ?? s.anyOf[0], root);
  const type = Array.isArray(s.type) ? s.type.find((x) => x !== "null") : s.type;
  switch (type ?? (s.properties ? "object" : "string")) {
    case "object": {
      const o = {};
      for (const [k, p] of Object.entries(s.properties ?? {})) o[k] = validValue(p, root);
      return o;
    }
    case "array": return Array.from({ length: Math.max(1, s.minItems ?? 0) }, () => validValue(s.items ?? {}, root));
    case "integer": case "number": {
      if (s.minimum !== undefined) return s.minimum + 1 <= (s.maximum ?? Infinity) ? Math.ceil(s.minimum) + 1 : s.minimum;
      if (s.exclusiveMinimum !== undefined) return Math.floor(s.exclusiveMinimum) + 1;
      return 3;
    }
    case "boolean": return true;
    case "null": return null;
    default:
      if (s.format === "uri") return "https://example.com/page";
      return "sample".padEnd(s.minLength ?? 0, "x");
  }
}

function resolve(s, root) {
  for (let i = 0; i < 8 && typeof s?.$ref === "string" && s.$ref.startsWith("#/"); i++) {
    s = s.$ref.slice(2).split("/").reduce((o, k) => o?.[k], root);
  }
  return s ?? {};
}

/** Sets (or with del, removes) the value at pointer path of args; returns args. */
function at(args, path, fn) {
  const keys = path.split("/").slice(1);
  let o = args;
  for (const k of keys.slice(0, -1)) o = o[k];
  fn(o, keys.at(-1));
  return args;
}

/** A misspelling of a name: a dropped letter, two letters swapped, or snake/camel case switched. */
export function typo(name, n) {
  if (/_[a-z]/.test(name) && n % 3 === 0) return name.replace(/_([a-z])/g, (_, c) => c.toUpperCase());
  if (/[a-z][A-Z]/.test(name) && n % 3 === 0) return name.replace(/([a-z])([A-Z])/g, (_, a, b) => `${a}_${b.toLowerCase()}`);
  if (name.length > 3 && n % 3 === 1) return name.slice(0, 1) + name[2] + name[1] + name.slice(3);
  return name.length > 2 ? name.slice(0, -2) + name.at(-1) : name + name.at(-1);
}

/** The mutations of object schema s at path (the valid object there is v): each a {kind, path, apply}. */
function mutationsOf(s, root, pathKeys, v) {
  s = resolve(s, root);
  const out = [];
  const base = pathKeys.map((k) => "/" + k).join("");
  const props = Object.entries(s.properties ?? {});
  const required = new Set(s.required ?? []);
  props.forEach(([name, raw], i) => {
    const p = resolve(raw, root);
    const path = `${base}/${name}`;
    const set = (kind, value) => out.push({ kind, path, apply: (a) => at(a, path, (o, k) => { o[k] = structuredClone(value); }) });
    if (required.has(name)) {
      out.push({ kind: "missing", path, apply: (a) => at(a, path, (o, k) => { delete o[k]; }) });
      const wrong = typo(name, i + pathKeys.length);
      out.push({ kind: `misspelled as ${wrong}`, path, apply: (a) => at(a, path, (o, k) => { o[wrong] = o[k]; delete o[k]; }) });
    }
    if (Array.isArray(p.enum) && typeof p.enum[0] === "string") {
      const first = p.enum[0];
      const cased = first === first.toUpperCase() ? first.toLowerCase() : first.toUpperCase();
      set("enum case", cased);
      set("enum synonym", first.slice(0, 1) + "-" + first.slice(1, 3));
    } else if (p.const !== undefined) {
      set("const off", typeof p.const === "string" ? p.const + "x" : 0);
    }
    const type = Array.isArray(p.type) ? p.type[0] : p.type ?? (Array.isArray(p.anyOf) ? "anyOf" : undefined);
    switch (type) {
      case "string": case "anyOf":
        set("wrong type", { value: "text" });
        break;
      case "integer":
        set("wrong type", 2.5);
        set("wrong type", "many");
        break;
      case "number":
        set("wrong type", "many");
        break;
      case "boolean":
        set("wrong type", "maybe");
        break;
      case "array":
        set("wrong type", { items: [] });
        break;
    }
    if (typeof p.minimum === "number") set("below minimum", p.minimum - 1);
    if (typeof p.exclusiveMinimum === "number") set("below minimum", p.exclusiveMinimum);
    if (typeof p.maximum === "number") set("above maximum", p.maximum + 1);
    if (typeof p.exclusiveMaximum === "number") set("above maximum", p.exclusiveMaximum);
    if (typeof p.minLength === "number" && p.minLength > 0) set("too short", "");
    if (typeof p.maxLength === "number") set("too long", "y".repeat(p.maxLength + 1));
    if (typeof p.maxItems === "number") set("too many items", Array.from({ length: p.maxItems + 1 }, () => validValue(p.items ?? {}, root)));
    // nested: the first item of an array of objects, or an object property
    const item = type === "array" ? resolve(p.items, root) : undefined;
    if (item && (item.type === "object" || item.properties)) out.push(...mutationsOf(item, root, [...pathKeys, name, "0"], v));
    if (type === "object" || (!type && p.properties)) out.push(...mutationsOf(p, root, [...pathKeys, name], v));
  });
  if (s.additionalProperties === false && props.length > 0) {
    const [first] = props[0];
    const near = first + "s";
    out.push({ kind: "unknown key", path: `${base}/${near}`, apply: (a) => at(a, `${base}/${near}`, (o, k) => { o[k] = "extra"; }) });
    out.push({ kind: "unknown key", path: `${base}/notes`, apply: (a) => at(a, `${base}/notes`, (o, k) => { o[k] = "extra"; }) });
  }
  return out;
}
