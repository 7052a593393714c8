// The MCP panel's own build: the full toolgate.wasm (the page's core build has no MCP), fetched the
// first time the panel opens, with its progress bar, a failure with its cause and Retry, and
// "full build ready in X ms". One instance per page, shared by every part of the panel.
import { loadWasm, formatBytes } from "./loader.js";
import { el } from "./ui.js";

const FULL_URL = new URL("/npm/toolgate.wasm", location.href);

/**
 * The full build's loader and its UI: {node, ensure()}. ensure() starts the download once (again
 * after a failure, from Retry) and resolves to the full build's API; onReady(tg) runs when it is up.
 */
export function fullBuild(onReady) {
  const status = el("p", { id: "mcp-build-status", role: "status", "aria-live": "polite" }, "The full build (with MCP) loads when you open this panel.");
  const bar = el("progress", { id: "mcp-build-progress", max: "100", "aria-label": "Download of the full build (toolgate.wasm)", hidden: true });
  const retry = el("button", { type: "button", id: "mcp-build-retry", hidden: true }, "Retry");
  const node = el("div", { class: "mcp-build load" }, status, bar, retry);
  let pending = null;
  let tg = null;

  const show = (text, kind) => {
    status.textContent = text;
    node.dataset.state = kind;
  };

  async function attempt() {
    const started = performance.now();
    retry.hidden = true;
    bar.hidden = false;
    bar.removeAttribute("value");
    show("Downloading the full build (toolgate.wasm)…", "loading");
    try {
      const module = await loadWasm(FULL_URL, { onProgress: (p) => progress(p, bar, status) });
      show("Starting the full build and its schema validator…", "loading");
      const { initialize } = await import("/npm/index.browser.js");
      // eager: MCP servers send draft-07 schemas, which only the full validator checks
      tg = await initialize({ wasmModule: module, validator: "eager" });
    } catch (e) {
      pending = null;
      bar.hidden = true;
      show(`Could not load the full build: ${e.message}`, "failed");
      retry.hidden = false;
      retry.focus();
      return null;
    }
    bar.hidden = true;
    show(`toolgate ${tg.version} full build ready in ${Math.round(performance.now() - started)} ms.`, "ready");
    onReady(tg);
    return tg;
  }

  retry.addEventListener("click", () => {
    pending = attempt();
    retry.hidden = true;
  });
  return {
    node,
    ensure() {
      if (tg) return Promise.resolve(tg);
      pending ??= attempt();
      return pending;
    },
  };
}

function progress({ loaded, total }, bar, status) {
  if (total) {
    const pct = Math.min(100, Math.round((loaded / total) * 100));
    bar.value = pct;
    status.textContent = `Downloading the full build: ${formatBytes(loaded)} of ${formatBytes(total)} (${pct}%)`;
  } else status.textContent = `Downloading the full build: ${formatBytes(loaded)}`;
}
