// Boot: mounts the panels (disabled), downloads the core build with visible progress, and enables
// the page when toolgate is ready, or shows why it is not with a Retry. The full build (MCP) is the
// MCP panel's business and is only fetched when that panel is opened.
import { state, emit, setDefs, setCall, on } from "./store.js";
import { loadWasm, formatBytes } from "./loader.js";
import { installShortcuts } from "./editor.js";
import { restoreFromHash, syncHash, copyLink, isViewHash } from "./permalink.js";
import { copy, errorLine, debounce } from "./ui.js";
import { defaultDefs, defaultCall } from "./examples.js";
import * as tools from "./tools.js";
import * as call from "./call.js";
import * as providers from "./providers.js";
import * as historyPanel from "./history.js";
import * as mcp from "./mcp.js";
import { snippet } from "./codegen.js";

const $ = (id) => document.getElementById(id);
const CORE_URL = new URL("/npm/toolgate-core.wasm", location.href);

function mountPanels() {
  const panels = [[tools, "tools-panel"], [call, "call-panel"], [providers, "providers-panel"], [historyPanel, "history-panel"], [mcp, "mcp-panel"]];
  for (const [panel, id] of panels) {
    try {
      panel.mount($(id));
    } catch (e) {
      $(id).append(Object.assign(document.createElement("p"), { className: "verdict bad", textContent: `This panel failed to start: ${errorLine(e)}` }));
      console.error(e);
    }
  }
}

function setStatus(text, kind) {
  document.body.dataset.state = kind;
  $("status").textContent = text;
}

/** One attempt at loading the core build; on failure shows the cause and Retry. */
async function load() {
  const started = performance.now();
  const bar = $("load-progress");
  $("retry").hidden = true;
  bar.removeAttribute("value");
  setStatus("Downloading toolgate…", "loading");
  try {
    const module = await loadWasm(CORE_URL, {
      onProgress: ({ loaded, total }) => {
        if (total) {
          const pct = Math.min(100, Math.round((loaded / total) * 100));
          bar.value = pct;
          $("status").textContent = `Downloading toolgate: ${formatBytes(loaded)} of ${formatBytes(total)} (${pct}%)`;
        } else $("status").textContent = `Downloading toolgate: ${formatBytes(loaded)}`;
      },
    });
    $("status").textContent = "Starting toolgate…";
    const { initialize } = await import("/npm/core.browser.js");
    state.tg = await initialize({ wasmModule: module, validator: "lazy" });
    state.module = module;
    state.loadMs = Math.round(performance.now() - started);
  } catch (e) {
    setStatus(`Could not load toolgate: ${e.message}`, "failed");
    $("retry").hidden = false;
    $("retry").focus();
    return false;
  }
  const sinceOpen = Math.round(performance.now());
  setStatus(`toolgate ${state.tg.version} (${state.tg.flavor} build) is ready in ${sinceOpen} ms (download and start: ${state.loadMs} ms).`, "ready");
  $("controls").disabled = false;
  $("copy-link").disabled = false;
  $("copy-code").disabled = false;
  $("workbench").setAttribute("aria-busy", "false");
  return true;
}

async function start() {
  installShortcuts();
  mountPanels();
  $("retry").addEventListener("click", () => retry());
  $("copy-link").addEventListener("click", () => copyLink($("copy-link-status")));
  $("copy-code").addEventListener("click", () => copy(snippet(state), "the code for this view", $("copy-code-status")));
  installJumpBar();
  if (await load()) await ready();
}

async function retry() {
  if (await load()) await ready();
}

async function ready() {
  setDefs(defaultDefs(), 0);
  setCall(defaultCall(), "boot");
  emit("ready", state);
  await restoreFromHash($("workbench"), { fresh: true });
  const keep = debounce(() => syncHash().catch(() => {}), 400);
  on("tools", keep);
  on("call", keep);
  // a permalink pasted into this open tab (only the hash changes, so the page does not reload)
  window.addEventListener("hashchange", () => {
    if (isViewHash(location.hash)) restoreFromHash($("workbench"), { fresh: false });
  });
}

/**
 * The phone's jump bar (and the skip link): its links scroll to their section and move the focus there without writing
 * the hash (the address bar holds the view's permalink).
 */
function installJumpBar() {
  document.addEventListener("click", (e) => {
    const link = e.target.closest("#jump a[href^='#'], a.skip");
    const target = link && document.getElementById(link.getAttribute("href").slice(1));
    if (!target) return;
    e.preventDefault();
    if (!target.matches("textarea, input, select, button, [tabindex]")) target.setAttribute("tabindex", "-1");
    target.scrollIntoView({ block: "start" });
    target.focus({ preventScroll: true });
  });
}

start();
