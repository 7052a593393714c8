// Browsers and bundlers: fetches the .wasm once, compiling while it streams when the server allows.

/**
 * What the error of a .wasm that could not be had adds: the usual cause in a bundled app (a bundler
 * that copied no .wasm, so the URL is a 404 or the app's HTML) and where the fix is.
 */
const BUNDLER_HINT =
  "; a bundled app needs toolgate's .wasm files served beside the bundle (copy them) or their URLs passed as initialize({ wasmURL, validatorURL }): see toolgate's docs/bundlers.md";
/**
 * Compiles the .wasm at `url`. One request: an HTTP error status is refused with the status, and a
 * body that is not WebAssembly with the compiler's message (never fetched a second time). Streams
 * when the server sends application/wasm; otherwise compiles the bytes. Browser.
 */
export async function loadBrowser(url) {
  const r = await fetch(url);
  if (!r.ok) throw new Error(`toolgate: fetching ${url} failed with HTTP ${r.status}${BUNDLER_HINT}`);
  const streams = typeof WebAssembly.compileStreaming === "function" && /^application\/wasm\b/i.test(r.headers.get("content-type") || "");
  try {
    return await (streams ? WebAssembly.compileStreaming(r) : WebAssembly.compile(await r.arrayBuffer()));
  } catch (e) {
    throw new Error(`toolgate: ${url} is not a valid WebAssembly module: ${e?.message ?? e}${BUNDLER_HINT}`);
  }
}

/** Where the validator module's bytes come from in browsers: fetched in the background after initialize. */
export const browserValidatorSource = {
  readsSync: () => false,
  readSync: null,
  async fetch(url) {
    const r = await fetch(url);
    if (!r.ok) throw new Error(`toolgate: fetching ${url} failed with HTTP ${r.status}${BUNDLER_HINT}`);
    const bytes = new Uint8Array(await r.arrayBuffer());
    // A server that answers every path with the app's HTML (a single-page app's fallback) sends 200.
    if (bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
      throw new Error(`toolgate: ${url} is not a WebAssembly module (it does not start with \\0asm; ${r.headers.get("content-type") || "no content-type"})${BUNDLER_HINT}`);
    }
    return bytes;
  },
};
