// Example tool definitions (their shape is in define.js), each with a call that fits it, and the
// example sets the tools panel offers as one-click chips. Plain data: no DOM, no toolgate.

const ADD = `function add(a, b = 2) {
  /** Add two numbers.
   *
   * Args:
   *   a: first number
   *   b: second number
   */
  return Number(a) + Number(b);
}`;

const WEATHER = `function get_weather(city, unit = "celsius") {
  /** Get the current weather for a city.
   *
   * Args:
   *   city: the city's name, e.g. "Paris"
   *   unit: "celsius" or "fahrenheit"
   */
  const celsius = 18;
  const temperature = unit === "fahrenheit" ? celsius * 9 / 5 + 32 : celsius;
  return { city, unit, temperature, sky: "clear" };
}`;

const BUSY = `function busy(seconds = 3) {
  /** Keep the CPU busy with a synchronous loop. The page stays responsive: handlers run in a Web Worker.
   *
   * Args:
   *   seconds: how long to spin
   */
  const end = Date.now() + Number(seconds) * 1000;
  let turns = 0;
  while (Date.now() < end) turns++;
  return \`spun \${turns} times in \${seconds} s\`;
}`;

const schema = (value) => JSON.stringify(value, null, 2);

const CALENDAR_PARAMETERS = {
  type: "object",
  properties: {
    title: { type: "string", minLength: 1, description: "What the event is" },
    start: { type: "string", format: "date-time", description: "Start, RFC 3339 (2026-03-01T09:30:00Z)" },
    end: { type: "string", format: "date-time", description: "End, RFC 3339" },
    location: { type: "string" },
    attendees: {
      type: "array",
      items: {
        type: "object",
        properties: {
          email: { type: "string", format: "email" },
          name: { type: "string" },
          optional: { type: "boolean", default: false },
        },
        required: ["email"],
        additionalProperties: false,
      },
    },
  },
  required: ["title", "start", "end"],
  additionalProperties: false,
};

const SQL_PARAMETERS = {
  type: "object",
  properties: {
    query: { type: "string", description: "One SQL statement, with $1, $2… placeholders" },
    dialect: { type: "string", enum: ["postgres", "mysql", "sqlite"] },
    params: { type: "array", items: { type: ["string", "number", "boolean", "null"] }, description: "Values for the placeholders" },
    options: {
      type: "object",
      properties: {
        limit: { type: "integer", minimum: 1, maximum: 1000 },
        timeoutMs: { type: "integer", minimum: 1 },
        readOnly: { type: "boolean" },
      },
      additionalProperties: false,
    },
  },
  required: ["query", "dialect"],
  additionalProperties: false,
};

const PAY_PARAMETERS = {
  type: "object",
  properties: { amount: { type: "integer", minimum: 1 }, to: { type: "string" } },
  required: ["amount", "to"],
  additionalProperties: false,
};

const SLOW_PARAMETERS = { type: "object", properties: { ms: { type: "integer", minimum: 0, description: "How long to wait" } } };

/** A raw-function definition of source, with the page's defaults. */
function fn(source, extra = {}) {
  return { kind: "function", source, schemaMode: "lionagi", docstringStyle: "google", strictFuncCall: false, ...extra };
}

/** A typed (JSON Schema) definition, with the page's defaults. */
function typed(name, description, parameters, handler, extra = {}) {
  return { kind: "schema", name, description, parameters: schema(parameters), handler, strict: false, coerce: "lax", ...extra };
}

/** The definitions by example id. */
const DEFS = {
  add: () => fn(ADD),
  weather: () => fn(WEATHER),
  calendar: () => typed("create_event", "Create a calendar event.", CALENDAR_PARAMETERS,
    `({ title, start, end, attendees = [] }) =>\n  \`created "\${title}" from \${start} to \${end} with \${attendees.length} attendee(s)\``),
  sql: () => typed("run_query", "Run a read-only SQL query and return the rows.", SQL_PARAMETERS,
    `({ query, dialect, params = [], options = {} }) => ({\n  dialect,\n  query,\n  params,\n  rows: [],\n  limit: options.limit ?? 100,\n})`),
  pay: () => typed("pay", "Pay someone.", PAY_PARAMETERS, "async ({ amount, to }) => `paid ${amount} to ${to}`"),
  slow: () => typed("slow", "Wait, then answer (its timeoutMs is shorter than the wait).", SLOW_PARAMETERS,
    "async ({ ms = 3000 }) => {\n  await new Promise((resolve) => setTimeout(resolve, ms));\n  return `waited ${ms} ms`;\n}", { timeoutMs: 1000 }),
  busy: () => fn(BUSY),
  "add-typed": () => typed("add", "Add two integers (a typed tool that collides with the function add).",
    { type: "object", properties: { a: { type: "integer" }, b: { type: "integer" } }, required: ["a", "b"] }, "({ a, b }) => a + b"),
};

/** A call (JSON text) that fits each example, in the plain {function, arguments} shape. */
// Each call carries an id, as a model's does: tg.toolResult needs one for OpenAI and Anthropic.
export const exampleCalls = {
  add: `{"id": "call_add_1", "function": "add", "arguments": {"a": 1, "b": 2}}`,
  weather: `{"id": "call_weather_1", "function": "get_weather", "arguments": {"city": "Paris", "unit": "celsius"}}`,
  calendar: JSON.stringify({ id: "call_event_1", function: "create_event", arguments: { title: "Design review", start: "2026-03-02T09:30:00Z", end: "2026-03-02T10:15:00Z", attendees: [{ email: "ann@example.com", name: "Ann" }] } }),
  sql: JSON.stringify({ id: "call_query_1", function: "run_query", arguments: { query: "select * from orders where customer = $1", dialect: "postgres", params: ["c-42"], options: { limit: 50 } } }),
  pay: `{"id": "call_pay_1", "function": "pay", "arguments": {"amount": "5", "to": "ann"}}`,
  slow: `{"id": "call_slow_1", "function": "slow", "arguments": {"ms": 3000}}`,
  busy: `{"id": "call_busy_1", "function": "busy", "arguments": {"seconds": 3}}`,
};

/**
 * The chips of the tools panel: {id, label, hint, defs(), call}. defs() gives fresh definitions; call
 * is the call the page shows when the example replaces the branch.
 */
export const examples = [
  { id: "add", label: "add", hint: "a raw function; b has a default", defs: () => [DEFS.add()], call: exampleCalls.add },
  { id: "weather", label: "weather", hint: "a raw function with a Google docstring", defs: () => [DEFS.weather()], call: exampleCalls.weather },
  { id: "calendar", label: "calendar event", hint: "typed: date-time strings, an array of attendee objects", defs: () => [DEFS.calendar()], call: exampleCalls.calendar },
  { id: "sql", label: "SQL query", hint: "typed: an enum, nested options with bounds", defs: () => [DEFS.sql()], call: exampleCalls.sql },
  { id: "pay", label: "pay (README)", hint: "typed: integer minimum 1, both required, no extra keys", defs: () => [DEFS.pay()], call: exampleCalls.pay },
  { id: "slow", label: "slow (timeout)", hint: "waits 3 s with timeoutMs 1000: the call times out", defs: () => [DEFS.slow()], call: exampleCalls.slow },
  { id: "busy", label: "busy (worker)", hint: "a synchronous loop for 3 s: the page stays alive", defs: () => [DEFS.busy()], call: exampleCalls.busy },
  { id: "several", label: "several tools", hint: "add, pay and weather in one branch", defs: () => [DEFS.add(), DEFS.pay(), DEFS.weather()], call: exampleCalls.pay },
  { id: "collision", label: "name collision", hint: "two tools named add: the second is left out", defs: () => [DEFS.add(), DEFS["add-typed"]()], call: exampleCalls.add },
];

/** A new definition of kind "function" or "schema", for the panel's Add buttons. */
export function blankDef(kind, taken = []) {
  let n = 1;
  while (taken.includes(`tool_${n}`)) n++;
  const name = `tool_${n}`;
  if (kind === "schema") {
    return typed(name, "Describe what it does.", { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, "({ text }) => text.toUpperCase()");
  }
  return fn(`function ${name}(text) {\n  /** Describe what it does.\n   *\n   * Args:\n   *   text: what it takes\n   */\n  return String(text).toUpperCase();\n}`);
}

/** The definitions the page opens with. */
export function defaultDefs() {
  return [DEFS.add()];
}

/** The call the page opens with. */
export function defaultCall() {
  return exampleCalls.add;
}
