// Browsers and bundlers: fetches the .wasm once, compiling while it streams when the server allows.
/**
 * Compiles the .wasm at `url`. One request: an HTTP error status is refused with the status, and a
 * body that is not WebAssembly with the compiler's message (never fetched a second time). Streams
 * when the server sends application/wasm; otherwise compiles the bytes. Browser.
 */
export async function loadBrowser(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`toolgate: fetching ${url} failed with HTTP ${r.status}`);
  const streams = typeof WebAssembly.compileStreaming === "function" && /^application\/wasm\b/i.test(r.headers.get("content-type") || "");
  try {
    return await (streams ? WebAssembly.compileStreaming(r) : WebAssembly.compile(await r.arrayBuffer()));
  } catch (e) {
    throw new Error(`toolgate: ${url} is not a valid WebAssembly module: ${e?.message ?? e}`);
  }
}

/** Where the validator module's bytes come from in browsers: fetched in the background after initialize. */
export const browserValidatorSource = {
  readsSync: () => false,
  readSync: null,
  async fetch(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`toolgate: fetching ${url} failed with HTTP ${r.status}`);
    return new Uint8Array(await r.arrayBuffer());
  },
};
