// Takes the README's screenshot of the playground (docs/playground.png): the README's `pay` tool
// and an Anthropic message with two calls, one accepted with its conversion ("5" → 5) and one refused with its
// issues, at 1366×1280. Run after `make package`: node scripts/readme-screenshot.mjs
import { spawn } from "node:child_process";
import { join } from "node:path";
import { chromium } from "playwright-core";

const root = join(import.meta.dirname, "..");
const server = spawn(process.execPath, [join(root, "web-demo", "serve.mjs")], { env: { ...process.env, PORT: "0" }, stdio: ["ignore", "pipe", "inherit"] });
const base = await new Promise((resolve) => {
  let out = "";
  server.stdout.on("data", (d) => {
    out += d;
    const m = out.match(/http:\/\/localhost:(\d+)\//);
    if (m) resolve(m[0]);
  });
});
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 1280 }, colorScheme: "light" });
  await page.goto(base);
  await page.waitForFunction(() => document.body.dataset.state === "ready", null, { timeout: 60000 });
  await page.getByRole("button", { name: /^pay/ }).first().click();
  await page.getByRole("button", { name: /^Anthropic ×2/ }).click();
  const text = await page.inputValue("#call");
  await page.fill("#call", text.replace(/"amount": 1\b/, '"amount": "5"')); // a string the lax conversion turns into 5
  await page.click("#validate");
  await page.waitForSelector("#result .verdict.bad");
  await page.evaluate(() => document.activeElement?.blur());
  await page.screenshot({ path: join(root, "docs", "playground.png") });
  console.log("written: docs/playground.png");
} finally {
  await browser.close();
  server.kill();
}
