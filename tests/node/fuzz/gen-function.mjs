// Raw functions as source text: parameters (defaults, rest, destructuring, comments), docstrings
// (Google and reST, well and badly formed), and every form tg.tool must take or refuse: async,
// arrows, methods, getters, classes, generators, natives, bound functions. The body runs a
// behaviour through the case's runtime (__tgFuzz).
import { tag } from "./tagged.mjs";

const NAMES = ["a", "b", "c", "x", "n", "path", "PATH", "value", "opts", "_p", "$d", "ü", "kwargs", "self", "await1"];
const FN_NAMES = ["f", "add", "search", "tool_1", "Ünïcode", "$fn", "_priv", "fetchData", "a".repeat(70), "constructor"];
const DEFAULTS = ["1", "-1.5", "1e3", '"s"', "'q'", "`t`", "null", "true", "undefined", "[1, 2]", "{ k: 1 }", "() => 1", "Math.max(1, 2)", '")"', '","', '"/*"', "a", "0x10", "1_000", "NaN", "{}", "[]", "new Date(0)", "10n"];
const TYPES = ["int", "str", "float", "bool", "list", "dict", "list[int]", "Optional[str]", "dict[str, int]", "", "banana"];

/** One parameter: plain, defaulted, commented. */
function param(rng, name) {
  const d = rng.chance(0.35) ? ` = ${rng.pick(DEFAULTS)}` : "";
  const c = rng.chance(0.08) ? rng.pick([" /* c, d) */", " // x\n"]) : "";
  return { text: `${name}${d}${c}`, names: [name] };
}

/** A destructured object parameter: {a, b = 1, c: renamed, ...rest}, maybe nested or defaulted. */
function destructured(rng, names, used) {
  const fields = names.map((n) => rng.weighted([[5, n], [2, `${n} = ${rng.pick(DEFAULTS)}`], [1, `${n}: ${n}_r`], [1, `${n}: { ${n}_inner }`]]));
  const rest = ["rest", "kwargs", "kw"].find((r) => !used.has(r));
  if (rng.chance(0.3)) {
    fields.push(`...${rest}`);
    used.add(rest);
  }
  const dflt = rng.chance(0.3) ? " = {}" : "";
  return { text: `{ ${fields.join(", ")} }${dflt}`, names };
}

/** The parameter list, its text and the argument names it takes. */
function params(rng) {
  const pool = rng.subset(NAMES, 5);
  const used = new Set(pool);
  const out = [];
  let destructuredCount = 0;
  while (pool.length) {
    const kind = rng.weighted([[8, "plain"], [1, "destructured"], [0.1, "array"]]);
    if (kind === "destructured" && destructuredCount < (rng.chance(0.1) ? 2 : 1)) {
      destructuredCount++;
      out.push(destructured(rng, pool.splice(0, rng.int(1, 2)), used));
    } else if (kind === "array") {
      out.push({ text: `[${pool.splice(0, 2).join(", ")}]`, names: [] });
    } else {
      out.push(param(rng, pool.shift()));
    }
  }
  const rest = ["rest", "args", "kwargs", "more"].filter((r) => !used.has(r));
  if (rng.chance(0.2)) {
    const r = rng.pick(rest);
    out.push({ text: `...${r}`, names: [r] });
  }
  const simple = out.length > 0 && out.every((p) => /^[\w$ü]+$/.test(p.text));
  if (simple && rng.chance(0.1)) out.push({ text: out[0].text, names: [] }); // a repeated name: sloppy functions only
  const text = out.map((p) => p.text).join(", ") + (rng.chance(0.05) && out.length && !out[out.length - 1].text.startsWith("...") ? "," : "");
  return { text, names: out.flatMap((p) => p.names), unique: !(simple && out.length > 1 && out[0].text === out[out.length - 1].text) };
}

/** A Google-style docstring naming some of the parameters. */
function googleDoc(rng, names) {
  const args = names.filter(() => rng.chance(0.7)).map((n) => `    ${n}${rng.chance(0.5) ? ` (${rng.pick(TYPES)})` : ""}: ${rng.pick(["the value", "", "multi\n        line", "a: colon"])}`);
  const parts = [rng.pick(["Do the thing.", "", "Summary line.\n\nLonger description.", "Ünïcode — summary"])];
  if (args.length || rng.chance(0.2)) parts.push(`Args:\n${args.join("\n")}`);
  if (rng.chance(0.3)) parts.push(rng.pick(["Returns:\n    int: the result", "Raises:\n    ValueError: when", "Args:\n  bad indent", "Examples:\n    >>> f(1)"]));
  return parts.join("\n\n");
}

/** A reST-style docstring. */
function restDoc(rng, names) {
  const lines = [rng.pick(["Do the thing.", "", "Summary."])];
  for (const n of names) if (rng.chance(0.7)) lines.push(`:param ${rng.chance(0.3) ? `${rng.pick(TYPES)} ` : ""}${n}: ${rng.pick(["the value", ""])}`);
  if (rng.chance(0.3)) lines.push(rng.pick([":returns: x", ":rtype: int", ":param: broken", ":type a: int"]));
  return lines.join("\n");
}

/** A docstring as JS spells one: the first block comment or string literal of the body. */
function docstring(rng, names) {
  const text = rng.chance(0.5) ? googleDoc(rng, names) : restDoc(rng, names);
  return rng.weighted([
    [4, () => `/**\n${text.split("\n").map((l) => ` * ${l}`).join("\n")}\n */`],
    [2, () => `/* ${text.replaceAll("*/", "")} */`],
    [2, () => `${JSON.stringify(text)};`],
    [1, () => `\`${text.replace(/[`$\\]/g, "")}\`;`],
    [1, () => `// ${text.split("\n")[0]}`],
  ]);
}

/** The body: maybe a docstring, then the behaviour. `args` is how the body reaches its arguments. */
function body(rng, names, behaviour, args) {
  const doc = rng.chance(0.6) ? `${docstring(rng, names)}\n  ` : "";
  return `{\n  ${doc}return __tgFuzz.run(${JSON.stringify(behaviour)}, ${args});\n}`;
}

/** A function value in the tagged language with its name and the argument names it declares. */
export function genFunction(rng, behaviour) {
  const p = params(rng);
  const name = rng.pick(FN_NAMES);
  const b = body(rng, p.names, behaviour, "[...arguments]");
  const strictForms = p.unique ? [[1, "arrow"], [0.5, "asyncArrow"], [2, "method"], [0.5, "class"]] : [];
  const form = rng.weighted([[20, "function"], [3, "async"], ...strictForms, [1, "generator"], [0.5, "getter"], [0.5, "native"], [0.5, "bound"], [0.5, "anonymous"]]);
  const make = {
    function: () => tag("fn", { src: `function ${name}(${p.text}) ${b}` }),
    async: () => tag("fn", { src: `async function ${name}(${p.text}) ${b}` }),
    arrow: () => tag("fn", { src: `(${p.text}) => ${body(rng, p.names, behaviour, "[]")}` }),
    asyncArrow: () => tag("fn", { src: `async (${p.text}) => ${body(rng, p.names, behaviour, "[]")}` }),
    method: () => tag("method", { name, src: `${name}(${p.text}) ${b}` }),
    generator: () => tag("fn", { src: `function* ${name}(${p.text}) ${b}` }),
    class: () => tag("fn", { src: `class ${name} { constructor(${p.text}) {} }` }),
    getter: () => tag("getter"),
    native: () => tag("native", { v: rng.pick(["Math.max", "parseInt", "JSON.stringify", "Array.prototype.push"]) }),
    bound: () => tag("bound", { src: `function ${name}(${p.text}) ${b}` }),
    anonymous: () => tag("fn", { src: `function (${p.text}) ${b}` }),
  };
  return { fn: make[form](), form, name: form === "anonymous" || form.endsWith("rrow") ? "" : name, names: p.names };
}
