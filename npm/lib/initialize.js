// initialize(): loads the module once per entry. Node and browser.
import { ToolgateError, checkOptions } from "./errors.js";
import { GoInstance } from "./instance.js";
import { createApi } from "./api.js";
import { VERSION } from "./version.js";
import { SYNC_OPS } from "./contract.js";

/**
 * Returns an initialize() for one build ("core" or "full"). `load(url)`
 * resolves to a compiled WebAssembly.Module; `build` is what the build adds
 * to the core API (see createApi; the full build passes mcp.js's mcpBuild).
 */
export function makeInitialize(flavor, defaultURL, load, build) {
  let ready = null;
  return function initialize(opts) {
    let o;
    try {
      o = checkOptions(opts, ["wasmURL", "wasmModule"], "initialize");
    } catch (e) {
      return Promise.reject(e);
    }
    if (ready) return ready;
    ready = (async () => {
      let module = o.wasmModule;
      if (module !== undefined && !(module instanceof WebAssembly.Module)) {
        throw new ToolgateError("unsupported-type", "initialize: wasmModule must be a WebAssembly.Module");
      }
      if (!module) module = await load(o.wasmURL ?? defaultURL);
      const inst = new GoInstance(module, VERSION, SYNC_OPS[flavor]);
      await inst.startAsync();
      return Object.freeze(createApi(inst, flavor, build));
    })();
    ready.catch(() => {
      ready = null; // a failed initialize can be retried
    });
    return ready;
  };
}
