// What both esbuild apps do once toolgate is initialized: a tool whose schema needs the validator
// module (an anyOf of objects), invoked at once (invoke waits for the module's download), and a
// refused call. Writes the outcome, or the error, into #out.
export async function run(init) {
  const out = document.getElementById("out");
  try {
    const tg = await init();
    const either = tg.tool({
      name: "either",
      parameters: {
        type: "object",
        properties: { n: { anyOf: [{ type: "object", properties: { a: { type: "integer" } } }, { type: "object", properties: { b: { type: "string" } } }] } },
        required: ["n"],
      },
      handler: ({ n }) => n.a + 1,
    });
    const b = tg.branch({ tools: [either] });
    const fc = await b.invoke({ function: "either", arguments: { n: { a: 41 } } });
    const bad = await b.invoke({ function: "either", arguments: { n: 5 } }).then(() => "invoked", (e) => e.code);
    out.textContent = JSON.stringify({ flavor: tg.flavor, status: fc.status, response: fc.response, bad });
  } catch (e) {
    out.textContent = `error: ${e.message}`;
  }
}
