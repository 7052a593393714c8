// tg.toolCallStream: a provider's streamed tool calls accumulated event by event, each call's
// arguments judged as they arrive, and its first certain refusal reported before the stream ends
// (docs/providers-calls.md, "Streamed calls"). Node and browser.
import { ToolgateError, describe } from "./errors.js";
import { toJSON } from "./json.js";
import { PartialJSON } from "./partial-json.js";
import { parseToolCalls } from "./provider-calls.js";
import { Branch } from "./branch.js";

/** Keywords that tie one member's verdict to others or to what is still to come: a schema with any of them is judged only once a call is complete. */
const LINKED = new Set(["anyOf", "oneOf", "allOf", "not", "if", "then", "else", "$ref", "$dynamicRef", "$recursiveRef", "dependentSchemas", "dependentRequired", "dependencies", "unevaluatedProperties", "unevaluatedItems"]);
/** Keywords an open container can already break for good: more members or items only add to it. */
const GROWING = new Set(["maxItems", "maxProperties", "uniqueItems"]);
/** The most calls one stream may carry (a stream past it is refused). */
export const MAX_STREAM_CALLS = 512;

/** The parameters schema of the tool registered as name, read for that one tool (not the whole registry), or undefined. */
function parametersOf(b, name) {
  try {
    return b.getToolSchema(name, { autoRegister: false })?.tools?.function?.parameters;
  } catch {
    return undefined; // judged when complete
  }
}

/** Whether a parameters schema has no keyword linking members (see LINKED), so a complete member's issues are final. */
function independent(schema, depth = 0) {
  if (schema === null || typeof schema !== "object") return true;
  if (depth > 64) return false;
  if (Array.isArray(schema)) return schema.every((s) => independent(s, depth + 1));
  for (const [k, v] of Object.entries(schema)) {
    if (LINKED.has(k)) return false;
    if (k === "enum" || k === "const" || k === "default" || k === "examples") continue; // values, not schemas
    if (!independent(v, depth + 1)) return false;
  }
  return true;
}

/** The subschema of schema at a JSON pointer of the instance (properties, additionalProperties, prefixItems, items), or undefined. */
function schemaAt(schema, path) {
  let s = schema;
  for (const raw of path.split("/").slice(1)) {
    if (s === null || typeof s !== "object") return undefined;
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (s.properties && Object.hasOwn(s.properties, key)) s = s.properties[key];
    else if (/^\d+$/.test(key) && (Array.isArray(s.prefixItems) || s.items !== undefined)) s = s.prefixItems?.[Number(key)] ?? s.items;
    else s = typeof s.additionalProperties === "object" ? s.additionalProperties : undefined;
  }
  return s;
}

/** Whether a string that starts with prefix can no longer be one of schema's `enum` or its `const` (strings only). */
function cannotComplete(schema, prefix) {
  if (!schema || typeof schema !== "object") return false;
  if (typeof schema.const === "string" && !schema.const.startsWith(prefix)) return true;
  const e = schema.enum;
  return Array.isArray(e) && e.length > 0 && e.every((v) => typeof v === "string") && !e.some((v) => v.startsWith(prefix));
}

/** Whether an issue at a path can no longer go away, given what marks says is complete. */
function certain(issue, marks, refusedPrefix) {
  const p = issue.path;
  if (marks.done.has("")) return true;
  for (let i = p.indexOf("/", 1); ; i = p.indexOf("/", i + 1)) {
    if (marks.done.has(i < 0 ? p : p.slice(0, i))) return true;
    if (i < 0) break;
  }
  if (issue.keyword === "additionalProperties" && marks.keyOnly.has(p)) return true;
  if (GROWING.has(issue.keyword) && marks.open.has(p)) return true;
  return refusedPrefix === p && (issue.keyword === "enum" || issue.keyword === "const");
}

/**
 * One provider stream's tool calls. `push(event)` takes the next event or chunk as the SDK yields
 * it (OpenAI Chat `chat.completion.chunk`s, Responses stream events, Anthropic message stream
 * events, Gemini `GenerateContentResponse` chunks) and returns the refusals it found, each call's
 * first and only: {index, id, function, error, complete}, `error` a ToolgateError carrying the
 * call id (so `tg.toolResult(r.error, target)` answers it), `complete` false when it came before
 * the call's arguments ended. `calls()` gives every call as `tg.parseToolCalls` gives a whole
 * response's. Refuses with invalid-request an event of no known stream, or of another provider
 * than the stream's first. Node and browser.
 */
export class ToolCallStream {
  #ctx;
  #branch;
  #provider = null;
  #calls = new Map(); // key → call
  #refusals = [];

  constructor(ctx, branch) {
    if (!(branch instanceof Branch)) {
      throw new ToolgateError("invalid-request", `toolCallStream: want a branch (tg.branch()), got ${describe(branch)}`);
    }
    this.#ctx = ctx;
    this.#branch = branch;
  }

  /** The provider the stream's events are from ("openai-chat", "openai-responses", "anthropic", "gemini"), once known. */
  get provider() {
    return this.#provider;
  }

  /** Every refusal reported so far, in order. */
  get refusals() {
    return [...this.#refusals];
  }

  push(event) {
    if (event === null || typeof event !== "object") {
      throw new ToolgateError("invalid-request", `toolCallStream.push: want a stream event or chunk (an object), got ${describe(event)}`);
    }
    if (event.type === "raw_model_stream_event" || event.type === "run_item_stream_event" || event.type === "agent_updated_stream_event") {
      // Agents JS's run stream: only its raw model events carry the provider's own events
      const inner = event.type === "raw_model_stream_event" && event.data?.type === "model" ? event.data.event : undefined;
      return inner && typeof inner === "object" ? this.push(inner) : [];
    }
    const kind = streamKind(event);
    if (!kind) {
      throw new ToolgateError("invalid-request", "toolCallStream.push: this is not an event of an OpenAI Chat, OpenAI Responses, Anthropic, Gemini, AI SDK, Agents JS or LangChain stream (pass each event, part or chunk the SDK's stream yields, as it is)");
    }
    if (this.#provider && kind !== this.#provider) {
      throw new ToolgateError("invalid-request", `toolCallStream.push: an ${kind} event in a stream of ${this.#provider} events: use one toolCallStream per stream`);
    }
    this.#provider = kind;
    const held = this.#calls;
    const calls = { call: (key) => this.#call(key), find: (key) => held.get(key), entries: () => held.entries(), get size() { return held.size; } };
    const touched = READERS[kind](event, calls);
    const found = [];
    for (const c of touched) {
      const r = this.#judge(c);
      if (r) found.push(r);
    }
    return found;
  }

  /**
   * Ends the stream: every call not yet ended is judged whole, and the refusals found are
   * returned (for streams whose events do not say when a call ends, as LangChain's chunks).
   */
  end() {
    const found = [];
    for (const c of this.#calls.values()) {
      if (c.done) continue;
      c.done = true;
      c.nameDone = true;
      const r = this.#judge(c);
      if (r) found.push(r);
    }
    return found;
  }

  /** Every call, in order, as tg.parseToolCalls reads the whole response ([{id, function, arguments, provider}]). */
  calls() {
    const list = [...this.#calls.values()];
    if (list.length === 0) return [];
    return list.flatMap((c) => {
      try {
        return parseToolCalls(this.#ctx, wholeResponse(RULES_OF[this.#provider] ?? this.#provider, [c]));
      } catch {
        return [{ id: c.id ?? null, function: c.name, arguments: c.args.text, provider: RULES_OF[this.#provider] ?? this.#provider }]; // not JSON: b.invoke refuses it as it would any
      }
    });
  }

  /** A call with these arguments as parseToolCalls gives it, for b.validate. */
  #request(c, args) {
    const r = { function: c.name, arguments: args, provider: RULES_OF[this.#provider] ?? this.#provider };
    if (c.id) r.id = c.id;
    return r;
  }

  #call(key) {
    let c = this.#calls.get(key);
    if (!c) {
      if (this.#calls.size >= MAX_STREAM_CALLS) {
        throw new ToolgateError("invalid-request", `toolCallStream.push: a stream of more than ${MAX_STREAM_CALLS} tool calls`);
      }
      c = { index: this.#calls.size, id: undefined, name: "", nameDone: false, args: new PartialJSON(), done: false, refused: false, seen: -1, seenPrefix: null, tool: undefined };
      this.#calls.set(key, c);
    }
    return c;
  }

  /** The call's first certain refusal, once, or undefined. */
  #judge(c) {
    if (c.refused || !c.nameDone) return undefined;
    const error = this.#refusal(c);
    if (!error) return undefined;
    c.refused = true;
    if (c.id) error.callId = c.id;
    const r = { index: c.index, id: c.id, function: c.name, error, complete: c.done };
    this.#refusals.push(r);
    return r;
  }

  #refusal(c) {
    const b = this.#branch;
    if (c.tool === undefined) {
      const r = b.validate({ function: c.name, arguments: {} });
      if (!r.ok && r.error.code === "tool-not-found") return r.error;
      const name = r.ok ? r.function : r.error.tool;
      const params = parametersOf(b, name);
      c.tool = { name, judged: independent(params) ? params : null };
    }
    const a = c.args;
    if (a.error?.keyword === "json") {
      const r = b.validate(this.#request(c, a.text.slice(0, a.error.at + 1))); // Go finds the same first error in the whole text
      if (!r.ok) return r.error;
    }
    if (a.error) {
      return new ToolgateError("invalid-arguments", `the arguments of tool ${JSON.stringify(c.tool.name)} are refused: ${a.error.message}`,
        { tool: c.tool.name, issues: [{ path: "", keyword: a.error.keyword, message: a.error.message }] });
    }
    if (c.done) {
      const r = b.validate(this.#request(c, a.text === "" ? "{}" : a.text));
      return r.ok ? undefined : r.error;
    }
    if (!c.tool.judged) return undefined; // linked schemas: judged when complete
    const open = a.openString();
    let refusedPrefix = null;
    const override = {};
    if (open && cannotComplete(schemaAt(c.tool.judged, open.path), open.prefix)) {
      refusedPrefix = open.path;
      override[open.path] = JSON.stringify(open.prefix);
    }
    if (a.completions === c.seen && refusedPrefix === c.seenPrefix) return undefined; // nothing new to judge
    c.seen = a.completions;
    c.seenPrefix = refusedPrefix;
    const { text, marks } = a.skeleton(override);
    const r = b.validate(this.#request(c, text));
    if (r.ok || r.error.code !== "invalid-arguments") return undefined;
    const issues = (r.error.issues ?? []).filter((is) => certain(is, marks, refusedPrefix));
    if (issues.length === 0) return undefined;
    const said = issues.map((is) => is.message).join("; ");
    return new ToolgateError("invalid-arguments",
      `the arguments of tool ${JSON.stringify(c.tool.name)} cannot become valid, whatever the rest of the stream holds: ${said.length > 3800 ? `${said.slice(0, 3800)}…` : said}`,
      { tool: c.tool.name, issues });
  }
}

/** Which provider's stream an event is from, or undefined. */
function streamKind(e) {
  if (Array.isArray(e.tool_call_chunks)) return "langchain";
  if (typeof e.type === "string" && AI_SDK_PARTS.has(e.type)) return "ai-sdk";
  if (e.object === "chat.completion.chunk" || (Array.isArray(e.choices) && e.choices.some((c) => c && typeof c === "object" && "delta" in c))) return "openai-chat";
  if (typeof e.type === "string") {
    if (e.type.startsWith("response.")) return "openai-responses";
    if (ANTHROPIC_EVENTS.has(e.type)) return "anthropic";
  }
  if (Array.isArray(e.candidates) || (e.usageMetadata && typeof e.usageMetadata === "object") || e.promptFeedback) return "gemini";
  return undefined;
}

/** The AI SDK's stream parts (streamText's fullStream). */
const AI_SDK_PARTS = new Set(["start", "finish", "start-step", "finish-step", "text-start", "text-delta", "text-end", "reasoning-start", "reasoning-delta", "reasoning-end",
  "tool-input-start", "tool-input-delta", "tool-input-end", "tool-call", "tool-result", "tool-error", "tool-output-denied", "tool-approval-request", "source", "file", "raw", "abort"]);
/** Whose argument rules a stream's calls follow when its provider is an SDK of several (the AI SDK's, LangChain's: OpenAI Chat's). */
const RULES_OF = { "ai-sdk": "openai-chat", langchain: "openai-chat" };

const ANTHROPIC_EVENTS = new Set(["message_start", "content_block_start", "content_block_delta", "content_block_stop", "message_delta", "message_stop", "ping", "error"]);

/** A string member, or "". */
function s(v) {
  return typeof v === "string" ? v : "";
}

/** The arguments a provider gives whole at a call's end: they replace what the deltas built, if different. */
function finalArguments(c, text) {
  if (text !== c.args.text) {
    c.args = new PartialJSON();
    c.args.push(text);
  }
  c.done = true;
}

/**
 * Each provider's events into calls. A reader gets the event and the stream's calls (`call(key)`
 * finds or starts one, `find(key)` only finds, `entries()` lists [key, call]) and returns the calls
 * the event touched.
 */
const READERS = {
  "openai-chat"(e, calls) {
    const touched = new Set();
    for (const ch of Array.isArray(e.choices) ? e.choices : []) {
      const choice = ch?.index ?? 0;
      for (const d of Array.isArray(ch?.delta?.tool_calls) ? ch.delta.tool_calls : []) {
        const c = calls.call(`${choice}:${d?.index ?? 0}`);
        if (s(d.id) && !c.id) c.id = d.id;
        const name = s(d.function?.name);
        if (name && name !== c.name) c.name += name; // a name cut in pieces is joined, one sent again is not
        const args = s(d.function?.arguments);
        if (args) {
          c.nameDone = true; // arguments follow the name: it is whole
          c.args.push(args);
        }
        touched.add(c);
      }
      if (ch?.finish_reason) {
        for (const [key, c] of calls.entries()) {
          if (key.startsWith(`${choice}:`)) {
            c.nameDone = true;
            c.done = true;
            touched.add(c);
          }
        }
      }
    }
    return touched;
  },
  "openai-responses"(e, calls) {
    const item = e.item;
    if ((e.type === "response.output_item.added" || e.type === "response.output_item.done") && item?.type === "function_call") {
      const c = calls.call(s(item.id) || `#${e.output_index}`);
      c.id = s(item.call_id) || c.id;
      c.name = s(item.name) || c.name;
      c.nameDone = true;
      if (e.type === "response.output_item.done") finalArguments(c, s(item.arguments));
      else if (s(item.arguments)) c.args.push(item.arguments);
      return [c];
    }
    if (e.type === "response.function_call_arguments.delta" || e.type === "response.function_call_arguments.done") {
      const c = calls.find(s(e.item_id)) ?? calls.find(`#${e.output_index}`);
      if (!c) return []; // arguments of an item not announced: not a function call of ours
      if (e.type.endsWith(".done")) finalArguments(c, s(e.arguments));
      else c.args.push(s(e.delta));
      return [c];
    }
    return [];
  },
  anthropic(e, calls) {
    if (e.type === "content_block_start" && e.content_block?.type === "tool_use") {
      const c = calls.call(String(e.index));
      c.id = s(e.content_block.id);
      c.name = s(e.content_block.name);
      c.nameDone = true;
      return [c];
    }
    const c = calls.find(String(e.index));
    if (!c) return [];
    if (e.type === "content_block_delta" && e.delta?.type === "input_json_delta") {
      c.args.push(s(e.delta.partial_json));
      return [c];
    }
    if (e.type === "content_block_stop") {
      c.done = true;
      return [c];
    }
    return [];
  },
  "ai-sdk"(e, calls) {
    if (e.type === "tool-input-start") {
      const c = calls.call(s(e.id));
      c.id = s(e.id);
      c.name = s(e.toolName);
      c.nameDone = true;
      return [c];
    }
    if (e.type === "tool-call") {
      const c = calls.call(s(e.toolCallId));
      c.id = s(e.toolCallId);
      c.name = s(e.toolName);
      c.nameDone = true;
      finalArguments(c, typeof e.input === "string" ? e.input : toJSON(e.input ?? {}, { code: "invalid-request", what: `the arguments of ${c.name}` }));
      return [c];
    }
    const c = calls.find(s(e.id));
    if (!c) return [];
    if (e.type === "tool-input-delta") c.args.push(s(e.delta));
    else if (e.type === "tool-input-end") c.done = true;
    else return [];
    return [c];
  },
  langchain(e, calls) {
    const touched = [];
    for (const ch of e.tool_call_chunks) {
      const c = calls.call(String(ch?.index ?? 0));
      if (s(ch?.id) && !c.id) c.id = ch.id;
      if (s(ch?.name) && ch.name !== c.name) c.name += ch.name;
      if (s(ch?.args)) {
        c.nameDone = true;
        c.args.push(ch.args);
      }
      touched.push(c);
    }
    if (e.response_metadata?.finish_reason || e.response_metadata?.stop_reason) {
      for (const [, c] of calls.entries()) {
        c.nameDone = true;
        c.done = true;
        touched.push(c);
      }
    }
    return touched;
  },
  gemini(e, calls) {
    const touched = [];
    for (const cand of Array.isArray(e.candidates) ? e.candidates : []) {
      for (const part of Array.isArray(cand?.content?.parts) ? cand.content.parts : []) {
        const fc = part?.functionCall;
        if (!fc || typeof fc !== "object") continue;
        const c = calls.call(`g${calls.size}`); // each part holds one whole call
        c.id = s(fc.id) || undefined;
        c.name = s(fc.name);
        c.nameDone = true;
        c.args.push(toJSON(fc.args ?? {}, { code: "invalid-request", what: `the arguments of ${c.name}` }));
        c.done = true;
        touched.push(c);
      }
    }
    return touched;
  },
};

/** One call as the whole response of its provider, JSON text: what tg.parseToolCalls reads. */
function wholeResponse(provider, [c]) {
  const args = c.args.text === "" ? "{}" : c.args.text;
  const id = c.id === undefined ? {} : { id: c.id };
  switch (provider) {
    case "openai-chat":
      return JSON.stringify({ object: "chat.completion", choices: [{ index: 0, message: { role: "assistant", content: null, tool_calls: [{ ...id, type: "function", function: { name: c.name, arguments: args } }] } }] });
    case "openai-responses":
      return JSON.stringify({ object: "response", output: [{ type: "function_call", call_id: c.id, name: c.name, arguments: args }] });
    case "anthropic":
      JSON.parse(args); // not JSON: the caller falls back to the text
      return `{"type":"message","role":"assistant","content":[{"type":"tool_use","id":${JSON.stringify(c.id ?? "")},"name":${JSON.stringify(c.name)},"input":${args}}]}`;
    default: {
      const call = `{${c.id === undefined ? "" : `"id":${JSON.stringify(c.id)},`}"name":${JSON.stringify(c.name)},"args":${args}}`;
      return `{"candidates":[{"content":{"role":"model","parts":[{"functionCall":${call}}]}}]}`;
    }
  }
}
