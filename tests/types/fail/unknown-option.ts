import { initialize } from "toolgate";
const tg = await initialize();
tg.tool(function f() {}, { schemaMod: "accurate" });
