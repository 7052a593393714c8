// toolgate public types: the one hand-written source. index.d.ts and core.d.ts derive from it.
import type { ErrorCode } from "./error-codes.js";
export type { ErrorCode };

/** One validation problem: a JSON pointer, the rule that failed, a message. */
export interface Issue {
  path: string;
  keyword: string;
  message: string;
}

/**
 * Every failure of the library. Node and browser.
 * @example
 * try { b.match(call) } catch (e) { if (ToolgateError.isInstance(e)) console.log(e.code, e.issues) }
 */
export declare class ToolgateError extends Error {
  constructor(code: ErrorCode, message: string, options?: { tool?: string; issues?: Issue[]; cause?: unknown });
  readonly name: "ToolgateError";
  readonly code: ErrorCode;
  readonly tool?: string;
  readonly issues?: Issue[];
  /** True for a ToolgateError from any realm or bundle. */
  static isInstance(value: unknown): value is ToolgateError;
}

/** A JSON Schema object, or a zod 4 / Standard JSON Schema value that can export one. */
export type ParametersSchema =
  | Record<string, unknown>
  | { toJSONSchema(): Record<string, unknown> }
  | { "~standard": { jsonSchema: { input(options: { target: string }): Record<string, unknown> } } };

/** An OpenAI-style provider schema: {type: "function", function: {...}}. */
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
}

/** The typed path: a JSON Schema (or zod 4) for the arguments and a handler taking one object. */
export interface TypedToolSpec<A extends Arguments = Arguments, R = unknown> extends Omit<ToolOptions, "name"> {
  name: string;
  parameters?: ParametersSchema;
  handler: (args: A) => R | Promise<R>;
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

/** The status of a call. */
export type Status = "pending" | "processing" | "completed" | "failed" | "skipped" | "cancelled" | "aborted";

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
  status: Status;
  response: unknown;
  /** A ToolgateError, or whatever the handler threw. */
  error: unknown;
  /** Seconds; null before invoke. */
  duration: number | null;
  toDict(): {
    id: string;
    created_at: number;
    metadata: Record<string, unknown>;
    execution: {
      status: Status;
      duration: number | null;
      response: unknown;
      error: { error: string; message: string; code?: ErrorCode } | null;
      retryable: boolean | null;
    };
    function: string;
    arguments: Arguments;
  };
}

/** A one-entry MCP config: {name: {url, headers?, transport?}}. */
export type McpEntry = Record<string, { url?: string; command?: string; headers?: Record<string, string>; transport?: "streamable-http" | "sse" }>;

/** Anything a branch registers. */
export type ToolLike = Tool | ((...args: any[]) => unknown) | McpEntry;

/** A call: {function, arguments}, a provider tool call, or JSON text of one. */
export type ToolRequest =
  | { function: string | Tool | ((...args: any[]) => unknown); arguments: Arguments | string }
  | { id?: string; type: "function"; function: { name: string; arguments: string } }
  | { type: "function_call"; call_id?: string; name: string; arguments: string }
  | { type: "tool_use"; id?: string; name: string; input: Arguments }
  | { functionCall: { name: string; args: Arguments; id?: string } }
  | string;

/** What `validate` returns: it never throws. */
export type ValidationResult =
  | { ok: true; function: string; arguments: Arguments; conversions?: { path: string; from: string; to: string }[] }
  | { ok: false; error: ToolgateError };

/** A selection for getToolSchema. */
export type ToolSelection = boolean | string | Tool | ((...args: any[]) => unknown) | ToolSchema | ToolSelection[];

/** A conversation branch's tool registry (LionAGI's ActionManager). Node and browser. */
export interface Branch {
  register(tools: ToolLike | ToolLike[], options?: { update?: boolean }): void;
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
  invoke(request: ToolRequest, options?: { signal?: AbortSignal }): Promise<FunctionCalling>;
  /** A new registry holding the same Tool objects. */
  clone(): Branch;
}

/** The API of the core build. */
export interface ToolgateCore {
  readonly version: string;
  readonly flavor: "core" | "full";
  /** A JS function as a tool (the raw path). @example tg.tool(function add(a, b) { return a + b }) */
  tool(fn: (...args: any[]) => unknown, options?: ToolOptions): Tool;
  /** A typed tool. @example tg.tool({ name: "add", parameters: schema, handler: ({a, b}) => a + b }) */
  tool<A extends Arguments = Arguments, R = unknown>(spec: TypedToolSpec<A, R>): Tool;
  /** A new branch with its own registry. */
  branch(options?: { tools?: (ToolLike | null | undefined)[] }): Branch;
  readonly Tool: { fromDict(data: unknown): never };
  readonly FunctionCalling: { fromDict(data: unknown): never };
  readonly ToolgateError: typeof ToolgateError;
}

/** Options of initialize(). */
export interface InitializeOptions {
  /** Where to fetch the .wasm from (browsers; defaults to the package's file). */
  wasmURL?: string | URL;
  /** An already compiled module. */
  wasmModule?: WebAssembly.Module;
}
