// Parameter schemas: zod 4, Standard JSON Schema or plain JSON Schema, as JSON Schema. Node and browser.
import { ToolgateError, describe, readInput } from "./errors.js";

/**
 * Converts a zod 4 / Standard JSON Schema / plain JSON Schema to JSON Schema; null/undefined give
 * undefined. `where` names the caller in errors. Node and browser.
 */
export function jsonSchemaOf(parameters, where) {
  if (parameters == null) return undefined;
  if (typeof parameters !== "object") {
    throw new ToolgateError("invalid-schema", `${where}: parameters must be a JSON Schema object, got ${describe(parameters)}`);
  }
  return readInput(where, "parameters schema (its JSON Schema export)", "invalid-schema", () => {
    const std = parameters["~standard"];
    if (std && std.jsonSchema && typeof std.jsonSchema.input === "function") {
      return std.jsonSchema.input({ target: "draft-2020-12" });
    }
    if (typeof parameters.toJSONSchema === "function") return parameters.toJSONSchema();
    if (std) {
      throw new ToolgateError("invalid-schema", `${where}: this Standard Schema has no JSON Schema export; pass a JSON Schema`);
    }
    return parameters;
  });
}
