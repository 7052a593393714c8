// tg.parseToolCalls: every tool call of a provider response, ready for match/validate/invoke.
// Node and browser.
import { ToolgateError, readInput } from "./errors.js";
import { toJSON, reviveBigints } from "./json.js";
import { OP } from "./contract.js";
import { checkRequestText } from "./size-limits.js";

/**
 * Every tool call of a provider response (an OpenAI Chat completion or assistant message, a
 * Responses response or its output, an Anthropic message or its content, a Gemini response, Content
 * or parts, a LangChain AIMessage, or one call), in order, as [{id, function, arguments, provider}]:
 * Go reads it (core.ParseToolCalls). `response` is an object or its JSON text (an AIMessage crosses
 * as JSON.stringify writes it, through its toJSON); integers beyond ±(2^53−1) come back as BigInts.
 * Throws invalid-request for a value that is no provider response (a stream's chunk or event: issue
 * keyword "streamed"; a list of messages, one choice: "shape"), and for one over 32 MiB of JSON
 * (keyword maxBytes, refused on its length before Go reads it). Node and browser.
 * @example for (const call of tg.parseToolCalls(completion)) results.push(await b.invoke(call))
 */
export function parseToolCalls(ctx, response) {
  const text = typeof response === "string" ? response : readInput("parseToolCalls", "response", "invalid-request", () => {
    if (response === undefined || typeof response === "function" || typeof response === "symbol") {
      throw new ToolgateError("invalid-request", `parseToolCalls: want a provider response (an object or its JSON text), got ${typeof response}`);
    }
    checkRequestText(response, "the provider response");
    return toJSON(response, { code: "invalid-request", what: "the provider response" });
  });
  checkRequestText(text, "the provider response"); // on its length, before it crosses (size-limits.js)
  const calls = JSON.parse(ctx.inst.call(OP.providerParseToolCalls, 0, text));
  for (const c of calls) {
    if (c.bigints) {
      reviveBigints(c.arguments, c.bigints);
      delete c.bigints;
    }
  }
  return calls;
}
