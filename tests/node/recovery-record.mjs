// Records the failure text each wrong call of the recovery corpus gets from the build installed
// here, into tests/fixtures/recovery/old-texts.json: the texts the harness compares the live ones
// with. Run from the consumer project: node test/recovery-record.mjs --write <commit>. Without
// --write (as when the test runner loads it) it does nothing.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fixture, fixturesDir, tg } from "./helpers.mjs";
import { wrongCalls } from "./recovery-corpus.mjs";

/** The openai-chat failure text of one call's refusal, or null when the call is accepted. */
export function failureText(b, call) {
  const res = b.validate({ id: `call_${call.id}`, function: call.tool, arguments: call.arguments });
  if (res.ok) return null;
  return tg.toolResult(res.error, "openai-chat").content;
}

/** A branch holding every tool of the corpus, each with the default (lax) coercion. */
export function corpusBranch(tools) {
  return tg.branch({ tools: tools.map((t) => tg.tool({ name: t.name, parameters: t.inputSchema, handler: () => null })) });
}

const i = process.argv.indexOf("--write");
if (i >= 0) {
  const commit = process.argv[i + 1];
  if (!/^[0-9a-f]{7,40}$/.test(commit ?? "")) throw new Error("usage: node test/recovery-record.mjs --write <commit>");
  const { tools } = fixture("recovery", "schemas.json").data;
  const b = corpusBranch(tools);
  const texts = {};
  for (const call of wrongCalls(tools)) texts[call.id] = failureText(b, call);
  writeFileSync(join(fixturesDir, "recovery", "old-texts.json"), JSON.stringify({
    about: "The failure texts (tg.toolResult(error, \"openai-chat\").content) the wrong calls of recovery-corpus.mjs got before the messages named what is accepted; null for a call that build accepted.",
    commit, texts }, null, 1) + "\n");
  console.log(`${Object.keys(texts).length} texts recorded from ${commit}`);
}
