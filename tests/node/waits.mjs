// How the Node suites wait: on events where there are some, else by polling a state up to one
// generous ceiling. Nothing here sleeps for a fixed time; a busy machine only makes waits longer.
import assert from "node:assert/strict";

/** The longest a test polls for a state: a ceiling for a machine busy with other work, never a delay. */
export const CEILING_MS = 300000;

/**
 * Polls cond() (which may be async) every 10 ms until it holds; fails naming `what` when the
 * ceiling passes first. For states with no event to wait on; the poll is bounded by time, not by a
 * count of tries that a slow machine can exhaust.
 */
export async function eventually(what, cond, ceilingMs = CEILING_MS) {
  for (const until = performance.now() + ceilingMs; ;) {
    if (await cond()) return;
    if (performance.now() > until) assert.fail(`gave up waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
