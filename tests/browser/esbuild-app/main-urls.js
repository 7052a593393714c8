// A user's app bundled by esbuild with --loader:.wasm=file: the .wasm files are imported (esbuild
// copies them, hashed, and gives their paths relative to the bundle) and their URLs handed to
// initialize (docs/bundlers.md).
import { run } from "./run.js";
import { initialize } from "toolgate";
import wasmURL from "toolgate/toolgate.wasm";
import validatorURL from "toolgate/toolgate-validator.wasm";

run(() => initialize({ wasmURL: new URL(wasmURL, import.meta.url), validatorURL: new URL(validatorURL, import.meta.url) }));
