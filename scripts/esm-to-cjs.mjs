// CommonJS copies of the SDK adapters (npm/lib/adapters/*.js → *.cjs), for require("toolgate/ai-sdk")
// and require("toolgate/openai-agents"). The adapters are written in the few forms this rewrites:
// `import { a, b } from "./x.js";`, `import { a, b as c } from "package";` (an SDK the adapter is
// for) and top-level `export function` / `export const`; anything else
// an adapter writes with import/export stops the build, so a copy never silently differs.
import { readFileSync, writeFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** An import list as a destructuring list: `a as b` becomes `a: b`. */
function renames(list) {
  return list.replace(/([A-Za-z_$][\w$]*)\s+as\s+([A-Za-z_$][\w$]*)/g, "$1: $2");
}

const dir = process.argv[2];
for (const f of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
  const names = [];
  const body = readFileSync(join(dir, f), "utf8")
    .replace(/^import \{([^}]*)\} from "(\.{1,2}\/[^"]+)\.js";$/gm, (_m, list, path) => `const {${renames(list)}} = require("${path}.cjs");`)
    .replace(/^import \{([^}]*)\} from "((?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w.-]+)*)";$/gm, (_m, list, pkg) => `const {${renames(list)}} = require("${pkg}");`)
    .replace(/^export (async function|function|const) ([A-Za-z_$][\w$]*)/gm, (_m, kind, name) => {
      names.push(name);
      return `${kind} ${name}`;
    });
  const left = body.split("\n").findIndex((l) => /^\s*(import|export)\b/.test(l));
  if (left >= 0) throw new Error(`${f}:${left + 1}: a form esm-to-cjs.mjs does not rewrite`);
  const out = `// Generated from ${f} by scripts/esm-to-cjs.mjs (make). Do not edit.\n"use strict";\n${body}\nmodule.exports = { ${names.join(", ")} };\n`;
  writeFileSync(join(dir, f.replace(/\.js$/, ".cjs")), out);
}
