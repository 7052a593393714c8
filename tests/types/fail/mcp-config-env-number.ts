// The env option holds strings: a number is a type error.
import { initialize } from "toolgate";

async function main(): Promise<void> {
  const tg = await initialize();
  await tg.branch().loadMcpConfig({ servers: {} }, { env: { PORT: 3000 } });
}
void main;
