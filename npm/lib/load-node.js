// Node: reads the .wasm file from the package (or a given URL/path).
import { readFile } from "node:fs/promises";

/** Compiles the .wasm at `url` (a file: URL read from disk, else fetched). Node. */
export async function loadNode(url) {
  const u = url instanceof URL ? url : new URL(url, import.meta.url);
  const bytes = u.protocol === "file:" ? await readFile(u) : new Uint8Array(await (await fetch(u)).arrayBuffer());
  return WebAssembly.compile(bytes);
}
