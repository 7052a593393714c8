// Strict mode is OpenAI's: asking an Anthropic export for it does not compile.
import { initialize } from "toolgate";

async function main(): Promise<void> {
  const tg = await initialize();
  tg.toProvider(function add() { return 1; }, "anthropic", { strict: true });
}
void main;
