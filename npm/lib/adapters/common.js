// What the SDK adapters share: a branch's tools as the export gives them, a call's outcome as the
// text the model reads, and values made safe for an SDK's JSON.stringify. The adapters use only the
// public API of the branch and its toolgate instance, so they import no SDK. Node and browser.
import { ToolgateError, describe } from "../errors.js";

const TARGETS = ["openai-chat", "openai-responses", "anthropic", "gemini", "mcp"];

/** The branch, checked: anything else is unsupported-type naming the call. */
export function checkBranch(b, call) {
  const ok = b !== null && typeof b === "object" && typeof b.validate === "function" && typeof b.invoke === "function" && "schemaList" in b;
  if (!ok) throw new ToolgateError("unsupported-type", `${call}: expected a toolgate Branch (tg.branch()), got ${describe(b)}`);
  return b;
}

/** The toolgate API the branch belongs to (tg), or undefined for a branch of another build. */
function apiOf(b) {
  return b._ctx?.api;
}

/** Refuses a target that is not one of the five. */
export function checkTarget(target, call) {
  if (!TARGETS.includes(target)) {
    throw new ToolgateError("unsupported-type", `${call}: option target must be one of ${TARGETS.join(", ")}, got ${describe(target) === "string" ? JSON.stringify(target) : describe(target)}`);
  }
  return target;
}

/** One exported tool in any target's shape, read as {name, description?, parameters, strict}. */
function readExported(t) {
  const decls = Array.isArray(t.functionDeclarations) ? t.functionDeclarations : [t];
  return decls.map((d) => {
    const f = d.function ?? d; // openai-chat nests under function
    const parameters = f.parameters ?? f.input_schema ?? f.inputSchema ?? f.parametersJsonSchema ?? { type: "object", properties: {} };
    const out = { name: f.name, parameters, strict: f.strict === true };
    if (typeof f.description === "string") out.description = f.description;
    return out;
  });
}

/** A copy of a LionAGI schema without its null-valued keys (which no provider accepts). */
function withoutNulls(v) {
  if (Array.isArray(v)) return v.map(withoutNulls);
  if (v === null || typeof v !== "object") return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = withoutNulls(x);
  return out;
}

/**
 * The branch's tools as `target` exports them, each {name, registered, description?, parameters,
 * strict}: through tg.toProvider when the build has it (provider-clean schemas, names the target
 * accepts, strict mode where it can express the schema), else from schemaList.
 */
export function exportedTools(b, target, strict) {
  const tg = apiOf(b);
  if (typeof tg?.toProvider === "function") {
    const { tools, report } = tg.toProvider(b, target, { strict });
    return tools.flatMap(readExported).map((t) => ({ ...t, registered: report.names?.[t.name] ?? t.name }));
  }
  // TODO(issue 10): stop-gap until toProvider lands on this branch: names as registered, no strict.
  return b.schemaList.map((s) => {
    const f = withoutNulls(s.function);
    const out = { name: f.name, registered: f.name, parameters: f.parameters ?? { type: "object", properties: {} }, strict: false };
    if (typeof f.description === "string") out.description = f.description;
    return out;
  });
}

/** Whether JSON.stringify can write v as it is (no BigInt, no cycle). */
function plainJSON(v) {
  try {
    JSON.stringify(v);
    return true;
  } catch {
    return false;
  }
}

/**
 * JSON text of v with every BigInt written as its exact digits; "<unserializable>" for what JSON
 * cannot carry (a cycle, a throwing toJSON).
 */
export function exactJSON(v) {
  try {
    const tag = `\u0000bigint${Math.random().toString(36).slice(2)}:`;
    const text = JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? tag + x : x));
    if (text === undefined) return "null";
    return text.replace(new RegExp(`"${tag.replace("\u0000", "\\\\u0000")}(-?\\d+)"`, "g"), "$1");
  } catch {
    return "<unserializable>";
  }
}

/** v when an SDK's JSON.stringify can write it, else its exact JSON text (BigInts as digits). */
export function jsonSafe(v) {
  if (v === undefined) return null;
  return plainJSON(v) ? v : exactJSON(v);
}

/** A tool's response as the text a model reads: a string as it is, anything else exact JSON. */
export function responseText(v) {
  return typeof v === "string" ? v : exactJSON(v ?? null);
}

/** String(v), or a placeholder when even that throws. */
function textOf(v) {
  try {
    return String(v);
  } catch {
    return "<unprintable>";
  }
}

/**
 * The text a model reads for a failed or cancelled call, or for an error match/validate/invoke
 * threw: tg.toolResult's when the build has it; else toolgate's message (which names the tool,
 * each field and rule) for a ToolgateError, and "tool <name> failed: <message>" for anything else.
 */
export function failureText(b, name, callOrError, callId) {
  const tg = apiOf(b);
  if (typeof tg?.toolResult === "function") {
    try {
      const r = tg.toolResult(callOrError, "openai-responses");
      if (typeof r?.output === "string") return r.output;
    } catch {
      /* fall back to the text below */
    }
  }
  const err = callOrError && typeof callOrError === "object" && "status" in callOrError ? callOrError.error : callOrError;
  if (ToolgateError.isInstance(err)) return `${err.message}`;
  const why = textOf(err !== null && typeof err === "object" && "message" in err ? err.message : err);
  return `tool ${JSON.stringify(name)} failed${callId ? ` (call ${callId})` : ""}: ${why}`;
}
