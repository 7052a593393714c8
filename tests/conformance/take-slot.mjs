// Preloaded into the conformance client's process (node --import) by make
// test-conformance: waits for one of the client slots run-set.mjs hands out
// (TOOLGATE_CONFORMANCE_SLOTS, a Unix socket) before the client itself starts,
// and holds it until the process ends: the kernel closes the connection then,
// which frees the slot. Without the variable (a scenario run by hand) it does
// nothing.
import { connect } from "node:net";

const path = process.env.TOOLGATE_CONFORMANCE_SLOTS;
if (path) {
  await new Promise((resolve, reject) => {
    const socket = connect(path);
    socket.once("error", reject);
    socket.once("data", () => {
      socket.unref(); // held, but never what keeps the client running
      resolve();
    });
  });
}
