// Browsers and bundlers: fetches the .wasm, streaming when the server allows.
/** Compiles the .wasm at `url`, streaming when the server allows. Browser. */
export async function loadBrowser(url) {
  const res = fetch(url);
  if (typeof WebAssembly.compileStreaming === "function") {
    try {
      return await WebAssembly.compileStreaming(res);
    } catch {
      // wrong MIME type or no streaming: fall back to bytes
    }
  }
  const r = await fetch(url);
  if (!r.ok) throw new Error(`toolgate: fetching ${url} failed with HTTP ${r.status}`);
  return WebAssembly.compile(await r.arrayBuffer());
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
