// A user's app bundled by esbuild, the .wasm files copied beside the bundle (docs/bundlers.md).
import { run } from "./run.js";
import { initialize } from "toolgate";

run(() => initialize());
