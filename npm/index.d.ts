// toolgate: the full build (core + MCP over URLs).
import type { ToolgateMcp, InitializeOptions } from "./types.js";
export * from "./types.js";
/** The API of the full build: the core plus MCP over URLs. */
export interface Toolgate extends ToolgateMcp {}
/**
 * Loads the full build and returns its API; a second call returns the same instance. Node and browser.
 * @example const tg = await initialize(); const b = tg.branch({ tools: [tg.tool(function add(a, b) { return a + b })] })
 */
export declare function initialize(options?: InitializeOptions): Promise<Toolgate>;
