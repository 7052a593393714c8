import { initialize } from "toolgate";
const tg = await initialize();
tg.tool(function add(a: number, b: number) { return a + b; }, { inputExamples: [[1, 2]] });
