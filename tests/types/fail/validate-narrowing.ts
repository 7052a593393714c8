import { initialize } from "toolgate";
const tg = await initialize();
const r = tg.branch().validate({ function: "x", arguments: {} });
r.arguments;
