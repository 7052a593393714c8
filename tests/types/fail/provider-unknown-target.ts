// An unknown export target does not compile.
import { initialize } from "toolgate";

async function main(): Promise<void> {
  const tg = await initialize();
  tg.toProvider(function add() { return 1; }, "cohere");
}
void main;
