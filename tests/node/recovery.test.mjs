// The recovery harness: the wrong calls of real MCP and provider-example schemas
// (recovery-corpus.mjs over tests/fixtures/recovery/schemas.json) go through the package; a mock
// model that sees only the failure text and the arguments it sent (recovery-model.mjs) corrects
// each once; a call is recovered when its retry validates. The live texts' recovery rate is
// compared with the rate of the texts recorded before the messages named what is accepted
// (old-texts.json), the same model reading both.
import { test } from "node:test";
import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { fixture, tg, seenVerdict } from "./helpers.mjs";
import { wrongCalls } from "./recovery-corpus.mjs";
import { correct } from "./recovery-model.mjs";
import { corpusBranch, failureText } from "./recovery-record.mjs";

const { tools } = fixture("recovery", "schemas.json").data;
const old = fixture("recovery", "old-texts.json").data;
const calls = wrongCalls(tools);
const b = corpusBranch(tools);

/** Whether the model's one retry, from text, validates. */
function recovers(call, text) {
  const retry = correct(text, call.arguments);
  return b.validate({ function: call.tool, arguments: retry }).ok;
}

test("recovery: the corpus holds at least 200 wrong calls of at least 30 real schemas, every one refused", () => {
  assert.ok(calls.length >= 200, `got ${calls.length} wrong calls, want at least 200`);
  assert.ok(new Set(calls.map((c) => c.tool)).size >= 30);
  for (const call of calls) {
    assert.notEqual(failureText(b, call), null, `${call.id} (${call.mutations.join(", ")}) is accepted`);
    assert.equal(typeof old.texts[call.id], "string", `${call.id} has no recorded old text`);
  }
});

test("recovery: a model reading only the failure text corrects at least 95% of the calls, more than with the old texts", () => {
  let liveOK = 0, oldOK = 0;
  const missed = [];
  for (const call of calls) {
    const text = failureText(b, call);
    if (recovers(call, text)) liveOK++;
    else missed.push(`${call.id} (${call.mutations.join(", ")})`);
    if (recovers(call, old.texts[call.id])) oldOK++;
  }
  const pct = (n) => `${(100 * n / calls.length).toFixed(1)}%`;
  console.log(`recovery: ${liveOK}/${calls.length} (${pct(liveOK)}) with the live texts, ${oldOK}/${calls.length} (${pct(oldOK)}) with the texts of ${old.commit}`);
  if (missed.length > 0) console.log(`not recovered: ${missed.join("; ")}`);
  assert.ok(liveOK / calls.length >= 0.95, `live rate ${pct(liveOK)}, want at least 95%`);
  assert.ok(liveOK > oldOK, `live ${liveOK} must beat old ${oldOK}`);
});

test("recovery: the JS evaluator words every refusal of the corpus as Go does", () => {
  let answered = 0;
  for (const t of tools) {
    const tool = tg.tool({ name: t.name, parameters: t.inputSchema, handler: () => null });
    if (!tool._evaluator) continue;
    const one = tg.branch({ tools: [tool] });
    for (const call of calls.filter((c) => c.tool === t.name)) {
      const js = tool._evaluator.object(structuredClone(call.arguments));
      if (js === undefined) continue;
      answered++;
      one._jsEvaluator = false;
      const go = one.validate({ function: call.tool, arguments: call.arguments });
      one._jsEvaluator = true;
      assert.ok(isDeepStrictEqual(seenVerdict(js), seenVerdict(go)), `${call.id}: js ${JSON.stringify(seenVerdict(js))}, go ${JSON.stringify(seenVerdict(go))}`);
    }
  }
  assert.ok(answered >= 150, `the evaluator answered only ${answered} calls`);
});
