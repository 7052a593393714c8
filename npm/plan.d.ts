// toolgate/plan: validating tool calls from plans, in JS alone (no WebAssembly). Node and browser.
import type { ToolSchema, ValidationResult, PlansDocument, Arguments } from "./types.js";
export { ToolgateError } from "./types.js";
export type { PlansDocument, ValidationResult, ToolSchema, ErrorCode, Issue } from "./types.js";

/** The one request shape plans take: a tool name and its arguments, an object or JSON text of one. */
export interface PlanRequest {
  function: string;
  arguments: Arguments | string;
}

/** Tool calls validated from plans: what loadPlans returns. Node and browser. */
export declare class Plans {
  private constructor();
  /** The names of the tools the plans hold, in order. */
  readonly tools: string[];
  /** The tools' provider schemas, in order (fresh copies), as a branch's schemaList. */
  readonly schemaList: ToolSchema[];
  /**
   * Validates a `{function, arguments}` call; never throws. The same answer a live branch holding the
   * same tools gives (`invalid-arguments` with its issues, `tool-not-found`, `invalid-request`, or the
   * normalised arguments and the lax conversions); any other request shape is `invalid-request`, and a
   * call the evaluator cannot decide in JS is `unsupported`.
   * @example const r = plans.validate({ function: "add", arguments: '{"a": 1, "b": 2}' }); if (!r.ok) console.log(r.error.issues)
   */
  validate(request: PlanRequest): ValidationResult;
}

/**
 * Loads plans (what tg.buildPlans or the toolgate-plans command wrote, as an object or JSON text).
 * Throws a ToolgateError: `unsupported-type` for what is no plans document (issue keyword `planFormat`
 * or `planShape`), `unsupported` for plans of another format version or toolgate version
 * (`planVersion`), `duplicate-tool` for a name held twice. Node and browser.
 * @example import plansData from "./plans.json"; const plans = loadPlans(plansData); plans.validate(call)
 */
export declare function loadPlans(data: PlansDocument | string): Plans;
