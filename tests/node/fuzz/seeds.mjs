// Seed files: one JSON file per case that once failed, {signature, found, case}; the case is the
// tagged-language JSON the generator wrote (then shrunk), so replaying it needs no generator.
// The Ajv differential's seeds are {kind: "ajv", signature, found, case: {schema, instances}}.
import { readdirSync, readFileSync, writeFileSync, existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { createHash } from "node:crypto";

/** Every seed file of dir, sorted by name: [{file, signature, found, case}]. */
export function readSeeds(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((f) => f.endsWith(".json")).sort().map((file) => {
    const data = JSON.parse(readFileSync(join(dir, file), "utf8"));
    if (!data.case || typeof data.signature !== "string") throw new Error(`fuzz seed ${file}: want {signature, case}`);
    return { file, ...data };
  });
}

/** A file name for a failure: its signature, slugged, and a hash of the case. */
function seedName(signature, c) {
  const slug = signature.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60);
  const hash = createHash("sha256").update(JSON.stringify(c)).digest("hex").slice(0, 8);
  return `${slug}-${hash}.json`;
}

/** Writes a seed file into dir (kind "ajv" for the Ajv differential's); returns its name. */
export function writeSeed(dir, { signature, found, c, kind }) {
  mkdirSync(dir, { recursive: true });
  const file = (kind ? `${kind}-` : "") + seedName(signature, c);
  writeFileSync(join(dir, file), `${JSON.stringify({ ...(kind ? { kind } : {}), signature, found, case: c }, null, 2)}\n`);
  return file;
}

/** The fields of a tagged value that hold values of the language, which shrinking may edit. */
const TAG_CONTENTS = { text: ["v"], nullproto: ["o"], map: ["e"], set: ["e"], dupkeys: ["e"], deep: ["leaf"], stdschema: ["json"], tojsonschema: ["json"] };

/** The edit paths of every node of v below the root, parents first: a tagged value's own fields and behaviours stay whole. */
function paths(v, at = [], out = []) {
  if (v === null || typeof v !== "object") return out;
  const keys = typeof v.$fz === "string" ? TAG_CONTENTS[v.$fz] ?? [] : Array.isArray(v) ? [...v.keys()] : Object.keys(v);
  for (const k of keys) {
    if (!(k in v)) continue;
    out.push([...at, k]);
    paths(v[k], [...at, k], out);
  }
  return out;
}

/** A copy of root with the node at path removed (remove) or replaced by `value`. */
function edited(root, path, edit) {
  const copy = JSON.parse(JSON.stringify(root)); // keeps own "__proto__" keys own
  let parent = copy;
  for (const k of path.slice(0, -1)) parent = parent[k];
  const last = path[path.length - 1];
  if (edit.remove) {
    if (Array.isArray(parent)) parent.splice(last, 1);
    else delete parent[last];
  } else {
    Object.defineProperty(parent, last, { value: edit.value, enumerable: true, writable: true, configurable: true });
  }
  return copy;
}

/** Smaller replacements for a node: removal, null, a shorter string, a smaller number, its only child. */
function simpler(v) {
  const out = [{ remove: true }];
  if (v !== null) out.push({ value: null });
  if (typeof v === "string" && v.length > 1) out.push({ value: v.slice(0, Math.floor(v.length / 2)) }, { value: "" });
  if (typeof v === "number" && v !== 0) out.push({ value: 0 });
  if (v && typeof v === "object" && !v.$fz) {
    const kids = Object.values(v);
    if (kids.length === 1 && kids[0] && typeof kids[0] === "object") out.push({ value: kids[0] });
    if (!Array.isArray(v) && Object.keys(v).length) out.push({ value: {} });
  }
  return out;
}

function safely(allowed, cand) {
  try {
    return allowed(cand);
  } catch {
    return false;
  }
}

/**
 * Shrinks case c while `stillFails(candidate)` (async) holds: removes and simplifies nodes, one at a
 * time, until nothing more can go or the budget runs out. `allowed(candidate)` vetoes candidates
 * (those that could hang). Returns the smallest failing case found.
 */
export async function shrink(c, stillFails, { allowed = () => true, budgetMs = 30000 } = {}) {
  const deadline = performance.now() + budgetMs;
  let best = c;
  let progress = true;
  while (progress && performance.now() < deadline) {
    progress = false;
    for (const path of paths(best)) {
      let node = best;
      for (const k of path) node = node?.[k];
      for (const edit of simpler(node)) {
        if (performance.now() > deadline) return best;
        const cand = edited(best, path, edit);
        if (JSON.stringify(cand) === JSON.stringify(best) || !safely(allowed, cand)) continue;
        if (await stillFails(cand)) {
          best = cand;
          progress = true;
          break;
        }
      }
      if (progress) break;
    }
  }
  return best;
}
