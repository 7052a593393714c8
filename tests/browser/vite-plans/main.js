// A user's frontend: tool calls validated from plans built ahead of time (tg.buildPlans), with
// toolgate/plan and no WebAssembly. The test writes plans.json and calls.json before the build.
import { loadPlans, ToolgateError } from "toolgate/plan";
import plansData from "./plans.json";
import calls from "./calls.json";

const plans = loadPlans(plansData);
const results = calls.map((call) => {
  const r = plans.validate(call);
  if (r.ok) return { ok: true, function: r.function, arguments: r.arguments, conversions: r.conversions ?? null };
  return { ok: false, isInstance: ToolgateError.isInstance(r.error), code: r.error.code, message: r.error.message, tool: r.error.tool ?? null, issues: r.error.issues ?? null };
});
document.getElementById("out").textContent = JSON.stringify({ tools: plans.tools, results });
