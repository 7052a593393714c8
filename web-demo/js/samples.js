// One-click sample calls for the selected tool, generated from its parameters schema: plausible
// arguments (enum, examples, default, const, then the type and format), wrapped in each provider's
// shape, plus the broken calls a model sends (malformed JSON, a wrong type, a missing or extra
// field, an unknown tool). No DOM here.

const FORMATS = { "date-time": "2026-03-14T09:30:00Z", date: "2026-03-14", time: "09:30:00", email: "ann@example.com", uri: "https://example.com/", uuid: "3f2b8c1e-9d4a-4e1b-8c2f-1a2b3c4d5e6f" };
const NUMERIC_WORDS = /\b(number|count|amount|int(eger)?|quantity|total|age|size|limit)\b/i;

/** A plausible value for one schema node; name is the property's name (for a few friendlier strings). */
export function sampleValue(schema, name = "") {
  if (!schema || typeof schema !== "object") return "example";
  if (Array.isArray(schema.enum) && schema.enum.length) return schema.enum[0];
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ("default" in schema) return schema.default;
  const alt = schema.anyOf || schema.oneOf;
  if (Array.isArray(alt) && alt.length) return sampleValue(alt.find((s) => s?.type !== "null") || alt[0], name);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
  switch (type) {
    case "integer":
      return Math.max(typeof schema.minimum === "number" ? Math.ceil(schema.minimum) : 1, typeof schema.exclusiveMinimum === "number" ? Math.floor(schema.exclusiveMinimum) + 1 : 1);
    case "number":
      return typeof schema.minimum === "number" ? Math.max(schema.minimum, 1.5) : 1.5;
    case "boolean":
      return true;
    case "array": {
      const n = Math.max(1, schema.minItems || 0);
      return Array.from({ length: Math.min(n, 3) }, () => sampleValue(schema.items, name));
    }
    case "object":
      return sampleObject(schema);
    case "string":
      return sampleString(schema, name);
    default:
      return sampleString(schema, name);
  }
}

function sampleString(schema, name) {
  if (schema.format && FORMATS[schema.format]) return FORMATS[schema.format];
  // LionAGI-mode raw functions type every parameter "string": a number-ish description gets a number
  if (NUMERIC_WORDS.test(`${name} ${schema.description || ""}`)) return 2;
  const words = { city: "Paris", location: "Paris", name: "Ann", to: "ann", query: "SELECT 1", title: "Team sync", email: FORMATS.email, url: FORMATS.uri };
  const s = words[name.toLowerCase()] ?? (name ? `${name} example` : "example");
  return typeof schema.minLength === "number" && s.length < schema.minLength ? s.padEnd(schema.minLength, "x") : s;
}

/** Plausible arguments for an object schema: every property it lists. */
export function sampleObject(schema) {
  const out = {};
  for (const [key, sub] of Object.entries(schema?.properties || {})) out[key] = sampleValue(sub, key);
  for (const key of schema?.required || []) if (!(key in out)) out[key] = "example";
  return out;
}

/** The arguments with one value of the wrong type (the first property that has a type), and its key. */
function wrongType(schema, args) {
  const props = Object.entries(schema?.properties || {});
  const pick = props.find(([, s]) => s && s.type && s.type !== "string") || props[0];
  if (!pick) return { args: { ...args }, key: null };
  const [key, sub] = pick;
  const bad = { integer: "two", number: "two", boolean: "maybe", array: "not a list", object: "not an object" }[sub?.type] ?? 12345;
  return { args: { ...args, [key]: bad }, key };
}

function stringify(value) {
  return JSON.stringify(value, null, 2);
}

/** The chat-style wrappers: [id, label, text] for the valid shapes. */
function providerShapes(name, args, other) {
  const argText = JSON.stringify(args);
  const chatCall = (id, a) => ({ id, type: "function", function: { name, arguments: JSON.stringify(a) } });
  const toolUse = (id, a) => ({ type: "tool_use", id, name, input: a });
  return [
    ["plain", "Plain", "{id, function, arguments}, LionAGI's shape with the optional call id", stringify({ id: "call_P1", function: name, arguments: args })],
    ["openai-chat", "OpenAI Chat", "an OpenAI Chat tool call (message.tool_calls[i])", stringify(chatCall("call_7Hq2", args))],
    ["openai-chat-message", "OpenAI Chat ×2", "a whole OpenAI Chat completion with two tool calls", stringify({
      id: "chatcmpl-9x1", object: "chat.completion", model: "gpt-4.1",
      choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [chatCall("call_A1", args), chatCall("call_B2", other)] } }],
    })],
    ["openai-responses", "OpenAI Responses", "an OpenAI Responses function_call output item", stringify({ type: "function_call", id: "fc_68a1", call_id: "call_R5", name, arguments: argText, status: "completed" })],
    ["anthropic", "Anthropic", "an Anthropic tool_use content block", stringify(toolUse("toolu_01A", args))],
    ["anthropic-message", "Anthropic ×2", "a whole Anthropic message with two tool_use blocks", stringify({
      id: "msg_01X", type: "message", role: "assistant", model: "claude-sonnet-4-5", stop_reason: "tool_use",
      content: [{ type: "text", text: "I'll make both calls." }, toolUse("toolu_01A", args), toolUse("toolu_02B", other)],
    })],
    ["gemini", "Gemini", "a Gemini part holding a functionCall", stringify({ functionCall: { id: "gem-1", name, args } })],
    ["gemini-response", "Gemini ×2", "a whole Gemini response with two functionCall parts", stringify({
      candidates: [{ finishReason: "STOP", content: { role: "model", parts: [{ functionCall: { id: "gem-1", name, args } }, { functionCall: { id: "gem-2", name, args: other } }] } }],
    })],
  ];
}

/**
 * The samples for a tool: [{id, label, title, text, group}] (title says what the sample is), group "shapes" (a valid call in each provider's
 * shape; the whole messages hold a second call missing a field) or "broken". name is the tool's
 * name, schema its parameters schema (may be empty).
 */
export function samplesFor(name, schema) {
  const args = sampleObject(schema);
  const required = Array.isArray(schema?.required) ? schema.required : [];
  const missing = { ...args };
  delete missing[required[0] ?? Object.keys(args)[0]];
  const shapes = providerShapes(name, args, missing).map(([id, label, title, text]) => ({ id, label, title, text, group: "shapes" }));
  // Each carries a call id (as a model's call does), so tg.toolResult can answer the refusal; the
  // malformed one is cut short, and no id can be read from it.
  const plainText = stringify({ id: "call_M1", function: name, arguments: args });
  const broken = [
    ["malformed", "Malformed JSON", "JSON cut short, as a model that ran out of tokens sends it (no call id can be read)", plainText.slice(0, Math.max(12, Math.floor(plainText.length * 0.6)))],
    ["wrong-type", "Wrong type", "one argument of the wrong type", stringify({ id: "call_W1", function: name, arguments: wrongType(schema, args).args })],
    ["missing", "Missing field", "a required argument left out", stringify({ id: "call_F1", function: name, arguments: missing })],
    ["extra", "Extra field", "an argument the tool does not have", stringify({ id: "call_E1", function: name, arguments: { ...args, unexpected_field: true } })],
    ["unknown-tool", "Unknown tool", "a tool name the branch does not have", stringify({ id: "call_U1", function: `${name}_v2`, arguments: args })],
  ].map(([id, label, title, text]) => ({ id, label, title, text, group: "broken" }));
  return [...shapes, ...broken];
}
