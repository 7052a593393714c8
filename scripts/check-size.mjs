// The size rules of the npm package's JS, for `make lint` (size_test.go
// holds the Go half): no function longer than 80 lines, and lib/api.js,
// which only assembles, under 80 lines. Functions are found with the
// TypeScript parser (a dev dependency), so nothing is guessed from braces.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";

const MAX_FUNCTION_LINES = 80;
const MAX_API_LINES = 80;
const root = join(import.meta.dirname, "..");
const files = [
  ...readdirSync(join(root, "npm")).filter((f) => /\.(m?js|cjs)$/.test(f) && f !== "wasm_exec.js").map((f) => join("npm", f)),
  ...readdirSync(join(root, "npm/lib")).filter((f) => /\.(m?js|cjs)$/.test(f)).map((f) => join("npm/lib", f)),
  ...readdirSync(join(root, "npm/lib/adapters")).filter((f) => /\.js$/.test(f)).map((f) => join("npm/lib/adapters", f)),
  "web-demo/serve.mjs",
  ...readdirSync(join(root, "web-demo/js")).filter((f) => /\.js$/.test(f)).map((f) => join("web-demo/js", f)),
];

let problems = 0;
function complain(msg) {
  console.error(msg);
  problems++;
}

for (const rel of files) {
  const text = readFileSync(join(root, rel), "utf8");
  const src = ts.createSourceFile(rel, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const first = src.getLineAndCharacterOfPosition(node.getStart(src)).line;
      const last = src.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_FUNCTION_LINES) {
        const name = node.name?.getText(src) ?? "(anonymous)";
        complain(`${rel}:${first + 1}: function ${name} is ${last - first + 1} lines, more than ${MAX_FUNCTION_LINES}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(src);
}
const apiLines = readFileSync(join(root, "npm/lib/api.js"), "utf8").split("\n").length - 1;
if (apiLines >= MAX_API_LINES) complain(`npm/lib/api.js is ${apiLines} lines; it only assembles the API and stays under ${MAX_API_LINES}`);
console.log(`check-size: ${files.length} files, ${problems} problem(s)`);
process.exit(problems ? 1 : 0);
