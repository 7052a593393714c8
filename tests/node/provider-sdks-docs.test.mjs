// The agent loops of docs/provider-sdks.md (```js, whole) and docs/sdks.md (```javascript, after a
// preamble that makes `tg` and `b`) run as a user pastes them, each in its own Node process,
// against a local server (127.0.0.1, no network) that replays the recorded responses of
// tests/fixtures/providers/sdk: the SDKs find it through their own base-URL variables
// (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, GOOGLE_GEMINI_BASE_URL), so the examples carry no test code.
import { test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { tg, fixture, fixturesDir } from "./helpers.mjs";

const run = promisify(execFile);
const root = join(fixturesDir, "..", "..");
/** The SDK agent loops among a Markdown file's ```<fence> blocks: those ending with tg.toolResult(done, target). */
function loopsOf(file, fence = "js") {
  const text = readFileSync(join(root, file), "utf8");
  return [...text.matchAll(new RegExp("```" + fence + "\\n([\\s\\S]*?)```", "g"))].map((m) => m[1]).filter((code) => /tg\.toolResult\(done, "/.test(code));
}
const docBlocks = loopsOf(join("docs", "provider-sdks.md"));
// docs/sdks.md's short loops (```javascript) assume `tg` and a branch `b` holding your tools, as
// that page says: they run with this preamble, a branch of the same weather tool.
const PREAMBLE = `import { initialize } from "toolgate";
const tg = await initialize();
const b = tg.branch({ tools: [tg.tool({
  name: "get_weather", description: "Current weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  handler: ({ city }) => ({ city, temperature: 18 }),
})] });
`;
const shortBlocks = loopsOf(join("docs", "sdks.md"), "javascript");
const blocks = [...docBlocks.map((code, i) => ({ code, where: `docs/provider-sdks.md example ${i + 1}` })),
  ...shortBlocks.map((code, i) => ({ code: PREAMBLE + code, where: `docs/sdks.md example ${i + 1}` }))];
const dir = join(dirname(fileURLToPath(import.meta.url)), "docs-examples");
mkdirSync(dir, { recursive: true });

// The examples' tool, to compute the tools each request must carry.
const weather = tg.tool({
  name: "get_weather",
  description: "Current weather for a city.",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  handler: ({ city }) => ({ city, temperature: 18 }),
});
const RESULT = { city: "Paris", temperature: 18 };

/**
 * Per target: the recorded first response cut down to its first call (get_weather for Paris), the
 * final one, the path the SDK posts to, and the tool result the second request must end with.
 */
const REPLAYS = {
  "openai-chat": (fx) => {
    const first = structuredClone(fx.first);
    first.choices[0].message.tool_calls.splice(1);
    return { first, path: /^\/v1\/chat\/completions$/, last: (body) => body.messages.at(-1), want: { role: "tool", tool_call_id: fx.calls[0].id, content: JSON.stringify(RESULT) } };
  },
  "openai-responses": (fx) => {
    const first = structuredClone(fx.first);
    first.output = first.output.filter((o) => o.type !== "function_call" || o.call_id === fx.calls[0].id);
    return { first, path: /^\/v1\/responses$/, last: (body) => body.input.at(-1), want: { type: "function_call_output", call_id: fx.calls[0].id, output: JSON.stringify(RESULT) } };
  },
  anthropic: (fx) => {
    const first = structuredClone(fx.first);
    first.content = first.content.filter((c) => c.type !== "tool_use" || c.id === fx.calls[0].id);
    return { first, path: /^\/v1\/messages$/, last: (body) => body.messages.at(-1), want: { role: "user", content: [{ type: "tool_result", tool_use_id: fx.calls[0].id, content: JSON.stringify(RESULT) }] } };
  },
  gemini: (fx) => {
    const first = structuredClone(fx.first);
    first.candidates[0].content.parts.splice(1);
    return { first, path: /^\/v1(beta)?\/models\/gemini-2\.5-flash:generateContent$/, last: (body) => body.contents.at(-1), want: { role: "user", parts: [{ functionResponse: { name: "get_weather", response: { output: RESULT } } }] } };
  },
};

/** A local replay server: the n-th POST gets the n-th response; every request is kept. */
async function replay(path, responses) {
  const received = [];
  const server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const url = new URL(req.url, "http://127.0.0.1");
      received.push({ method: req.method, path: url.pathname, body: text ? JSON.parse(text) : null });
      const next = path.test(url.pathname) ? responses[received.length - 1] : undefined;
      res.writeHead(next ? 200 : 400, { "content-type": "application/json" });
      res.end(JSON.stringify(next ?? { error: { message: `unexpected request ${req.method} ${url.pathname}` } }));
    });
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { received, base: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}

test("docs/provider-sdks.md and docs/sdks.md have one example per SDK", () => {
  for (const [page, loops] of [["docs/provider-sdks.md", docBlocks], ["docs/sdks.md", shortBlocks]]) {
    const targets = loops.map((code) => code.match(/tg\.toolResult\(done, "([a-z-]+)"\)/)?.[1]);
    assert.deepEqual(targets, Object.keys(REPLAYS), page);
  }
});

blocks.forEach(({ code, where }, i) => {
  const target = code.match(/tg\.toolResult\(done, "([a-z-]+)"\)/)?.[1];
  // The tools the loop must send: strict ones when it exports with { strict: true }.
  const options = /tg\.toProvider\(b, "[a-z-]+", \{ strict: true \}\)/.test(code) ? { strict: true } : undefined;
  test(`${where} (${target}) runs its loop to the final answer`, async () => {
    assert.ok(REPLAYS[target], `${where}: no replay for target ${target}`);
    const fx = fixture("providers/sdk", `${target}.json`).data;
    const { first, path, last, want } = REPLAYS[target](fx);
    const server = await replay(path, [first, fx.final]);
    try {
      const file = join(dir, `example-${i + 1}.mjs`);
      writeFileSync(file, code);
      const env = {
        PATH: process.env.PATH,
        OPENAI_BASE_URL: `${server.base}/v1`,
        OPENAI_API_KEY: "sk-test",
        ANTHROPIC_BASE_URL: server.base,
        ANTHROPIC_API_KEY: "sk-ant-test",
        GOOGLE_GEMINI_BASE_URL: server.base,
        GEMINI_API_KEY: "test-key",
      };
      const { stdout } = await run(process.execPath, [file], { env, encoding: "utf8", timeout: 60000 });
      const finalText = {
        "openai-chat": () => fx.final.choices[0].message.content,
        "openai-responses": () => fx.final.output[0].content[0].text,
        anthropic: () => fx.final.content[0].text,
        gemini: () => fx.final.candidates[0].content.parts[0].text,
      }[target]();
      assert.equal(stdout.trim(), finalText);
      assert.equal(server.received.length, 2, "one request per turn");
      for (const r of server.received) {
        assert.match(r.path, path);
        assert.deepEqual(r.body.tools, tg.toProvider(weather, target, options).tools);
      }
      assert.deepEqual(last(server.received[1].body), want, "the second request ends with the tool's result, paired with its call");
    } finally {
      await server.close();
    }
  });
});
