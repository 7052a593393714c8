import { initialize } from "toolgate";
const tg = await initialize();
tg.tool({ name: "x", parameters: {} });
