// toolgate/core: the core build (no MCP, no network).
import type { ToolgateCore, InitializeOptions } from "./types.js";
export * from "./types.js";
/**
 * Loads the core build and returns its API; a second call returns the same instance. Node and browser.
 * @example const tg = await initialize(); const b = tg.branch({ tools: [tg.tool(function add(a, b) { return a + b })] })
 */
export declare function initialize(options?: InitializeOptions): Promise<ToolgateCore>;
