// Deferred tools and tool search: the search tool a branch with deferred tools registers, and
// the calls into Go's index (core/toolsearch.go). Node and browser.
import { ToolgateError, describe } from "./errors.js";
import { tool } from "./tool.js";
import { OP } from "./contract.js";

/** The name of toolgate's search tool in a branch with deferred tools. */
export const SEARCH_TOOL_NAME = "tool_search";

const SEARCH_DESCRIPTION =
  "Searches the tools that are not loaded yet by name, description and parameter names. " +
  "The tools it returns become available to call on the next turn.";

const SEARCH_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string", description: "Words describing the tool you need." },
    limit: { type: "integer", minimum: 1, maximum: 50, description: "How many tools to return (default 5)." },
  },
  required: ["query"],
  additionalProperties: false,
};

/**
 * The hits of a search in Go's index of the branch's deferred tools: [{name, description,
 * parameters}], best first, ties by name. `reveal` makes them part of later exports.
 */
export function searchTools(ctx, handle, query, opts, reveal) {
  if (typeof query !== "string") {
    throw new ToolgateError("invalid-arguments", `searchTools: query must be a string, got ${describe(query)}`, { issues: [{ path: "/query", keyword: "type", message: "query must be a string" }] });
  }
  const limit = opts.limit ?? 0;
  if (!Number.isInteger(limit)) {
    throw new ToolgateError("invalid-arguments", `searchTools: limit must be an integer, got ${describe(limit)}`, { issues: [{ path: "/limit", keyword: "type", message: "limit must be an integer" }] });
  }
  return ctx.inst.callJSON(OP.branchSearchTools, handle, JSON.stringify({ query, limit, reveal: !!reveal }));
}

/** The search tool of branch `b`: a typed tool whose handler searches and reveals. */
export function searchTool(ctx, b) {
  return tool(ctx, {
    name: SEARCH_TOOL_NAME,
    description: SEARCH_DESCRIPTION,
    parameters: SEARCH_PARAMETERS,
    handler: ({ query, limit }) => ({ tools: b.searchTools(query, { limit, reveal: true }) }),
  });
}
