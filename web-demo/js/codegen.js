// "Copy as code": the ES module that reproduces the view with the npm package: the tools as
// tg.tool(...) calls, the branch, the provider export the page's verdicts follow, and the call
// validated and invoked — one call as it is, or a whole response split with tg.parseToolCalls and
// each call checked on its own, as the page does (call-split.js). It prints the verdicts the page
// shows. A tool that did not build is kept as a comment; one whose name is taken is built but left
// out of the branch, as on the page.
import { toolOptions } from "./define.js";
import { compactJson } from "./tools-format.js";
import { splitCalls } from "./call-split.js";
import { DEFAULT_VIEW, viewCode, viewLabel } from "./export-view.js";

const HEADER = `// The toolgate playground's view as code. Save as view.mjs, then: npm install toolgate && node view.mjs
import { initialize } from "toolgate";

const tg = await initialize();
`;

/** A valid, unused JS identifier for a tool name. */
function identifier(name, taken) {
  let id = String(name || "tool").replace(/[^A-Za-z0-9_$]/g, "_");
  if (/^[0-9]/.test(id)) id = `_${id}`;
  const ok = (v) => {
    try {
      new Function(`let ${v};`);
      return !taken.has(v) && !["tg", "b", "exported", "call", "verdict", "fc", "response", "calls", "verdicts", "valid", "line", "initialize"].includes(v);
    } catch {
      return false;
    }
  };
  let out = id;
  for (let n = 2; !ok(out); n++) out = `${id}_${n}`;
  taken.add(out);
  return out;
}

/** Text indented by two spaces after its first line. */
function indentTail(text, by = "  ") {
  return text.split("\n").join(`\n${by}`);
}

/** The options object literal, or "" when there are none. */
function optionsLiteral(def) {
  const opts = toolOptions(def);
  return Object.keys(opts).length ? JSON.stringify(opts).replace(/^\{/, "{ ").replace(/\}$/, " }").replace(/,"/g, ', "').replace(/":/g, '": ') : "";
}

/** The tg.tool(...) expression of one definition. */
export function toolExpression(def) {
  if (def.kind === "function") {
    const opts = optionsLiteral(def);
    return `tg.tool(${def.source.trim()}${opts ? `, ${opts}` : ""})`;
  }
  let parameters;
  try {
    parameters = compactJson(JSON.parse(def.parameters));
  } catch {
    parameters = def.parameters;
  }
  const lines = [`  name: ${JSON.stringify(def.name)},`];
  if (def.description) lines.push(`  description: ${JSON.stringify(def.description)},`);
  lines.push(`  parameters: ${indentTail(parameters)},`);
  lines.push(`  handler: ${indentTail(def.handler.trim())},`);
  for (const [key, value] of Object.entries(toolOptions(def))) lines.push(`  ${key}: ${JSON.stringify(value)},`);
  return `tg.tool({\n${lines.join("\n")}\n})`;
}

/** The call as a literal: an object when its JSON text reads back exactly, else the text itself. */
function callLiteral(text) {
  try {
    const value = JSON.parse(text);
    // big integers would lose digits in a JS literal, and a "__proto__" key would set the prototype
    if (value && typeof value === "object" && !/\d{16,}|__proto__/.test(text)) return compactJson(value);
  } catch {
    // not JSON: the page validates the text as it is, and so does the snippet
  }
  return JSON.stringify(text);
}

/** The code that reproduces the view: tools, branch, b.validate(call) and await b.invoke(call). */
export function snippet(state) {
  const taken = new Set();
  const parts = [HEADER];
  const inBranch = [];
  const entries = state.built?.entries ?? state.defs.map((def, index) => ({ index, def, error: null }));
  for (const entry of entries) {
    const def = state.defs[entry.index] ?? entry.def;
    const expr = toolExpression(def);
    const failed = entry.error && entry.error.code !== "name-collision";
    if (failed) {
      parts.push(`// tool ${entry.index + 1} did not build (${String(entry.error.message || entry.error).split("\n")[0]}), so it is left out:\n${expr.split("\n").map((l) => `// ${l}`).join("\n")}\n`);
      continue;
    }
    const id = identifier(entry.name || (def.kind === "schema" ? def.name : (def.source.match(/function\s*\*?\s*([\w$]+)/) || [])[1]), taken);
    if (entry.error) parts.push(`// tool ${entry.index + 1}'s name is taken by an earlier tool: the branch leaves it out, as the page does`);
    else inBranch.push(id);
    parts.push(`const ${id} = ${expr};\n`);
  }
  const view = state.view || DEFAULT_VIEW;
  parts.push(`const b = tg.branch({ tools: [${inBranch.join(", ")}] });
// The page checks calls as the ${viewLabel(view)} export sees them: exporting teaches b the names it
// rewrote and strict mode's restores (the nulls a strict model sends are removed before validation).
try {
  const exported = ${viewCode(view)};
  console.log(JSON.stringify(exported.tools, null, 2));
} catch (e) {
  console.log(\`the ${viewLabel(view)} export failed (\${e.code}: \${e.message}): calls are checked on the tools as registered\`);
}
const line = (verdict) => (verdict.ok ? \`valid: \${verdict.function}\` : \`invalid: \${verdict.error.code}\`);
`);
  parts.push(whole(state) ? responseCode(state.call) : oneCallCode(state.call));
  return parts.join("\n");
}

/** True when the page splits the call text into the calls of a whole response (splitCalls). */
function whole(state) {
  if (!state.tg) return false;
  const split = splitCalls(state.tg, state.call ?? "");
  return split.length !== 1 || split[0].label !== "";
}

function oneCallCode(text) {
  return `const call = ${callLiteral(text ?? "")};
const verdict = b.validate(call);
console.log(line(verdict));
console.dir(verdict, { depth: null });
try {
  const fc = await b.invoke(call);
  console.log(\`invoke: \${fc.status}\`, fc.status === "completed" ? fc.response : fc.error);
} catch (e) {
  console.log(\`invoke refused: \${e.code}: \${e.message}\`);
}
`;
}

/** A whole response: its calls (tg.parseToolCalls), each validated, then each invoked in order. */
function responseCode(text) {
  return `// A whole response: its calls, each checked on its own.
const response = ${callLiteral(text)};
const calls = tg.parseToolCalls(response);
const verdicts = calls.map((call) => b.validate(call));
const valid = verdicts.filter((v) => v.ok).length;
if (calls.length === 0) console.log("no tool call");
if (calls.length > 1) console.log(\`\${calls.length} calls: \${valid} valid, \${calls.length - valid} refused\`);
for (const [i, verdict] of verdicts.entries()) {
  console.log(\`call \${i + 1} of \${calls.length}: \${line(verdict)}\`);
  console.dir(verdict, { depth: null });
}
for (const [i, call] of calls.entries()) {
  try {
    const fc = await b.invoke(call);
    console.log(\`call \${i + 1} invoke: \${fc.status}\`, fc.status === "completed" ? fc.response : fc.error);
  } catch (e) {
    console.log(\`call \${i + 1} invoke refused: \${e.code}: \${e.message}\`);
  }
}
`;
}
