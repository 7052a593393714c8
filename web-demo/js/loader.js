// Downloads and compiles a .wasm with visible progress, a stall timeout and errors a person can act on.
// The page hands the compiled module to initialize({wasmModule}), so the file is fetched once.

/** Why a load failed: {kind: "http"|"network"|"timeout"|"corrupt"|"aborted", message}. */
export class LoadError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = "LoadError";
    this.kind = kind;
  }
}

/** Seconds without a byte (or without response headers) before a download is given up. */
export const STALL_MS = 20000;

/**
 * Fetches url and compiles it. onProgress({loaded, total}) is called as bytes arrive (total is the
 * uncompressed size when the server says it, else null). Refuses with a LoadError: an HTTP error
 * status, a network failure, no bytes for stallMs, bytes that are not WebAssembly, or signal aborted.
 */
export async function loadWasm(url, { onProgress = () => {}, stallMs = STALL_MS, signal } = {}) {
  const ctrl = new AbortController();
  const stop = () => ctrl.abort();
  signal?.addEventListener("abort", stop, { once: true });
  let stalled = false;
  let timer;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      stalled = true;
      ctrl.abort();
    }, stallMs);
  };
  const name = String(url).replace(/^.*\//, "");
  try {
    arm();
    let res;
    try {
      res = await fetch(url, { signal: ctrl.signal });
    } catch (e) {
      throw failure(e, name, stalled, signal, stallMs);
    }
    if (!res.ok) throw new LoadError("http", `the server answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""} for ${name}`);
    const total = declaredSize(res);
    const chunks = [];
    let loaded = 0;
    onProgress({ loaded, total });
    try {
      const reader = res.body.getReader();
      for (;;) {
        arm();
        const { done, value } = await reader.read();
        if (done) break;
        chunks.push(value);
        loaded += value.byteLength;
        onProgress({ loaded, total });
      }
    } catch (e) {
      throw failure(e, name, stalled, signal, stallMs, loaded);
    }
    clearTimeout(timer);
    const bytes = new Uint8Array(loaded);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    try {
      return await WebAssembly.compile(bytes);
    } catch (e) {
      throw new LoadError("corrupt", `${name} arrived (${formatBytes(loaded)}) but is not a valid WebAssembly module: ${e.message}`);
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
}

/** The uncompressed size: the demo server's x-decoded-length, or content-length when nothing is compressed. */
function declaredSize(res) {
  const decoded = Number(res.headers.get("x-decoded-length"));
  if (decoded > 0) return decoded;
  const encoded = res.headers.get("content-encoding");
  const length = Number(res.headers.get("content-length"));
  return !encoded && length > 0 ? length : null;
}

function failure(e, name, stalled, signal, stallMs, loaded = 0) {
  if (e instanceof LoadError) return e;
  if (stalled) return new LoadError("timeout", `${name}: nothing arrived for ${Math.round(stallMs / 1000)} s${loaded ? ` after ${formatBytes(loaded)}` : ""}; the connection looks stalled`);
  if (signal?.aborted) return new LoadError("aborted", `loading ${name} was cancelled`);
  return new LoadError("network", `the connection failed while ${loaded ? `downloading ${name} (after ${formatBytes(loaded)})` : `requesting ${name}`}: ${e?.message || e}. Is the server still running?`);
}

/** "1.3 MB", "420 kB", "12 B". */
export function formatBytes(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} kB`;
  return `${n} B`;
}
