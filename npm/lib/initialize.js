// initialize(): loads the module once per entry. Node and browser.
import { ToolgateError, checkOptions } from "./errors.js";
import { GoInstance } from "./instance.js";
import { ValidatorModule } from "./validator.js";
import { createApi } from "./api.js";
import { VERSION } from "./version.js";
import { SYNC_OPS } from "./contract.js";

/** The values of initialize's `validator` option. */
const VALIDATOR_MODES = ["lazy", "eager", "never"];

/**
 * Returns an initialize() for one build ("core" or "full"). `load(url)`
 * resolves to a compiled WebAssembly.Module; `build` is what the build adds
 * to the core API (see createApi; the full build passes mcp.js's mcpBuild).
 * `validatorURL` is the validator module's default URL, and `validatorSource`
 * how its bytes are read (load-node.js, load-browser.js).
 */
export function makeInitialize(flavor, defaultURL, load, build, validatorURL, validatorSource) {
  let ready = null;
  return function initialize(opts) {
    let o;
    try {
      o = checkOptions(opts, ["wasmURL", "wasmModule", "validator", "validatorURL", "validatorModule"], "initialize");
      if (o.validator !== undefined && !VALIDATOR_MODES.includes(o.validator)) {
        throw new ToolgateError("unsupported-type", `initialize: validator must be one of ${VALIDATOR_MODES.map((m) => `"${m}"`).join(", ")}, got ${JSON.stringify(o.validator)}`);
      }
      if (o.validatorModule !== undefined && !(o.validatorModule instanceof WebAssembly.Module)) {
        throw new ToolgateError("unsupported-type", "initialize: validatorModule must be a WebAssembly.Module");
      }
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
      const mode = o.validator ?? "lazy";
      const vURL = o.validatorURL ?? validatorURL;
      const validator = new ValidatorModule(mode, vURL, o.validatorModule, validatorSource);
      if (mode === "eager") await validator.load();
      const inst = new GoInstance(module, VERSION, SYNC_OPS[flavor]);
      inst.validator = validator.call;
      inst.validatorModule = validator; // tg.ready("validator") and the debug counts
      await inst.startAsync();
      if (mode === "lazy" && !o.validatorModule && !validatorSource.readsSync(vURL)) validator.prefetch(); // in the background
      return Object.freeze(createApi(inst, flavor, build));
    })();
    ready.catch(() => {
      ready = null; // a failed initialize can be retried
    });
    return ready;
  };
}
