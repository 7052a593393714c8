// toolgate public types: the one hand-written source. index.d.ts and core.d.ts derive from it.
import type { ErrorCode, PolicyRule, McpToolRule, ParamKind, ToolOptionName, SecurityKey, ChangeKind, ProviderTarget, Status, McpResultMode } from "./contract.js";
export type { ErrorCode, PolicyRule, McpToolRule, ParamKind, ToolOptionName, SecurityKey, ChangeKind, ProviderTarget, Status, McpResultMode };

/** One validation problem: a JSON pointer, the rule that failed, a message. */
export interface Issue {
  path: string;
  keyword: string;
  message: string;
}

/**
 * Every failure of the library. Node and browser. Besides `code` and `message`, its members are
 * the data the Go side sends (ToolgateErrorData), copied as they come.
 * @example
 * try { b.match(call) } catch (e) { if (ToolgateError.isInstance(e)) console.log(e.code, e.issues) }
 */
export declare class ToolgateError extends Error {
  constructor(code: ErrorCode, message: string, options?: ToolgateErrorOptions);
  readonly name: "ToolgateError";
  readonly code: ErrorCode;
  /** @deprecated Read `transport?.httpStatus` (docs/contract.md, "Migrating from the flat error fields"); removed in the next release. */
  readonly httpStatus?: number;
  /** @deprecated Read `transport?.rpcCode`; removed in the next release. */
  readonly rpcCode?: number;
  /** @deprecated Read `transport?.rpcMessage`; removed in the next release. */
  readonly rpcMessage?: string;
  /** @deprecated Read `auth?.step`; removed in the next release. */
  readonly authStep?: AuthStep;
  /** @deprecated Read `auth?.oauthError`; removed in the next release. */
  readonly oauthError?: string;
  /** @deprecated Read `auth?.oauthErrorDescription`; removed in the next release. */
  readonly oauthErrorDescription?: string;
  /**
   * What JSON.stringify writes of the error: its name, code and message (Error's own members are not
   * enumerable, so without this a logged or stored refusal lost why it failed), then every member of
   * its data; never the stack or the cause. Node and browser.
   * @example JSON.stringify(b.validate(call)) // {"ok":false,"error":{"name":"ToolgateError","code":"invalid-arguments","message":…,"issues":[…]}}
   */
  toJSON(): ToolgateErrorJSON;
  /** True for a ToolgateError from any realm or bundle. */
  static isInstance(value: unknown): value is ToolgateError;
}

/** A ToolgateError as JSON.stringify writes it (ToolgateError.toJSON). */
export interface ToolgateErrorJSON extends ToolgateErrorData {
  name: "ToolgateError";
  code: ErrorCode;
  message: string;
}
/** A ToolgateError holds every member of ToolgateErrorData its failure has. */
export interface ToolgateError extends ToolgateErrorData {}

/**
 * What a ToolgateError says beyond its code and message, each member only when the failure has it
 * (docs/contract.md, "Errors"). Node and browser.
 * @example
 * if (e.code === "transport" && e.transport?.httpStatus === 401) console.log("check the token")
 */
export interface ToolgateErrorData {
  readonly tool?: string;
  readonly issues?: Issue[];
  /**
   * The provider's id of the call refused, when match/validate/invoke was given a request with one
   * (every ToolCall of tg.parseToolCalls that has an id), so `tg.toolResult(error, target)` can answer it.
   */
  readonly callId?: string;
  /**
   * The rule broken, as data to compare (the message is for people): the policy rule that refused,
   * for `policy-denied`; `"x-mcp-header"` for an `invalid-tool` warning about a discovered MCP tool
   * left out (onWarning).
   */
  readonly rule?: PolicyRule | McpToolRule;
  /**
   * For `tool-error` (an MCP tool ran and answered `isError: true`): the tool's whole result, its
   * content as the server sent it (secrets of the server's config removed), in either result mode;
   * integers beyond ±(2^53−1) are BigInts, as in responses.
   */
  readonly result?: McpCallToolResult;
  /**
   * What an MCP server answered behind the failure: a `transport` error caused by an HTTP error
   * answer or a JSON-RPC error, and an `auth-failed` step-up that ended on a 403. Absent when there
   * was no answer (a network error, a timeout).
   */
  readonly transport?: TransportDetail;
  /** For `auth-failed` (an MCP server's OAuth flow failed): where it failed and what the authorization server said. */
  readonly auth?: AuthDetail;
}

/** The options of `new ToolgateError(code, message, options)`: its data, and a cause. */
export type ToolgateErrorOptions = ToolgateErrorData & {
  cause?: unknown;
  /** @deprecated Pass `transport: { httpStatus }`; removed in the next release. */
  httpStatus?: number;
  /** @deprecated Pass `transport: { rpcCode }`; removed in the next release. */
  rpcCode?: number;
  /** @deprecated Pass `transport: { rpcMessage }`; removed in the next release. */
  rpcMessage?: string;
  /** @deprecated Pass `auth: { step }`; removed in the next release. */
  authStep?: AuthStep;
  /** @deprecated Pass `auth: { oauthError }`; removed in the next release. */
  oauthError?: string;
  /** @deprecated Pass `auth: { oauthErrorDescription }`; removed in the next release. */
  oauthErrorDescription?: string;
};

/** What an MCP server answered behind a failure: each member only when it sent one. Node and browser. */
export interface TransportDetail {
  /**
   * The HTTP status of the answer (401, 403, 404, 405, 500, …); absent when the failure had none
   * (a JSON-RPC error in a 200 answer).
   */
  readonly httpStatus?: number;
  /**
   * The code of the JSON-RPC error the server answered (in an HTTP error's body, or in a 200 answer
   * such as a tools/call refused with -32602).
   */
  readonly rpcCode?: number;
  /** That JSON-RPC error's message, with configured secrets redacted and cut to 300 bytes. */
  readonly rpcMessage?: string;
}

/** Where an MCP server's OAuth flow failed (`auth-failed`). Node and browser. */
export interface AuthDetail {
  /** The step that failed. */
  readonly step: AuthStep;
  /** The authorization server's OAuth `error` (invalid_grant, …), when it sent one. */
  readonly oauthError?: string;
  /** Its `error_description`, redacted and cut to 300 bytes, when it sent one. */
  readonly oauthErrorDescription?: string;
}

/** The step of the MCP OAuth flow an `auth-failed` error names. */
export type AuthStep = "discovery" | "registration" | "authorization" | "token" | "refresh" | "step-up";

/** A JSON Schema object, or a zod 4 / Standard JSON Schema value that can export one. */
export type ParametersSchema =
  | Record<string, unknown>
  | { toJSONSchema(): Record<string, unknown> }
  | { "~standard": { jsonSchema: { input(options: { target: string }): Record<string, unknown> } } };

/**
 * The arguments a parameters schema describes, for typing a typed tool's handler: a zod 4 (or any
 * Standard Schema) schema's input type; for a plain JSON Schema, `Arguments`.
 */
export type ArgumentsOf<S> = S extends { readonly "~standard": { readonly types?: infer T } }
  ? NonNullable<T> extends { readonly input: infer I }
    ? I extends Arguments
      ? I
      : Arguments
    : Arguments
  : Arguments;

/**
 * A tool's declaration as LionAGI writes it, in OpenAI Chat's outline: {type: "function", function: {...}}.
 * It is LionAGI-exact, nulls included (a raw function without a docstring has `"description": null`), so it
 * is no SDK's tool type: send `tg.toProvider(branch, target).tools` to a provider instead, which is clean
 * for each target. As an input (`ToolOptions.schema`, a selection), an SDK's own function tool
 * declaration, such as openai's `ChatCompletionFunctionTool`, is accepted as it is.
 */
export interface ToolSchema {
  type: "function";
  function: {
    name: string;
    description?: string | null;
    parameters?: Record<string, unknown> | null;
    strict?: boolean | null;
  };
}

/** A JSON-compatible arguments object (integers beyond ±(2^53−1) are BigInts). */
export type Arguments = Record<string, unknown>;

/** Options shared by both ways of building a tool. */
export interface ToolOptions {
  /** Overrides the name (the schema's function.name). */
  name?: string;
  /** Replaces the docstring's description. */
  description?: string;
  /** A JSON Schema (or zod 4) that validates the arguments of a raw function too (LionAGI's request_options). */
  parameters?: ParametersSchema;
  /** Replaces (never merges with) the docstring's parameter descriptions. */
  parameterDescriptions?: Record<string, string>;
  /** A whole provider schema, kept as given. */
  schema?: ToolSchema;
  /** Adds function.strict: true to the provider schema. */
  strict?: boolean;
  /** The local key-set check: argument keys must equal `required`. */
  strictFuncCall?: boolean;
  /** Replaces the arguments before the call. */
  preprocessor?: (args: Arguments, kwargs: Record<string, unknown>) => Arguments | Promise<Arguments>;
  preprocessorKwargs?: Record<string, unknown>;
  /** Replaces the response after the call. */
  postprocessor?: (response: unknown, kwargs: Record<string, unknown>) => unknown;
  postprocessorKwargs?: Record<string, unknown>;
  /** "lionagi" (default): LionAGI's shipped raw derivation; "accurate": defaults make parameters optional. */
  schemaMode?: "lionagi" | "accurate";
  /** Docstring style of a raw function: "google" (default) or "rest". */
  docstringStyle?: "google" | "rest";
  /** "lax" (default): Pydantic's lax scalar conversions; "none": convert nothing. */
  coerce?: "lax" | "none";
  /** Cancels a call that runs longer (status "cancelled", error code "timeout"). */
  timeoutMs?: number;
  /** Free-form metadata kept in the record. */
  metadata?: Record<string, unknown>;
  /**
   * Argument objects showing a model good calls (at most 16, 16 KiB of JSON together). Each is
   * checked at creation as a call of the tool: one the tool would refuse, one that passes only by a
   * lax conversion ("3" for an integer) or one with a key the tool drops is refused with
   * invalid-tool (issues at `/inputExamples/<i>/…`). Exports send them as Anthropic's
   * `input_examples`, and fold them into the description for the other targets (report kind
   * "examples-folded"); `toolSchema` does not hold them.
   * @example tg.tool({ name: "forecast", parameters, handler, inputExamples: [{ city: "Oslo", days: 3 }] })
   */
  inputExamples?: Arguments[];
  /**
   * Calls need the approve hook's yes before the handler runs: `true`, or per call a function of the
   * (validated, preprocessed) arguments and the invoke's context. Needs `approve`.
   */
  requireApproval?: boolean | ((args: Arguments, context: unknown) => boolean | Promise<boolean>);
  /**
   * Answers a call requireApproval selects: `true` or `{approved: true}` runs it; anything else, a
   * throw, or no answer within approvalTimeoutMs fails it with policy-denied (rule "approval").
   */
  approve?: (request: LocalApprovalRequest, options: { signal: AbortSignal }) => boolean | { approved: boolean; reason?: string } | Promise<boolean | { approved: boolean; reason?: string }>;
  /** How long approve may take (default 120000 ms). */
  approvalTimeoutMs?: number;
  /**
   * What a model is sent of a completed call's response (tg.toolResult, every adapter): the record
   * keeps the whole response. Synchronous; a throw makes toolResult refuse with invalid-result.
   */
  toModelOutput?: (response: any, call: { function: string; callId: string | null }) => unknown;
}

/** What a local tool's approve hook is asked. */
export interface LocalApprovalRequest {
  tool: string;
  name: string;
  arguments: Arguments;
  /** The invoke's `context` option. */
  context: unknown;
  callId: string | null;
}

/** The second argument of a typed handler: this call's context (b.invoke's `context` option), signal, call id and function name. */
export interface ToolCallInfo<C = unknown> {
  context: C;
  /** Aborted when the call is cancelled (its signal or its tool's timeoutMs). */
  signal: AbortSignal | undefined;
  callId: string | null;
  function: string;
}

/** The typed path: a JSON Schema (or zod 4) for the arguments and a handler taking one object. */
export interface TypedToolSpec<A extends Arguments = Arguments, R = unknown> extends Omit<ToolOptions, "name"> {
  name: string;
  parameters?: ParametersSchema;
  handler: (args: A, call: ToolCallInfo<any>) => R | Promise<R>;
}

/** A typed tool definition for tg.buildPlans: what tg.tool takes, the handler optional (plans run nothing). */
export type PlanToolSpec = Omit<TypedToolSpec, "handler"> & {
  handler?: TypedToolSpec["handler"];
  /** Never set: it keeps a raw function (which has a `name` too) from passing for a definition. */
  call?: never;
};

/**
 * Plans: what tg.buildPlans returns and `loadPlans` (toolgate/plan) reads. Data (JSON), checked on
 * load: `format`, `version` (the plans format) and `toolgate` (the version that built them) must be
 * this toolgate's. A tool's `program` is Go's, for toolgate's evaluator only.
 */
export interface PlansDocument {
  format: "toolgate-plans";
  version: number;
  toolgate: string;
  tools: { name: string; toolSchema: ToolSchema; program: unknown }[];
}

/** A tool: a live callable beside its provider schema. Node and browser. */
export interface Tool {
  /** The name, from the schema. */
  readonly function: string;
  /** The provider schema (a fresh copy each time). */
  readonly toolSchema: ToolSchema;
  /** The schema's required keys, in order; throws invalid-schema when the schema has none. */
  readonly requiredFields: string[];
  /** What the non-strict check requires. */
  readonly minimumAcceptableFields: string[];
  readonly strictFuncCall: boolean;
  /** A UUID. */
  readonly id: string;
  /** Epoch seconds. */
  readonly createdAt: number;
  readonly metadata: Record<string, unknown>;
  /** The input examples as checked at creation (a fresh copy each time); [] when it has none. */
  readonly inputExamples: Arguments[];
  /** For a tool of an MCP server: its server, wire name and annotations (a fresh copy each time); null for other tools. */
  readonly mcp: McpToolInfo | null;
  /** The declaration record with LionAGI's keys; never a callable; secrets redacted. */
  toDict(mode?: "python" | "json" | "db"): ToolRecord;
}

/** The serialised declaration of a tool. */
export interface ToolRecord {
  id: string;
  created_at: number;
  metadata?: Record<string, unknown>;
  node_metadata?: Record<string, unknown>;
  mcp_config: Record<string, unknown> | null;
  tool_schema: ToolSchema;
  request_options: Record<string, unknown> | null;
  strict_func_call: boolean;
  function: string;
}

/** One call of a tool: its arguments, status, response, error and duration. */
export interface FunctionCalling {
  readonly id: string;
  readonly createdAt: number;
  metadata: Record<string, unknown>;
  readonly function: string;
  /** Normalised arguments. */
  arguments: Arguments;
  /** Lax conversions made while normalising, if any. */
  readonly conversions?: { path: string; from: string; to: string }[];
  /**
   * The provider's id of the call, when the request carried one: OpenAI Chat's `id`, Responses'
   * `call_id` (else `id`), Anthropic's `tool_use` `id`, Gemini's `functionCall.id`. Send it back
   * with the result so the provider can pair them.
   */
  readonly callId?: string;
  status: Status;
  response: unknown;
  /**
   * A ToolgateError, or the Error the handler threw; a thrown value that is not an Error is wrapped
   * in an Error named "ThrownValue" whose `cause` is the value, so a failed call's error is always
   * an object.
   */
  error: unknown;
  /** Seconds; null before invoke. */
  duration: number | null;
  /** The record, written by Go, as a tool's is. */
  toDict(mode?: "python" | "json"): CallRecord;
  /** The record with its metadata named node_metadata. */
  toDict(mode: "db"): CallRecordDb;
  /** What a model is sent of the response: the tool's toModelOutput applied, else the response. Throws invalid-result when the hook throws. */
  toModelOutput(): unknown;
}

/** A call's record (FunctionCalling.toDict): LionAGI's keys and order, written by Go. */
export interface CallRecord {
  id: string;
  created_at: number;
  metadata: Record<string, unknown>;
  execution: {
    status: Status;
    duration: number | null;
    response: unknown;
    /**
     * As Go writes it: a ToolgateError gives {error: "ToolgateError", message, code, issues?,
     * result?} (result, the tool's own, for a tool-error only).
     */
    error: { error: string; message: string; code?: ErrorCode; issues?: Issue[]; result?: unknown } | null;
    retryable: boolean | null;
  };
  function: string;
  arguments: Arguments;
  /** The provider's call id, last, when the call came with one (LionAGI's record has no such key). */
  call_id?: string;
}

/** A call's record in mode "db": LionAGI names its metadata node_metadata there. */
export type CallRecordDb = Omit<CallRecord, "metadata"> & { node_metadata: Record<string, unknown> };

/**
 * A one-entry MCP config: {name: {url, headers?, transport?, security?, result?}}. The full build registers it
 * under the bare key with a proxy schema, checking its URL on each call against its own `security`
 * (fail-closed without one); `result` is what its calls respond with ("lionagi", the default, or
 * "full"). The core build refuses it with `unsupported`.
 */
export type McpEntry = Record<string, { url?: string; command?: string; headers?: Record<string, string>; transport?: "streamable-http" | "sse"; security?: Security | null; result?: McpResultMode }>;

/** Anything a branch registers. */
export type ToolLike = Tool | ((...args: any[]) => unknown) | McpEntry;

/** A call of a stream refused before (or when) its arguments ended: see tg.toolCallStream. */
export interface StreamRefusal {
  /** The call's place in the stream, from 0. */
  index: number;
  /** The provider's call id, when it sent one. */
  id: string | undefined;
  /** The function name the model called. */
  function: string;
  /** Why: a ToolgateError carrying the call id, so `tg.toolResult(error, target)` answers it. Its issues are only those no later text can undo. */
  error: ToolgateError;
  /** False when the refusal came before the call's arguments ended. */
  complete: boolean;
}

/** One provider stream's tool calls, judged as they arrive (tg.toolCallStream). */
export interface ToolCallStream {
  /**
   * Takes the next event or chunk, as the SDK's stream yields it, and returns the refusals it
   * found: each call's first and only. Throws invalid-request for a value that is no stream event
   * of OpenAI Chat, Responses, Anthropic or Gemini, or one of another provider than the stream's.
   */
  push(event: unknown): StreamRefusal[];
  /** Every call so far, as tg.parseToolCalls gives a whole response's. */
  calls(): ToolCall[];
  /** Every refusal reported so far. */
  readonly refusals: StreamRefusal[];
  /** The stream's provider, once its first event is pushed. */
  readonly provider: "openai-chat" | "openai-responses" | "anthropic" | "gemini" | "ai-sdk" | "langchain" | null;
  /** Ends the stream: each call not yet ended is judged whole; returns the refusals found. */
  end(): StreamRefusal[];
}

/**
 * One tool call of a provider response, as tg.parseToolCalls returns it; match, validate and invoke
 * accept it as it is (the provider's rules apply to its arguments).
 */
export interface ToolCall {
  /**
   * The provider's call id: OpenAI Chat's `id`, Responses' `call_id` (else `id`), Anthropic's
   * `tool_use` `id`, Gemini's `functionCall.id`; null when the provider sent none (Gemini may not).
   */
  id: string | null;
  /** The function name the model called. */
  function: string;
  /**
   * The decoded arguments (integers beyond ±(2^53−1) as BigInts; a custom tool call's text as
   * `{input}`), or the argument text as sent when it is not JSON: invoking such a call fails with
   * invalid-arguments (keyword "json", the byte position in the message) carrying the call id.
   */
  arguments: Arguments | string;
  /** The shape the call came in (never "mcp": MCP sends no model calls). */
  provider: CallProvider;
}

/** The provider shapes a call comes in: every ProviderTarget but "mcp". */
export type CallProvider = Exclude<ProviderTarget, "mcp">;

/**
 * Gemini's function call, as @google/genai types it (`FunctionCall`: every member optional) and hands it
 * over in `response.functionCalls`; `args` is omitted for a function without parameters. A call without
 * `name` is refused at runtime with `invalid-request`.
 */
export interface GeminiFunctionCall {
  name?: string;
  args?: Record<string, unknown>;
  id?: string;
}

/**
 * A call, in the shape an SDK hands it over, passed as it comes (no narrowing, copying or casting):
 * - `{function, arguments}` (LionAGI's shape, with an optional call `id` and `provider` whose rules then
 *   apply), and a `ToolCall` of `tg.parseToolCalls`;
 * - OpenAI Chat: an entry of `message.tool_calls` (the whole `ChatCompletionMessageToolCall` union: a
 *   custom tool call's text becomes the arguments `{input: text}`, as `tg.parseToolCalls` reads it);
 * - OpenAI Responses: a `function_call` output item (`ResponseFunctionToolCall`; its `call_id`, else `id`,
 *   becomes `fc.callId`);
 * - Anthropic: a `tool_use` content block (`ToolUseBlock`; `input` must be an object at runtime);
 * - Gemini: a `Part` holding a `functionCall` (other members such as `thoughtSignature` are ignored), or the
 *   `FunctionCall` itself;
 * - JSON text of one of these.
 *
 * Sizes are checked first, on the lengths: argument text over 16 MiB is invalid-arguments, a request
 * over 32 MiB and 64 KiB of JSON invalid-request, both with an issue whose keyword is `maxBytes`.
 */
export type ToolRequest =
  | ToolCall
  | { function: string | Tool | ((...args: any[]) => unknown); arguments: Arguments | string; id?: string | null; provider?: CallProvider | "lionagi" | null }
  | { id?: string; type: "function"; function: { name: string; arguments: string } }
  | { id?: string; type: "custom"; custom: { name: string; input: string } }
  | { type: "function_call"; call_id?: string; id?: string; name: string; arguments: string }
  | { type: "tool_use"; id?: string; name: string; input: unknown }
  | { functionCall: GeminiFunctionCall }
  | GeminiFunctionCall
  | string;

/** What `validate` returns: it never throws. */
export type ValidationResult =
  | { ok: true; function: string; arguments: Arguments; conversions?: { path: string; from: string; to: string }[] }
  | { ok: false; error: ToolgateError };

/** What tg.toolResult answers a call with: a FunctionCalling that has run, or a ToolgateError match/validate/invoke threw. */
export type ToolOutcome = FunctionCalling | ToolgateError;

/** An OpenAI Chat tool message (assignable to openai's ChatCompletionToolMessageParam). */
export interface OpenAIChatToolResult {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** An OpenAI Responses function_call_output item (assignable to openai's ResponseInputItem.FunctionCallOutput). */
export interface OpenAIResponsesToolResult {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** An Anthropic tool_result block (assignable to @anthropic-ai/sdk's ToolResultBlockParam); is_error only on failure. */
export interface AnthropicToolResult {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/**
 * A Gemini functionResponse part (assignable to @google/genai's Part): `{output}` for a completed call
 * (its JSON value; integers beyond ±(2^53−1) as strings of their digits), `{error}` for a failure.
 */
export interface GeminiToolResult {
  functionResponse: { id?: string; name: string; response: { output: unknown } | { error: string } };
}

/**
 * An MCP tool result: the text content; isError only on failure. Assignable to the MCP SDK's
 * CallToolResult (which allows further members: hence the index signature), so a server's tool
 * handler can return it.
 */
export interface McpToolResult {
  content: { type: "text"; text: string }[];
  isError?: true;
  [key: string]: unknown;
}

/** The result of one call, per target. */
export interface ProviderResult {
  "openai-chat": OpenAIChatToolResult;
  "openai-responses": OpenAIResponsesToolResult;
  anthropic: AnthropicToolResult;
  gemini: GeminiToolResult;
  mcp: McpToolResult;
}

/**
 * The results of a list of calls, per target: the next message (Anthropic's MessageParam, Gemini's
 * Content) or the list of messages or items to append (OpenAI, MCP).
 */
export interface ProviderResultMessage {
  "openai-chat": OpenAIChatToolResult[];
  "openai-responses": OpenAIResponsesToolResult[];
  anthropic: { role: "user"; content: AnthropicToolResult[] };
  gemini: { role: "user"; parts: GeminiToolResult[] };
  mcp: McpToolResult[];
}

/** One tool a search found (also the `tools` of a `tool_search` call's response). */
export interface ToolSearchHit {
  name: string;
  description: string;
  /** The parameter names, in the schema's order. */
  parameters: string[];
}

/** The options of tg.branch: `tools` registered, `defer` registered deferred. */
export interface BranchOptions {
  tools?: (ToolLike | null | undefined)[];
  /** Tools registered deferred: seen by the model only once `tool_search` reveals them. */
  defer?: (ToolLike | null | undefined)[];
}

/** A selection for getToolSchema. */
export type ToolSelection = boolean | string | Tool | ((...args: any[]) => unknown) | ToolSchema | ToolSelection[];

/** A conversation branch's tool registry (LionAGI's ActionManager). Node and browser. */
export interface Branch {
  /**
   * Registers tools. `defer: true` defers them: they are left out of `tg.toProvider` exports (report
   * kind `tool-deferred`) until the branch's `tool_search` tool, which a first deferral registers,
   * finds them (docs/tool-search.md).
   */
  register(tools: ToolLike | ToolLike[], options?: { update?: boolean; defer?: boolean }): void;
  /**
   * Searches the deferred tools by name, description and parameter names (BM25; ties by name): the
   * best `limit` (default 5, at most 50); `reveal: true` includes them in later exports, as the
   * `tool_search` tool does. Node and browser.
   * @example b.searchTools("weather forecast", { limit: 3 })
   */
  searchTools(query: string, options?: { limit?: number; reveal?: boolean }): ToolSearchHit[];
  has(ref: string | Tool | ((...args: any[]) => unknown) | McpEntry): boolean;
  /** name → Tool, in insertion order. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** Provider schemas in insertion order. */
  readonly schemaList: ToolSchema[];
  getToolSchema(selection?: ToolSelection, options?: { autoRegister?: boolean; update?: boolean }): { tools: ToolSchema | ToolSchema[] } | [];
  /** Resolves and validates a call; throws ToolgateError. */
  match(request: ToolRequest): FunctionCalling;
  /** Never throws. */
  validate(request: ToolRequest): ValidationResult;
  /** Resolves to the FunctionCalling whatever its status; rejects only for what match throws. */
  invoke(request: ToolRequest, options?: {
    signal?: AbortSignal;
    /** This call's progress notifications, for an MCP tool (other tools report none); until the call ends, never after. */
    onProgress?: McpProgressHandler;
    /** Any value: a typed handler's `call.context` and a local approve hook's `context`; never serialised, never sent to Go. */
    context?: unknown;
  }): Promise<FunctionCalling>;
  /** A new registry holding the same Tool objects. */
  clone(): Branch;
}

/** The API of the core build. */
export interface ToolgateCore {
  readonly version: string;
  readonly flavor: "core" | "full";
  /** A JS function as a tool (the raw path). @example tg.tool(function add(a, b) { return a + b }) */
  tool(fn: (...args: any[]) => unknown, options?: ToolOptions): Tool;
  /**
   * A typed tool whose handler's arguments are typed by its schema (zod 4 / Standard Schema).
   * @example tg.tool({ name: "add", parameters: z.object({ a: z.number(), b: z.number() }), handler: ({ a, b }) => a + b })
   */
  tool<S extends ParametersSchema, R = unknown>(spec: TypedToolSpec<ArgumentsOf<S>, R> & { parameters: S }): Tool;
  /** A typed tool. @example tg.tool({ name: "add", parameters: schema, handler: ({a, b}) => a + b }) */
  tool<A extends Arguments = Arguments, R = unknown>(spec: TypedToolSpec<A, R>): Tool;
  /** A new branch with its own registry. */
  branch(options?: BranchOptions): Branch;
  /**
   * Tools in a provider's format, with a report of every change made so they fit it. A branch
   * remembers the names it rewrote and the strict restores, so the calls that come back resolve.
   * Node and browser.
   * @example const { tools, report } = tg.toProvider(b, "openai-chat", { strict: true })
   */
  toProvider(branchOrTools: Branch, target: "anthropic", options: { toolSearch: "native" }): { tools: (AnthropicTool | AnthropicToolSearchTool)[]; report: ExportReport };
  toProvider(branchOrTools: Branch, target: "openai-responses", options: { toolSearch: "native"; strict?: boolean }): { tools: (OpenAIResponsesTool | OpenAIToolSearchTool)[]; report: ExportReport };
  toProvider<T extends ProviderTarget>(branchOrTools: Branch | Tool | ((...args: any[]) => unknown) | (Tool | ((...args: any[]) => unknown))[], target: T, options?: ExportOptionsFor<T>): ProviderExport<T>;
  /**
   * Every tool call of a provider response, in order: an OpenAI Chat completion or assistant message,
   * a Responses response or its output, an Anthropic message or its content, a Gemini response,
   * Content or parts, a LangChain.js AIMessage (the instance, its plain data or a concatenated chunk;
   * its calls carry provider "openai-chat"), or one call (an object or its JSON text). Items that are
   * no function call are skipped; only the first choice or candidate is read. Throws invalid-request
   * for a value that is no provider response; for a piece of a stream (a chunk, an event, a snapshot
   * still streaming: issue keyword `streamed`) or a value of a known kind that is no response (a list
   * of messages, one choice: keyword `shape`), saying what to pass instead; and for one over 32 MiB
   * and 64 KiB of JSON (keyword `maxBytes`, refused on its length before it is read).
   * @example for (const call of tg.parseToolCalls(completion)) messages.push(tg.toolResult(await b.invoke(call), "openai-chat"))
   */
  parseToolCalls(response: unknown): ToolCall[];
  /**
   * An accumulator of one provider stream's tool calls (OpenAI Chat chunks, Responses events,
   * Anthropic message stream events, Gemini chunks, each pushed as the SDK yields it) that judges
   * each call's arguments as they arrive and reports its first certain refusal before the stream
   * ends. Throws invalid-request when given no branch.
   * @example const acc = tg.toolCallStream(b); for await (const ev of stream) for (const r of acc.push(ev)) console.log(r.error.message)
   */
  toolCallStream(branch: Branch): ToolCallStream;
  /**
   * A call's outcome as the target's tool-result message: the response (a string as is, anything else
   * as JSON, BigInts exact), or for a failure or a ToolgateError a text for the model naming the
   * tool, each field and rule. Throws invalid-request when the target needs a call id the call lacks.
   * @example messages.push(tg.toolResult(await b.invoke(call), "openai-chat"))
   */
  toolResult<T extends ProviderTarget>(callOrError: ToolOutcome, target: T): ProviderResult[T];
  /**
   * The outcomes of a response's calls as the target's next message: an array of messages or items
   * (OpenAI, MCP), or one user message (Anthropic `content`, Gemini `parts`).
   * @example contents.push(tg.toolResult(await Promise.all(calls.map((c) => b.invoke(c))), "gemini"))
   */
  toolResult<T extends ProviderTarget>(callsOrErrors: readonly ToolOutcome[], target: T): ProviderResultMessage[T];
  /**
   * A JSON.parse reviver for records: turns the spelling {"$bigint": "<digits>"} that toDict() gives
   * every BigInt back into a BigInt. @example JSON.parse(JSON.stringify(fc.toDict()), tg.reviveRecord)
   */
  reviveRecord(key: string, value: unknown): unknown;
  /**
   * Resolves once a part loaded on demand is compiled and started, so a server pays for it before taking
   * traffic: `"validator"`, toolgate-validator.wasm (its first use otherwise blocks the call that needs it).
   * Rejects with a ToolgateError `unsupported` when initialize's `validator` is `"never"` or the file could
   * not be read or fetched (a later call tries again). Node and browser.
   * @example await tg.ready("validator"); server.listen(8080);
   */
  ready(part: "validator"): Promise<void>;
  /**
   * Compiles typed tools into plans: JSON data from which `loadPlans` (toolgate/plan) validates calls
   * with the same results as a live branch, with no WebAssembly. Each tool is a definition tg.tool takes
   * (handler optional) or a typed Tool. Throws `unsupported` naming the tool for a raw function (issue
   * keyword `planRawFunction`), an MCP tool (`planMcpTool`) or a schema the JS evaluator does not model
   * (`planNotModelled`); `duplicate-tool` for a name given twice. Node and browser.
   * @example writeFileSync("plans.json", JSON.stringify(tg.buildPlans([{ name: "add", parameters }])))
   */
  buildPlans(tools: readonly (PlanToolSpec | Tool)[]): PlansDocument;
  readonly Tool: { fromDict(data: unknown): never };
  readonly FunctionCalling: { fromDict(data: unknown): never };
  readonly ToolgateError: typeof ToolgateError;
}

/** Options of tg.toProvider. */
export interface ExportOptions {
  /** OpenAI's strict mode (openai-chat, openai-responses only; another target throws invalid-request). */
  strict?: boolean;
  /** Gemini's legacy `parameters` (the OpenAPI subset) instead of `parametersJsonSchema` (gemini only). */
  geminiLegacy?: boolean;
  /** `"native"`: the provider's own tool search (anthropic, openai-responses): deferred tools with `defer_loading`, then its search tool. */
  toolSearch?: "native";
}

/**
 * The options a target has: `strict` for OpenAI's two formats, `geminiLegacy` for Gemini, none for
 * Anthropic and MCP (at run time an option the target has not throws invalid-request); a target
 * not known until run time takes either.
 */
export type ExportOptionsFor<T extends ProviderTarget> = [T] extends ["openai-chat" | "openai-responses"]
  ? { strict?: boolean; geminiLegacy?: never; toolSearch?: [T] extends ["openai-responses"] ? "native" : never }
  : [T] extends ["gemini"]
    ? { strict?: never; geminiLegacy?: boolean }
    : [T] extends ["anthropic"]
      ? { strict?: never; geminiLegacy?: never; toolSearch?: "native" }
      : [T] extends ["mcp"]
      ? { strict?: never; geminiLegacy?: never }
      : ExportOptions;

/** One JSON Schema node of an exported schema: never a null-valued keyword. */
export interface ExportedSchemaNode {
  [keyword: string]: unknown;
}

/** The parameters schema of an exported tool: always an object schema. */
export interface ExportedParameters {
  type: "object";
  properties?: Record<string, ExportedSchemaNode>;
  required?: string[];
  [keyword: string]: unknown;
}

/** A tool in OpenAI Chat Completions' format (assignable to openai's ChatCompletionTool). */
export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description?: string; parameters: ExportedParameters; strict?: true };
}

/** A tool in OpenAI Responses' format (assignable to openai's Responses FunctionTool). */
export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description?: string;
  parameters: ExportedParameters;
  strict: boolean;
  /** A deferred tool under `toolSearch: "native"`: loaded when OpenAI's tool search finds it. */
  defer_loading?: true;
}

/** A tool in Anthropic's Messages format (assignable to Anthropic.Tool). */
export interface AnthropicTool {
  name: string;
  description?: string;
  input_schema: ExportedParameters;
  /** The tool's inputExamples, when it has some. */
  input_examples?: Arguments[];
  /** A deferred tool under `toolSearch: "native"`: loaded when Anthropic's tool search finds it. */
  defer_loading?: true;
}

/** OpenAI Responses' tool search tool, last in a `toolSearch: "native"` export with deferred tools. */
export interface OpenAIToolSearchTool {
  type: "tool_search";
}

/** Anthropic's BM25 tool search tool, last in a `toolSearch: "native"` export with deferred tools. */
export interface AnthropicToolSearchTool {
  type: "tool_search_tool_bm25_20251119";
  name: "tool_search_tool_bm25";
}

/** One Gemini function declaration: `parametersJsonSchema`, or with geminiLegacy `parameters`. */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parametersJsonSchema?: ExportedParameters;
  parameters?: ExportedSchemaNode;
}

/** Gemini's tools entry (assignable to @google/genai's Tool): one for every declaration. */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/**
 * A tool in MCP's tools/list format (assignable to the MCP SDK's Tool). A discovered MCP tool keeps
 * what its server sent beside the schema (`title`, `outputSchema`, `annotations`, `icons`, `_meta`);
 * its `execution` is not written, as calls through toolgate are never task-augmented.
 */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: ExportedParameters;
  outputSchema?: { type: "object"; properties?: Record<string, object>; required?: string[]; [key: string]: unknown };
  annotations?: McpToolAnnotations;
  icons?: McpIcon[];
  _meta?: Record<string, unknown>;
}

/** The tools of each target. */
export interface ProviderTools {
  "openai-chat": OpenAIChatTool[];
  "openai-responses": OpenAIResponsesTool[];
  anthropic: AnthropicTool[];
  gemini: GeminiTool[];
  mcp: McpTool[];
}

/** One change an export made to one tool. */
export interface Change {
  /** The registered name of the tool. */
  tool: string;
  /** A JSON Pointer into the tool's parameters schema ("" for the tool itself or its name). */
  path: string;
  kind: ChangeKind;
  /** The schema keyword concerned, when there is one. */
  keyword?: string;
  /** For people; code compares kind, path and keyword. */
  message: string;
}

/** The report of an export. */
export interface ExportReport {
  target: ProviderTarget;
  strict: boolean;
  changes: Change[];
  /** Every exported name → the registered name it stands for. */
  names: Record<string, string>;
}

/** What tg.toProvider returns. */
export interface ProviderExport<T extends ProviderTarget = ProviderTarget> {
  tools: ProviderTools[T];
  report: ExportReport;
}

/** Options of initialize(). */
export interface InitializeOptions {
  /** Where to fetch the .wasm from (browsers; defaults to the package's file; a bundler that copies no .wasm needs it: docs/bundlers.md). */
  wasmURL?: string | URL;
  /** An already compiled module. */
  wasmModule?: WebAssembly.Module;
  /**
   * When to load toolgate-validator.wasm, the full JSON Schema validator, which only schemas outside the
   * compiled fast path need (`not`, `if`, `patternProperties`, `$id`, older drafts, …):
   * `"lazy"` (default) — Node reads it when such a schema first appears; browsers fetch it in the background
   * after initialize; until it has arrived `invoke` and MCP discovery wait for it, while the synchronous calls
   * (`tool`, `register`, `validate`, `match`) throw `unsupported` on such a schema (await `tg.ready("validator")` first, or use `"eager"`);
   * `"eager"` — initialize loads and starts it; `"never"` — such schemas throw `unsupported`.
   */
  validator?: "lazy" | "eager" | "never";
  /** Where to fetch toolgate-validator.wasm from (defaults to the package's file; see docs/bundlers.md). */
  validatorURL?: string | URL;
  /** An already compiled toolgate-validator.wasm. */
  validatorModule?: WebAssembly.Module;
}

/**
 * An MCP security policy (LionAGI's MCPSecurityConfig, camelCase). Omitted or null means fail-closed:
 * every URL is refused. Unknown keys and wrong types throw `unsupported-type`. Node and browser.
 * @example const security: Security = { allowUrls: true, urlAllowlist: ["mcp.example.com"] }
 */
export interface Security {
  /** Enables the URL transports at all (default false). */
  allowUrls?: boolean;
  /** Hosts that may be reached, matched exactly ("host", "host:port", an IP literal); omitted: any public host; []: none. */
  urlAllowlist?: readonly string[] | ReadonlySet<string>;
  /** LionAGI's allow_commands; a command config is `unsupported` in this runtime whatever it says. */
  allowCommands?: boolean;
  /** LionAGI's command_allowlist; kept for fidelity, never consulted. */
  commandAllowlist?: readonly string[] | ReadonlySet<string>;
  /** Live sessions per server (default 5); one session carries concurrent calls, which never wait for it. */
  maxConnectionsPerServer?: number;
  /**
   * With allowUrls: permits http and ws (besides https and wss) to localhost, 127.0.0.1 and [::1] (default false).
   * Without urlAllowlist it also allows those hosts on any port; with one (even []) it never widens it:
   * a loopback host must be listed, with its port ("localhost:3000").
   */
  allowLoopbackHttp?: boolean;
  /** Per-request deadline in milliseconds (default 60000); a request that passes it fails with `timeout`. */
  timeoutMs?: number;
  /** Cap on one JSON-RPC message or SSE event in bytes (default 4 MiB). */
  maxMessageBytes?: number;
}

/** The MCP transports over URLs. */
export type McpTransport = "streamable-http" | "sse";

/**
 * The MCP protocol versions a server config may pin: `"2026-07-28"` (the stateless revision: no
 * probe, no handshake) or `"2025-11-25"` (the initialize handshake, no probe). Left out, toolgate
 * finds the server's era itself (a `server/discover` probe, cached per origin). docs/mcp-eras.md.
 */
export type McpProtocolVersion = "2026-07-28" | "2025-11-25";

/** One MCP server for registerMcpServer. Header values are secrets: they appear in no message or record. */
export interface McpServerConfig {
  /** The server name: tools are named mcp__{name}__{tool}. */
  name: string;
  /** The endpoint, checked against the policy on every request. */
  url: string;
  /** "streamable-http" (default) or "sse". */
  transport?: McpTransport;
  /** Sent with every request. */
  headers?: Record<string, string>;
  /** Pins the server's protocol era; left out, toolgate finds it (docs/mcp-eras.md). "sse" is legacy only. */
  protocolVersion?: McpProtocolVersion;
}

/**
 * One server of an MCP config file. A `command` (stdio) server is never started: registerMcpServer
 * refuses it with `unsupported`, loaders skip it with an `unsupported` warning (or refuse the config
 * with `strict`). `${NAME}` in `url` and `headers` values is expanded by the loaders (option `env`).
 */
export interface McpConfigEntry {
  url?: string;
  transport?: McpTransport;
  /** "http" or "streamable-http" mean Streamable HTTP, "sse" means SSE; "stdio" (with `command`) is skipped as every command server is. */
  type?: "http" | "stdio" | McpTransport;
  headers?: Record<string, string>;
  /** Pins the server's protocol era; left out, toolgate finds it. */
  protocolVersion?: McpProtocolVersion;
  command?: string;
  args?: string[];
  env?: Record<string, string>;
}

/**
 * An MCP config file: `{"mcpServers": {name: config}}` (Claude Code's and Cursor's `.mcp.json`) or
 * `{"servers": {name: config}, "inputs"?: [...]}` (VS Code's `mcp.json`; `${input:…}` references are
 * refused, as toolgate prompts no one). An object with neither key, or both, is refused.
 */
export type McpConfigFile =
  | { mcpServers: Record<string, McpConfigEntry>; servers?: never; [key: string]: unknown }
  | { servers: Record<string, McpConfigEntry>; mcpServers?: never; inputs?: unknown[]; [key: string]: unknown };

/** Maps wire tool names (as the server names them) to JSON Schemas (or zod 4 schemas) for local validation. */
export type McpRequestOptions = Record<string, ParametersSchema>;

/**
 * An MCP tool's annotations (tools/list), as the server sent them. They are hints from the server,
 * not guarantees; absent hints take the spec's defaults: readOnlyHint false, destructiveHint true,
 * idempotentHint false, openWorldHint true.
 */
export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
  [key: string]: unknown;
}

/** `tool.mcp` of an MCP tool. */
export interface McpToolInfo {
  /** The server's name. */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** Its annotations as sent; null when it has none (declared tools, one-entry configs). */
  annotations: McpToolAnnotations | null;
  /**
   * The protocol version the tool was discovered with: `"2026-07-28"` on the stateless revision,
   * else the legacy version initialize agreed (`"2025-11-25"`, …); null for declared tools.
   */
  protocolVersion: string | null;
  /** The tool's display name (the descriptor's `title`), as the server sent it. */
  title?: string;
  /** The JSON Schema of its `structuredContent`, as the server sent it (results are checked against it). */
  outputSchema?: Record<string, unknown>;
  /** How it may be called (MCP tasks): `taskSupport` "forbidden" (the default), "optional" or "required". */
  execution?: McpToolExecution;
  /** Its icons, as the server sent them. */
  icons?: McpIcon[];
  /** The descriptor's `_meta`, as the server sent it. */
  _meta?: Record<string, unknown>;
  /**
   * true when `execution.taskSupport` is "required": its calls run as MCP tasks (polled to their end,
   * input through the same hooks, cancelled with the call). On a 2025-11-25 server that declares no
   * tasks a call fails `unsupported` (rule "task-required") before `tools/call`.
   */
  taskRequired?: true;
}

/** Which calls toolgate runs as MCP tasks on a 2025-11-25 server (a 2026-07-28 server decides itself). */
export type McpTaskMode = "required" | "always";

/** An MCP tool's `execution` (tasks): whether a call may, or must, be task-augmented. */
export interface McpToolExecution {
  taskSupport?: "forbidden" | "optional" | "required";
  [key: string]: unknown;
}

/** An icon of an MCP tool: a URL (https or data:) with its MIME type, sizes and theme, as the server sent it. */
export interface McpIcon {
  src: string;
  mimeType?: string;
  sizes?: string[];
  theme?: "light" | "dark";
  [key: string]: unknown;
}

/**
 * Which discovered tools are registered. A tool is kept when it matches `allow` (default: every
 * tool), matches no `block` entry (block wins), and each hint given equals the tool's effective
 * hint (the spec's defaults when absent; a read-only tool counts as non-destructive and idempotent).
 * Entries are wire tool names or globs (`*` any run, `?` one character).
 * @example { block: ["delete_*"], readOnlyHint: true }
 */
export interface McpToolFilter {
  allow?: string[] | Set<string>;
  block?: string[] | Set<string>;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** Which tools need approval: effective destructiveHint true, effective openWorldHint true, or every tool. */
export type McpApprovalRule = "destructive" | "openWorld" | "all";

/** What the approve hook is asked about one call. */
export interface McpApprovalRequest {
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The registered name (what the model called). */
  name: string;
  /** The arguments as they will be sent: validated and coerced. */
  arguments: Record<string, unknown>;
  annotations: McpToolAnnotations | null;
  /** The requireApproval rules that selected this tool. */
  rules: McpApprovalRule[];
}

/** The approve hook's answer: only `true` (or `{approved: true}`) lets the call be sent. */
export type McpApprovalAnswer = boolean | { approved: boolean; reason?: string };

/** Decides one call; a throw, a rejection, no answer within approvalTimeoutMs or any other answer denies it. */
export type McpApproveHook = (request: McpApprovalRequest, context: { signal: AbortSignal }) => McpApprovalAnswer | Promise<McpApprovalAnswer>;

/** The tool policy options every MCP entry point takes (one filter and one approval policy for all servers of a config). */
export interface McpToolPolicyOptions {
  /** Which discovered tools are registered; with `toolNames` only allow/block apply. */
  filter?: McpToolFilter;
  /** Tools whose calls need the approve hook's yes; needs `approve` (default: none). */
  requireApproval?: McpApprovalRule[];
  /** Asked before each call of a tool requireApproval selects; fail-closed. */
  approve?: McpApproveHook;
  /** How long a call waits for approve (default 120000 ms). */
  approvalTimeoutMs?: number;
}


/** One root the client offers a server (`roots/list`): `uri` must be a `file://` URI. */
export interface McpRoot {
  uri: string;
  name?: string;
}

/** What a hook gets besides the request's params: `signal` aborts when the connection closes, `timeoutMs` passes, or the server cancels its request. */
export interface McpHookContext {
  signal: AbortSignal;
}

/** A message of a sampling request or result: its content one block or several. */
export interface McpSamplingMessage {
  role: "user" | "assistant";
  content: McpSamplingContent | McpSamplingContent[];
}

/** A content block of sampling (text, image, audio, or a tool use/result). */
export type McpSamplingContent = { type: string; [key: string]: unknown };

/** The params of `sampling/createMessage` as the server sent them. */
export interface McpCreateMessageParams {
  messages: McpSamplingMessage[];
  maxTokens: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  modelPreferences?: Record<string, unknown>;
  includeContext?: "none" | "thisServer" | "allServers";
  metadata?: Record<string, unknown>;
  [key: string]: unknown;
}

/** What a sampling hook resolves to: the model's message, the model's name, why it stopped. */
export interface McpCreateMessageResult extends McpSamplingMessage {
  model: string;
  stopReason?: "endTurn" | "stopSequence" | "maxTokens" | "toolUse" | (string & {});
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The params of a form-mode `elicitation/create`: a message and the (flat) schema of what to ask. */
export interface McpElicitParams {
  mode?: "form";
  message: string;
  requestedSchema: { type: "object"; properties: Record<string, Record<string, unknown>>; required?: string[] };
  [key: string]: unknown;
}

/** A value of an accepted elicitation. */
export type McpElicitValue = string | number | boolean | string[];

/**
 * What an elicitation hook resolves to. On `accept`, fields left out of `content` (or all of them,
 * without `content`) get the requested schema's defaults (SEP-1034); `decline` and `cancel` carry none.
 */
export type McpElicitResult =
  | { action: "accept"; content?: Record<string, McpElicitValue>; _meta?: Record<string, unknown> }
  | { action: "decline" | "cancel"; _meta?: Record<string, unknown> };

/**
 * Client capabilities as hooks, on registerMcpServer, loadMcpConfig and loadMcpTools. Each one is
 * declared to the server only when given; a server's request for one not given is answered
 * -32601. A hook that throws or times out answers the server -32603 without its message.
 * @example { roots: [{ uri: "file:///work", name: "work" }], sampling: async (p) => ({ role: "assistant", content: { type: "text", text: await myModel(p.messages) }, model: "mine" }) }
 */
export interface McpClientHooks {
  /** Answers `roots/list`: a fixed list, or a function returning one (checked on each call). */
  roots?: McpRoot[] | ((params: unknown, ctx: McpHookContext) => McpRoot[] | Promise<McpRoot[]>);
  /** Answers `sampling/createMessage`: the application calls its own model. */
  sampling?: (params: McpCreateMessageParams, ctx: McpHookContext) => McpCreateMessageResult | Promise<McpCreateMessageResult>;
  /** Answers form-mode `elicitation/create`: ask the user (or accept with the defaults). */
  elicitation?: (params: McpElicitParams, ctx: McpHookContext) => McpElicitResult | Promise<McpElicitResult>;
}

/**
 * OAuth tokens as a token endpoint sends them (RFC 6749 §5.1); toolgate sets `obtained_at` (Unix
 * seconds) and `issuer`, the authorization server that issued them: keep both, the refresh token is
 * only ever sent back to that server.
 */
export interface McpOAuthTokens {
  access_token: string;
  token_type: string;
  expires_in?: number;
  refresh_token?: string;
  scope?: string;
  obtained_at?: number;
  issuer?: string;
}

/**
 * A client's registration at an authorization server (RFC 7591's answer, or pre-registered), with
 * `issuer`, the server it belongs to, stamped by toolgate: a registration is never used at another
 * server, even when storage hands it back for one.
 */
export interface McpOAuthClientInformation {
  client_id: string;
  client_secret?: string;
  token_endpoint_auth_method?: string;
  client_secret_expires_at?: number;
  issuer?: string;
  [key: string]: unknown;
}

/**
 * The authorization response as the redirect brought it back. `iss` is the redirect's `iss`
 * parameter (RFC 9207), exactly as its query carried it: leave it out only when the redirect had
 * none. It is compared with the authorization server's issuer before anything else is done with
 * the response; a server that says it always sends `iss` gets a response without one refused.
 */
export type McpAuthResponse =
  | { code: string; state?: string; iss?: string }
  | { error: string; error_description?: string; state?: string; iss?: string };

/**
 * What redirectToAuthorization returns: the redirect's URL (its code, state and iss), the response
 * as an object, or nothing (finish later with `tg.mcp.finishAuth`). A bare code string has no iss.
 */
export type McpAuthRedirect = string | URL | McpAuthResponse | undefined | void;

/**
 * The `auth` option: one OAuth provider for an MCP server (docs/oauth.md). Data configures the
 * flow; the functions store what it learns (in memory when absent) and reach the user. Tokens,
 * codes and secrets never appear in an error or a record. Node and browser.
 * @example { redirectUrl: "http://localhost:8765/callback", clientMetadata: { client_name: "my app" }, redirectToAuthorization: async (url) => openAndWaitForRedirect(url) }
 */
export interface McpAuthProvider {
  /** The authorization code grant's redirect_uri. */
  redirectUrl?: string | URL;
  /** Client metadata for dynamic registration (client_name, …); redirect_uris default to [redirectUrl]. */
  clientMetadata?: Record<string, unknown>;
  /** An https URL of a Client ID Metadata Document, used as client_id where the server supports it. */
  clientMetadataUrl?: string | URL;
  /** A pre-registered client (no registration). */
  clientId?: string;
  clientSecret?: string;
  /**
   * The issuer of the authorization server that issued `clientId`: a resource that names another
   * server is then refused (`auth-failed`, auth.step "registration") instead of sent the client id.
   */
  clientIssuer?: string;
  /** The scope asked for when neither the server's challenge nor its metadata names one. */
  scope?: string;
  /** The client_credentials grant (no user): a secret (client_secret_basic) or a PKCS#8 PEM private key (private_key_jwt; signed with WebCrypto in JS, never sent to Go). */
  clientCredentials?: { clientId: string; clientSecret: string } | { clientId: string; privateKey: string; algorithm?: string };
  /** Cross-app access (an ID token exchanged at the identity provider, then the JWT bearer grant). */
  crossApp?: { idpTokenEndpoint: string; idToken: string; idpClientId: string; idpClientSecret?: string; clientId: string; clientSecret?: string };
  /** The stored tokens (default: memory). */
  tokens?(): McpOAuthTokens | undefined | null | Promise<McpOAuthTokens | undefined | null>;
  saveTokens?(tokens: McpOAuthTokens): void | Promise<void>;
  /** The stored registration at the authorization server `issuer` (default: memory); keep one per issuer. */
  clientInformation?(issuer: string): McpOAuthClientInformation | undefined | null | Promise<McpOAuthClientInformation | undefined | null>;
  saveClientInformation?(info: McpOAuthClientInformation, issuer: string): void | Promise<void>;
  /**
   * Sends the user to `url` and resolves to the redirect, whole (its iss, then its state, are
   * checked before the code is used); nothing: finish later with `tg.mcp.finishAuth`.
   */
  redirectToAuthorization?(url: URL, ctx: { signal: AbortSignal }): McpAuthRedirect | Promise<McpAuthRedirect>;
}

/** Options of registerMcpServer. */
export interface McpRegisterOptions extends McpToolPolicyOptions, McpClientHooks {
  /** Defers every tool of the server, those a refreshed list adds included: found through `tool_search` (docs/tool-search.md). */
  defer?: boolean;
  /** Declares these wire tool names instead of discovering them (no tools/list). */
  toolNames?: string[];
  /** Keyed by wire tool name; an unknown key is an error before anything is registered. */
  requestOptions?: McpRequestOptions;
  /** Replace MCP tools of the same name (never a local tool). */
  update?: boolean;
  /** The policy; omitted means fail-closed (`policy-denied`). */
  security?: Security | null;
  /** false: register bare tool names instead of mcp__{server}__{tool} (default true). */
  qualify?: boolean;
  /** What calls respond with: "lionagi" (default, single text → string) or "full" (the whole CallToolResult). */
  result?: McpResultMode;
  /** Which calls run as MCP tasks on a 2025-11-25 server: "required" (default) or "always" (optional ones too). */
  tasks?: McpTaskMode;
  /** Each progress notification of the tools' calls (every tools/call then asks for progress). */
  onProgress?: McpProgressHandler;
  /**
   * Each refresh of the server's tools after its notifications/tools/list_changed. Given, the
   * server's standalone stream is held open: call `tg.mcp.cleanup()` to let a Node process exit.
   */
  onToolsChanged?: McpToolsChangedHandler;
  /** The server's OAuth provider: a 401 runs the authorization flow (docs/oauth.md). */
  auth?: McpAuthProvider;
  /**
   * Each discovered tool left out, at registration (before the promise resolves) and at each
   * refresh: its schemas do not compile (`invalid-schema`) or its `x-mcp-header` annotations are
   * invalid (`invalid-tool`, `rule` "x-mcp-header"); `tool` is its name on the server. Default:
   * console.warn.
   */
  onWarning?: McpWarningHandler;
}

/** One progress notification of an MCP tool call. */
export interface McpProgressEvent {
  /** The server's name. */
  server: string;
  /** The tool's name on the server. */
  tool: string;
  /** The tool's registered name. */
  name: string;
  progress: number;
  total?: number;
  /** The server's message, redacted and cut to 500 bytes. */
  message?: string;
}

/** Receives progress notifications, in the order the server sent them, while the call runs. */
export type McpProgressHandler = (event: McpProgressEvent) => void;

/**
 * One refresh of a server's tools in a branch after its notifications/tools/list_changed: the
 * registered names added, removed and changed; or the error that refused the refresh (the old tools stay).
 */
export type McpToolsChangedEvent =
  | { server: string; added: string[]; removed: string[]; changed: string[]; error?: undefined }
  | { server: string; error: ToolgateError; added?: undefined; removed?: undefined; changed?: undefined };

/** Receives each refresh of a server's tools. */
export type McpToolsChangedHandler = (event: McpToolsChangedEvent) => void;

/** MCP annotations of a content item (audience, priority, lastModified). */
export interface McpAnnotations {
  audience?: ("user" | "assistant")[];
  priority?: number;
  lastModified?: string;
  [key: string]: unknown;
}

/** The members every MCP content item may carry. */
interface McpContentBase {
  annotations?: McpAnnotations;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A text item. */
export interface McpTextContent extends McpContentBase { type: "text"; text: string }
/** An image item (base64 data). */
export interface McpImageContent extends McpContentBase { type: "image"; data: string; mimeType: string }
/** An audio item (base64 data). */
export interface McpAudioContent extends McpContentBase { type: "audio"; data: string; mimeType: string }
/** A link to a resource the server can read. */
export interface McpResourceLink extends McpContentBase {
  type: "resource_link"; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number;
}
/** An embedded resource: its text or its base64 blob. */
export interface McpEmbeddedResource extends McpContentBase {
  type: "resource";
  resource: { uri: string; mimeType?: string; _meta?: Record<string, unknown>; [key: string]: unknown } & ({ text: string } | { blob: string });
}
/** One content item of an MCP tool result. */
export type McpContent = McpTextContent | McpImageContent | McpAudioContent | McpResourceLink | McpEmbeddedResource;

/**
 * An MCP CallToolResult kept whole: `fc.response` in `result: "full"` mode, and `error.result` of a
 * `tool-error` in either mode. `structuredContent` was checked against the tool's outputSchema.
 */
export interface McpCallToolResult {
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** Receives each server a loader skipped, and each discovered tool left out (`invalid-schema`, or `rule` "x-mcp-header") (default: console.warn). */
export type McpWarningHandler = (server: string, error: ToolgateError) => void;

/** Options of loadMcpConfig. */
export interface McpLoadConfigOptions extends McpToolPolicyOptions, McpClientHooks {
  /** Defers every tool of every server loaded (see McpRegisterOptions.defer). */
  defer?: boolean;
  /** Only these servers of the config. */
  serverNames?: string[];
  update?: boolean;
  /** The policy; omitted means fail-closed: a loader never trusts implicitly. */
  security?: Security | null;
  /** What calls respond with: "lionagi" (default) or "full" (the whole CallToolResult). */
  result?: McpResultMode;
  /** Which calls run as MCP tasks on a 2025-11-25 server: "required" (default) or "always" (optional ones too). */
  tasks?: McpTaskMode;
  /** Each skipped server, a command (stdio) server as code `unsupported`; nothing is ever started. */
  onWarning?: McpWarningHandler;
  /** true: a command server refuses the whole config with `unsupported` (default false: it is skipped and warned). */
  strict?: boolean;
  /** Each progress notification of the tools' calls. */
  onProgress?: McpProgressHandler;
  /** Each refresh of a server's tools after its list_changed; holds the standalone stream open until `tg.mcp.cleanup()`. */
  onToolsChanged?: McpToolsChangedHandler;
  /** One OAuth provider for every server, or `{server: provider}`. */
  auth?: McpAuthProvider | Record<string, McpAuthProvider>;
  /**
   * Where `${NAME}`, `${env:NAME}` and `${NAME:-default}` in a server's `url` and `headers` values
   * are read from (default: `process.env` in Node; a browser has none). Only the variables the config
   * names are read. An unset variable without a default, or VS Code's `${input:…}`, refuses the whole
   * load with `invalid-tool` (`rule` "unset-variable", "input-variable" or "variable-syntax") naming
   * the variable and the server, never a value; `null` sets none.
   */
  env?: Record<string, string | undefined> | null;
}

/** Options of loadMcpTools. */
export interface McpLoadToolsOptions extends McpToolPolicyOptions, McpClientHooks {
  serverNames?: string[];
  /** server → wire tool name → JSON Schema. */
  requestOptionsMap?: Record<string, McpRequestOptions>;
  security?: Security | null;
  /** What calls respond with: "lionagi" (default) or "full" (the whole CallToolResult). */
  result?: McpResultMode;
  /** Which calls run as MCP tasks on a 2025-11-25 server: "required" (default) or "always" (optional ones too). */
  tasks?: McpTaskMode;
  /** Each skipped server, a command (stdio) server as code `unsupported`; nothing is ever started. */
  onWarning?: McpWarningHandler;
  /** true: a command server refuses the whole config with `unsupported` (default false: it is skipped and warned). */
  strict?: boolean;
  /** Each progress notification of the tools' calls. (No onToolsChanged: these tools are in no branch; load again to see a new list.) */
  onProgress?: McpProgressHandler;
  /** One OAuth provider for every server, or `{server: provider}`. */
  auth?: McpAuthProvider | Record<string, McpAuthProvider>;
  /**
   * Where `${NAME}`, `${env:NAME}` and `${NAME:-default}` in a server's `url` and `headers` values
   * are read from (default: `process.env` in Node; a browser has none). Only the variables the config
   * names are read. An unset variable without a default, or VS Code's `${input:…}`, refuses the whole
   * load with `invalid-tool` (`rule` "unset-variable", "input-variable" or "variable-syntax") naming
   * the variable and the server, never a value; `null` sets none.
   */
  env?: Record<string, string | undefined> | null;
}

/** What checkUrl returns. */
export interface UrlVerdict {
  allowed: boolean;
  /** The rule that refused the URL; absent when allowed. */
  rule?: PolicyRule;
  /** Why the URL is refused, for people (the rule and the detail); absent when allowed. */
  reason?: string;
}

/** tg.mcp: the policy check, the explicit trust policy, and the connection pool. Full build. */
export interface McpNamespace {
  /** The exact check every MCP request gets. Synchronous. @example tg.mcp.checkUrl("https://mcp.example.com/mcp", tg.mcp.trusted()) */
  checkUrl(url: string | URL, security?: Security | null): UrlVerdict;
  /** {allowUrls: true}: any public https/wss host; the parser rules still hold. */
  trusted(): Security;
  /** Closes every pooled connection. */
  cleanup(): Promise<void>;
  /**
   * Completes the OAuth authorization of `server` waiting for its redirect (a call failed
   * `auth-failed`, auth.step "authorization", because redirectToAuthorization returned nothing).
   * `redirect` is the redirect's URL or its response as an object, iss included: a response whose
   * iss is not the authorization server's issuer is refused (`auth-failed`, auth.step
   * "authorization") and the flow keeps waiting for the right one.
   * @example await tg.mcp.finishAuth("docs", location.href)
   */
  finishAuth(server: string, redirect: string | URL | McpAuthResponse): Promise<void>;
}

/** A branch of the full build: a Branch that also registers MCP servers. Node and browser. */
export interface McpBranch extends Branch {
  /**
   * Discovers the server's tools (or declares `toolNames`) and registers them all or none; resolves to the names.
   * @example await b.registerMcpServer({ name: "docs", url: "https://mcp.example.com/mcp" }, { security: tg.mcp.trusted() })
   */
  registerMcpServer(config: McpServerConfig, options?: McpRegisterOptions): Promise<string[]>;
  /** Registers the servers of a `.mcp.json` config (object or JSON text); resolves to {server: names}. */
  loadMcpConfig(config: McpConfigFile | string, options?: McpLoadConfigOptions): Promise<Record<string, string[]>>;
  clone(): McpBranch;
}

/** The MCP part of the full build's API. */
export interface ToolgateMcp extends ToolgateCore {
  /** A new branch with its own registry, able to register MCP servers. */
  branch(options?: BranchOptions): McpBranch;
  /** Builds the tools of a `.mcp.json` config without registering them; resolves to Tool[]. */
  loadMcpTools(config: McpConfigFile | string | null, options?: McpLoadToolsOptions): Promise<Tool[]>;
  readonly mcp: McpNamespace;
}
