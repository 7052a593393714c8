// Snippets that must compile against the published declarations.
import { initialize, ToolgateError, type Tool, type FunctionCalling, type CallRecord, type CallRecordDb, type ErrorCode, type TransportDetail, type ToolgateErrorData } from "toolgate";
import { initialize as initCore } from "toolgate/core";

async function main(): Promise<void> {
  const tg = await initialize({ wasmURL: new URL("https://example.com/toolgate.wasm") });
  const core = await initCore();
  await core.ready("validator");
  await tg.ready("validator");
  const add: Tool = tg.tool(function add(a: number, b: number) { return a + b; }, { schemaMode: "accurate" });
  const typed = tg.tool({
    name: "pay",
    parameters: { type: "object", properties: { amount: { type: "number" } } },
    handler: async (args) => args,
    strictFuncCall: true,
    inputExamples: [{ amount: 12.5 }],
  });
  const shown: Record<string, unknown>[] = typed.inputExamples;
  void shown;
  const b = core.branch({ tools: [add, typed, null] });
  b.register(add, { update: true });
  const names: string[] = [...b.tools.keys()];
  const r = b.validate({ function: "add", arguments: { a: 1, b: 2 } });
  if (r.ok) {
    const a: Record<string, unknown> = r.arguments;
    void a;
  } else {
    const code: ErrorCode = r.error.code;
    void code;
  }
  const fc: FunctionCalling = await b.invoke('{"function":"add","arguments":{}}', { signal: AbortSignal.timeout(10) });
  const d: number | null = fc.duration;
  try {
    b.match({ type: "tool_use", name: "add", input: {} });
  } catch (e) {
    if (ToolgateError.isInstance(e)) console.log(e.code, e.issues?.[0]?.path);
  }
  void names;
  void d;
  void b.getToolSchema(["add", typed]);
  void add.toDict("db").function;
  const record: CallRecord = fc.toDict();
  void record.metadata.lion_class;
  const dbRecord: CallRecordDb = fc.toDict("db");
  void dbRecord.node_metadata.lion_class;
}
void main;

// The full build's MCP surface.
async function mcp(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const names: string[] = await b.registerMcpServer(
    { name: "docs", url: "https://mcp.example.com/mcp", headers: { authorization: "Bearer x" } },
    { security: { allowUrls: true, urlAllowlist: ["mcp.example.com"] }, qualify: true },
  );
  await b.registerMcpServer({ name: "jobs", url: "https://mcp.example.com/mcp" }, { security: tg.mcp.trusted(), tasks: "always" });
  const loaded = await b.loadMcpConfig({ mcpServers: { docs: { url: "https://mcp.example.com/mcp" } } }, { security: tg.mcp.trusted() });
  const skipped = await b.loadMcpConfig({ mcpServers: { fs: { command: "npx" } } }, {
    security: tg.mcp.trusted(),
    strict: false,
    onWarning: (server: string, e) => void [server, e.code],
  });
  const tools = await tg.loadMcpTools({ mcpServers: {} }, { security: tg.mcp.trusted(), strict: true });
  void skipped;
  void tools;
  const verdict = tg.mcp.checkUrl("https://x.example/", tg.mcp.trusted());
  const allowed: boolean = verdict.allowed;
  await tg.mcp.cleanup();
  void names;
  void loaded;
  void allowed;
}
void mcp;

// A zod 4 schema types the handler's arguments; a plain JSON Schema gives Record<string, unknown>.
import { z } from "zod";
async function zodTyped(): Promise<void> {
  const tg = await initialize();
  const weather = tg.tool({
    name: "weather",
    parameters: z.object({ city: z.string(), days: z.number().optional() }),
    handler: ({ city, days }) => {
      const c: string = city;
      const d: number | undefined = days;
      return `${c} ${d ?? 1}`;
    },
  });
  const plain = tg.tool({ name: "plain", parameters: { type: "object" }, handler: (args) => {
    const a: Record<string, unknown> = args;
    return a;
  } });
  const explicit = tg.tool<{ n: number }>({ name: "explicit", parameters: { type: "object" }, handler: ({ n }) => n + 1 });
  void weather;
  void plain;
  void explicit;
}
void zodTyped;

// The provider's call id is typed on a FunctionCalling.
async function callIds(): Promise<void> {
  const tg = await initialize();
  const b = tg.branch();
  const fc = b.match({ id: "call_1", type: "function", function: { name: "x", arguments: "{}" } });
  const id: string | undefined = fc.callId;
  void id;
}
void callIds;

// An MCP transport error carries the server's HTTP status and JSON-RPC error as data, in its
// transport group; the 0.1 flat names still read (deprecated), and the class can be built with both.
async function mcpHttpErrors(): Promise<void> {
  const tg = await initialize();
  try {
    await tg.branch().registerMcpServer({ name: "docs", url: "https://mcp.example.com/mcp" });
  } catch (e) {
    if (ToolgateError.isInstance(e) && e.code === "transport") {
      const detail: TransportDetail | undefined = e.transport;
      const status: number | undefined = e.transport?.httpStatus;
      const rpc: number | undefined = e.transport?.rpcCode;
      const said: string | undefined = e.transport?.rpcMessage;
      const old: number | undefined = e.httpStatus;
      void [detail, status, rpc, said, old];
    }
  }
  const made = new ToolgateError("transport", "HTTP 500", { tool: "t", transport: { httpStatus: 500, rpcCode: -32603 } });
  const data: ToolgateErrorData = made;
  const flat = new ToolgateError("transport", "HTTP 500", { httpStatus: 500 });
  void [data, flat];
}
void mcpHttpErrors;

// Plans: built through a live instance, validated with toolgate/plan (no WebAssembly).
import { loadPlans, ToolgateError as PlanError, type Plans, type PlansDocument, type ValidationResult as PlanResult } from "toolgate/plan";
async function plansPath(): Promise<void> {
  const tg = await initCore();
  const doc: PlansDocument = tg.buildPlans([
    { name: "search", parameters: { type: "object", properties: { q: { type: "string" } } } },
    tg.tool({ name: "pay", parameters: { type: "object" }, handler: (a) => a }),
  ]);
  const plans: Plans = loadPlans(JSON.stringify(doc));
  const names: string[] = plans.tools;
  const r: PlanResult = plans.validate({ function: "search", arguments: '{"q":"x"}' });
  if (!r.ok && PlanError.isInstance(r.error)) console.log(r.error.code, names, plans.schemaList[0].function.name);
}
void plansPath;
