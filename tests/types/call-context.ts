// Per-call context and local approval, under strict: a handler annotates its context's type, the
// approve hook's request is typed, invoke takes any context.
import { initialize, type ToolCallInfo, type LocalApprovalRequest } from "toolgate";

interface Session { user: string; admin: boolean }

async function main(): Promise<void> {
  const tg = await initialize();
  const pay = tg.tool({
    name: "pay",
    parameters: { type: "object", properties: { amount: { type: "integer" } }, required: ["amount"] },
    handler: (args, call: ToolCallInfo<Session>) => `${call.context.user} paid ${String(args.amount)} (${call.callId ?? "no id"}, ${call.function})`,
    requireApproval: (args, context) => (context as Session).admin !== true && Number(args.amount) > 100,
    approve: async (req: LocalApprovalRequest, { signal }) => (signal.aborted ? false : { approved: req.tool === "pay", reason: "only pay" }),
    approvalTimeoutMs: 5000,
  });
  const b = tg.branch({ tools: [pay] });
  await b.invoke({ function: "pay", arguments: { amount: 5 } }, { context: { user: "ann", admin: false } satisfies Session });
  // @ts-expect-error requireApproval is a boolean or a function
  tg.tool({ name: "x", parameters: {}, handler: () => 1, requireApproval: "all", approve: () => true });
}
void main;

async function shaped(): Promise<void> {
  const tg = await initialize();
  const t = tg.tool({ name: "r", parameters: { type: "object" }, handler: () => ({ summary: "s", rows: [1] }), toModelOutput: (r: { summary: string }) => r.summary });
  const fc = await tg.branch({ tools: [t] }).invoke({ function: "r", arguments: {} });
  const out: unknown = fc.toModelOutput();
  void out;
}
void shaped;
