import { initialize } from "toolgate";
const tg = await initialize();
const t = tg.tool(function f() {});
t.function = "g";
