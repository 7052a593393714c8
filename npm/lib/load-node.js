// Node: reads the .wasm file from the package (or a given URL/path).
import { readFile } from "node:fs/promises";
import { readFileSync } from "node:fs";

/** Compiles the .wasm at `url` (a file: URL read from disk, else fetched). Node. */
export async function loadNode(url) {
  return WebAssembly.compile(await fetchNode(url));
}

/** The bytes at `url`: a file: URL read from disk, else fetched. Node. */
async function fetchNode(url) {
  const u = url instanceof URL ? url : new URL(url, import.meta.url);
  return u.protocol === "file:" ? await readFile(u) : new Uint8Array(await (await fetch(u)).arrayBuffer());
}

/** Where the validator module's bytes come from in Node: read at once from a file when a schema needs it. */
export const nodeValidatorSource = {
  readsSync(url) {
    return (url instanceof URL ? url : new URL(url, import.meta.url)).protocol === "file:";
  },
  readSync(url) {
    const u = url instanceof URL ? url : new URL(url, import.meta.url);
    return u.protocol === "file:" ? readFileSync(u) : null;
  },
  fetch: fetchNode,
};
