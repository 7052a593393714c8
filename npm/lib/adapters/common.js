// What the SDK adapters share: a branch's tools as the export gives them, a call's outcome as the
// text the model reads, and values made safe for an SDK's JSON.stringify. The adapters use the
// public API of the branch and of its toolgate instance (tg), and this module imports no SDK. Node and browser.
import { ToolgateError, describe } from "../errors.js";
import { PROVIDER_TARGETS } from "../contract.js";

/** The toolgate API a branch belongs to (tg), or undefined for anything that is no branch of it. */
function apiOf(b) {
  try {
    const tg = b?._ctx?.api;
    return typeof tg?.toProvider === "function" ? tg : undefined;
  } catch {
    return undefined; // a revoked Proxy, a throwing getter: not a branch
  }
}

/** The branch, checked: anything else is unsupported-type naming the call. */
export function checkBranch(b, call) {
  if (apiOf(b) === undefined) throw new ToolgateError("unsupported-type", `${call}: expected a toolgate Branch (tg.branch()), got ${describe(b)}`);
  return b;
}

/** Refuses a target that is not one of PROVIDER_TARGETS. */
export function checkTarget(target, call) {
  if (!PROVIDER_TARGETS.includes(target)) {
    throw new ToolgateError("unsupported-type", `${call}: option target must be one of ${PROVIDER_TARGETS.join(", ")}, got ${typeof target === "string" ? JSON.stringify(target) : describe(target)}`);
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

/**
 * The branch's tools as tg.toProvider exports them to `target` (provider-clean schemas, names the
 * target accepts, strict mode where it can express the schema), each {name, description?,
 * parameters, strict}. The branch remembers the export, so calls to a rewritten name resolve and
 * lose the nulls strict mode introduced.
 */
export function exportedTools(b, target, strict) {
  return apiOf(b).toProvider(b, target, { strict }).tools.flatMap(readExported);
}

/** The name of the search tool a branch with deferred tools holds (lib/tool-search.js's SEARCH_TOOL_NAME). */
const SEARCH_TOOL = "tool_search";

/**
 * After a call of the branch's search tool, adds each tool the search revealed to an adapter's
 * tools (`has(name)` says whether one is there, `add(t)` adds an exported tool), so the SDK's
 * loop offers them from its next step: the SDKs read their tool list again at each step.
 */
export function addRevealed(b, name, target, strict, has, add) {
  if (name !== SEARCH_TOOL) return;
  for (const t of exportedTools(b, target, strict)) if (!has(t.name)) add(t);
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
 * threw: tg.toolResult's; without a call id to write a result for, toolgate's message (which names
 * the tool, each field and rule) for a ToolgateError, and "tool <name> failed: <message>" else.
 */
export function failureText(b, name, callOrError, callId) {
  try {
    const r = apiOf(b).toolResult(callOrError, "openai-responses");
    if (typeof r?.output === "string") return r.output;
  } catch {
    /* no call id to write a result for: the text below */
  }
  const err = callOrError && typeof callOrError === "object" && "status" in callOrError ? callOrError.error : callOrError;
  if (ToolgateError.isInstance(err)) return `${err.message}`;
  const why = textOf(err !== null && typeof err === "object" && "message" in err ? err.message : err);
  return `tool ${JSON.stringify(name)} failed${callId ? ` (call ${callId})` : ""}: ${why}`;
}
